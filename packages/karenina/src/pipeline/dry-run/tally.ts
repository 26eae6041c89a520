import { canonicalKey, displayString, type ModelConfig, modelIdentity } from "../config/index.js";
import type { VerificationTask } from "../task.js";
import type { CallKind, DryRunStage } from "./call-kinds.js";
import type { DryRunPair, DryRunRole, DryRunStageCount } from "./dry-run-plan.js";
import type { PlannedCall } from "./planned-call.js";

const labels = new WeakMap<ModelConfig, Map<string, string>>();

function memoPer(model: ModelConfig, key: string, compute: () => string): string {
  const byKey = labels.get(model) ?? new Map<string, string>();
  labels.set(model, byKey);
  let value = byKey.get(key);
  if (value === undefined) {
    value = compute();
    byKey.set(key, value);
  }
  return value;
}

/** A model as results show it (`interface:model_name`), in a role. */
export const modelLabel = (model: ModelConfig, role: "answering" | "parsing") =>
  memoPer(model, `label:${role}`, () => displayString(modelIdentity(model, role)));
/** An answering model's canonical key: the identity answers are shared by. */
export const answererKey = (model: ModelConfig) =>
  memoPer(model, "key", () => canonicalKey(modelIdentity(model, "answering")));

interface ModelTotals {
  priceKey: string;
  roles: Set<DryRunRole>;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The running totals of a dry run. */
export class Tally {
  readonly stages = new Map<DryRunStage, DryRunStageCount>();
  readonly models = new Map<string, ModelTotals>();
  readonly kinds = new Map<CallKind, { calls: number; outputTokens: number }>();
  readonly pairs = new Map<string, DryRunPair>();
  readonly questions = new Set<string>();
  readonly failed = new Map<string, number>();
  readonly unestimated = new Set<string>();
  tasks = 0;
  answersGenerated = 0;
  answersSupplied = 0;
  /** Tasks with a dynamic rubric to check for presence. */
  dynamicRubrics = 0;
  /** The kinds of answering agent whose runs were estimated (MCP: one with MCP servers). */
  readonly agents = new Set<"tool_loop" | "deep_agent" | "mcp">();

  task(task: VerificationTask): void {
    this.tasks++;
    this.questions.add(task.question.id);
    const answering = modelLabel(task.answering, "answering");
    const parsing = modelLabel(task.parsing, "parsing");
    const key = `${answering}\u0000${parsing}`;
    const pair = this.pairs.get(key) ?? { answering, parsing, tasks: 0 };
    pair.tasks++;
    this.pairs.set(key, pair);
  }

  /** Adds a call: a weighted call (made with some chance) adds its weight in calls and its expected tokens. */
  call(call: PlannedCall, model: string, priceKey: string): void {
    const weight = call.weight ?? 1;
    const input = Math.round(call.inputTokens * weight);
    const output = Math.round(call.outputTokens * weight);
    const stage = this.stages.get(call.stage) ?? {
      stage: call.stage,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    stage.calls += weight;
    stage.inputTokens += input;
    stage.outputTokens += output;
    this.stages.set(call.stage, stage);
    const totals = this.models.get(model) ?? {
      priceKey,
      roles: new Set<DryRunRole>(),
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    totals.roles.add(call.target);
    totals.calls += weight;
    totals.inputTokens += input;
    totals.outputTokens += output;
    this.models.set(model, totals);
    const kind = this.kinds.get(call.kind) ?? { calls: 0, outputTokens: 0 };
    kind.calls += weight;
    kind.outputTokens += output;
    this.kinds.set(call.kind, kind);
  }

  fail(reason: string): void {
    this.failed.set(reason, (this.failed.get(reason) ?? 0) + 1);
  }
}

/** Answers shared between the judges of a question, answering model and replicate: only the first task generates. */
export class AnswerSharing {
  readonly #remaining = new Map<string, number>();

  /** Whether this task is the one that generates its answer (entries are dropped after the last sharer). */
  generates(task: VerificationTask): boolean {
    const left = this.#remaining.get(task.answerKey);
    if (left === undefined) {
      if (task.answerSharers > 1) this.#remaining.set(task.answerKey, task.answerSharers - 1);
      return true;
    }
    if (left <= 1) this.#remaining.delete(task.answerKey);
    else this.#remaining.set(task.answerKey, left - 1);
    return false;
  }
}
