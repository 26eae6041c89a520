import { randomBytes } from "node:crypto";
import { schemaProblems } from "../../errors/index.js";
import { assistantMessage } from "../../llm/index.js";
import {
  type DynamicRubric,
  isRealTemplate,
  parseDynamicRubric,
  parseRubric,
  questionIdFromText,
  type Rubric,
} from "../../model/index.js";
import type { CallableFunction, CallableRegistry } from "../../rubrics/index.js";
import { type TemplateInput, templateCode } from "../../templates/index.js";
import {
  ConfigError,
  type ModelConfig,
  type ModelConfigInput,
  ModelConfigSchema,
  type VerificationConfig,
} from "../config/index.js";
import { TaskAbortedError } from "../orchestrator.js";
import { createRunServices } from "../services.js";
import { NothingToEvaluateError, TaskEvalError } from "./errors.js";
import { type LogEntry, type LogTarget, type MergeStrategy, type TraceInput, traceMessages } from "./logs.js";
import { mergeInto, planScope, runScope, Scope } from "./scope.js";
import type { StepEval } from "./step-eval.js";
import { TaskEvalResult } from "./task-eval-result.js";

/**
 * A question the logged output answers, shaped like the model's `Question` (a `Question` itself fits). Without
 * `id`, the id is computed from the text as the model does (MD5 of the question text).
 */
export interface TaskEvalQuestion {
  id?: string | undefined;
  question: string;
  /** The reference answer: shown to rubric traits that opt in with `include_ground_truth`. */
  raw_answer?: string | null | undefined;
  keywords?: readonly string[] | null | undefined;
  /** The question's own template; `addTemplate(template, { questionId })` overrides it. */
  answer_template?: TemplateInput | null | undefined;
}

/** Options of the {@link TaskEval} constructor. */
export interface TaskEvalOptions {
  taskId?: string;
  metadata?: Record<string, unknown>;
  /** How logs become the evaluated answer, unless `evaluate` says otherwise. Default `concatenate`. */
  mergeStrategy?: MergeStrategy;
  /** TypeScript functions for callable traits, by trait name; they win over code stored in the trait. */
  callables?: CallableRegistry | Record<string, CallableFunction>;
}

/** Where `log` and `logTrace` write. */
export interface LogOptions {
  /** Without a step, the log goes to the global scope only. */
  stepId?: string;
  /** With a step: both scopes (default), the global scope only, or the step only. */
  target?: LogTarget;
}

/** Options of {@link TaskEval.evaluate}. */
export interface TaskEvalEvaluateOptions {
  /** Evaluate this step only (the global scope is then not evaluated). */
  stepId?: string;
  /** Overrides the strategy given to the constructor. */
  mergeStrategy?: MergeStrategy;
  /** The identity results carry as answering model. Default: `taskeval:user-provided`. */
  answeringModel?: ModelConfigInput;
  /** Default `taskeval_<8 hex>`. */
  runName?: string;
  /** Cancels the evaluation: tasks in flight are dropped and `evaluate` rejects with `TaskAbortedError`. */
  signal?: AbortSignal;
}

/** The answering identity of TaskEval results when none is given (spec 05 §9). */
export const TASKEVAL_ANSWERING_MODEL: ModelConfigInput = {
  id: "taskeval_user_provided",
  model_name: "user-provided",
  model_provider: "user-provided",
  interface: "taskeval",
};

function checkStepId(stepId: string | undefined): void {
  if (stepId !== undefined && (typeof stepId !== "string" || stepId === "")) {
    throw new TaskEvalError(`step id must be a non-empty string, found ${JSON.stringify(stepId)}`);
  }
}

function callableMap(callables: TaskEvalOptions["callables"]): Map<string, CallableFunction> {
  if (callables === undefined) return new Map();
  return callables instanceof Map ? new Map(callables) : new Map(Object.entries(callables));
}

/**
 * Open-loop evaluation (spec 05 §9): scores output produced elsewhere (agent logs, production answers) through
 * the verification pipeline, without asking any question. Logs, questions, templates and rubrics go to the
 * global scope or to named steps; `evaluate` judges each scope's merged logs with the config's first parsing
 * model, as a `template_only`, `template_and_rubric` or `rubric_only` run depending on what is attached.
 * @example
 * const taskEval = new TaskEval({ taskId: "report-42" });
 * taskEval.log("Venetoclax inhibits BCL2 [1].");
 * taskEval.addRubric({ regex_traits: [{ name: "cites_sources", pattern: String.raw`\[\d+\]` }] });
 * const config = parseVerificationConfig({ parsing_only: true, parsing_models: [{ id: "judge", model_name: "judge", interface: "openai_endpoint", endpoint_base_url: "http://127.0.0.1:9/v1" }] });
 * const result = await taskEval.evaluate(config, { runName: "doc-example" });
 * result.globalEval?.summary().rubricScores.cites_sources?.passRate; // 1
 * result.globalEval?.verificationResults.rubric_only_eval?.[0]?.metadata.answering.interface; // "taskeval"
 */
export class TaskEval {
  readonly taskId: string | null;
  readonly metadata: Record<string, unknown>;
  readonly mergeStrategy: MergeStrategy;
  readonly #callables: Map<string, CallableFunction>;
  readonly #global = new Scope();
  readonly #steps = new Map<string, Scope>();

  constructor(options: TaskEvalOptions = {}) {
    this.taskId = options.taskId ?? null;
    this.metadata = { ...(options.metadata ?? {}) };
    this.mergeStrategy = options.mergeStrategy ?? "concatenate";
    if (this.mergeStrategy !== "concatenate" && this.mergeStrategy !== "traces_only") {
      throw new TaskEvalError(
        `mergeStrategy must be "concatenate" or "traces_only", found ${JSON.stringify(this.mergeStrategy)}`,
      );
    }
    this.#callables = callableMap(options.callables);
  }

  /** The steps used so far, in first-use order. */
  get stepIds(): string[] {
    return [...this.#steps.keys()];
  }

  #scope(stepId: string | undefined): Scope {
    checkStepId(stepId);
    if (stepId === undefined) return this.#global;
    let scope = this.#steps.get(stepId);
    if (scope === undefined) {
      scope = new Scope();
      this.#steps.set(stepId, scope);
    }
    return scope;
  }

  #addLog(entry: LogEntry, options: LogOptions): void {
    const target = options.target ?? "both";
    if (target !== "both" && target !== "global" && target !== "step") {
      throw new TaskEvalError(
        `log target must be "both", "global" or "step", found ${JSON.stringify(target)}`,
      );
    }
    checkStepId(options.stepId);
    if (options.stepId === undefined) {
      if (target === "step") throw new TaskEvalError('log target "step" needs a stepId');
      this.#global.logs.push(entry);
      return;
    }
    if (target !== "global") this.#scope(options.stepId).logs.push(entry);
    if (target !== "step") this.#global.logs.push(entry);
  }

  /** Logs free text; it is evaluated as an assistant message (left out by the `traces_only` strategy). */
  log(text: string, options: LogOptions = {}): void {
    if (typeof text !== "string") {
      throw new TaskEvalError(`log takes a string, found ${typeof text}; use logTrace for messages`);
    }
    this.#addLog({ kind: "text", messages: [assistantMessage(text)] }, options);
  }

  /**
   * Logs a structured trace: messages (unified, or serialized as results store them), or a string taken as one
   * assistant message.
   * @throws {TraceRecordError} naming the index and field of an invalid serialized message.
   */
  logTrace(trace: TraceInput, options: LogOptions = {}): void {
    this.#addLog({ kind: "trace", messages: traceMessages(trace) }, options);
  }

  /**
   * Attaches a question the logged output answers. Adding a question with the same id again replaces it.
   * @throws {TaskEvalError} when the question text is empty.
   */
  addQuestion(question: TaskEvalQuestion, options: { stepId?: string } = {}): void {
    const text = question?.question;
    if (typeof text !== "string" || text.trim() === "") {
      throw new TaskEvalError("a question needs a non-empty `question` text");
    }
    const own = question.answer_template ?? null;
    const template =
      own === null || (typeof own === "string" && !isRealTemplate(own, text)) ? null : templateCode(own);
    const id = question.id ?? questionIdFromText(text);
    this.#scope(options.stepId).questions.set(id, {
      id,
      text,
      rawAnswer: question.raw_answer ?? null,
      keywords: question.keywords == null ? null : [...question.keywords],
      template,
    });
  }

  /**
   * Attaches a template: to one question (`questionId`), or to every question of the scope without one of its
   * own. The template is checked when `evaluate` runs it (a broken template fails its results, as in a run).
   * Adding again for the same target replaces the template.
   */
  addTemplate(template: TemplateInput, options: { stepId?: string; questionId?: string } = {}): void {
    const code = templateCode(template);
    if (code.code.trim() === "") throw new TaskEvalError("a template needs code (its source is empty)");
    const scope = this.#scope(options.stepId);
    if (options.questionId === undefined) scope.defaultTemplate = code;
    else scope.questionTemplates.set(options.questionId, code);
  }

  /**
   * Attaches a rubric (a `Rubric`, or its Python-shaped dump); rubrics of one scope are merged.
   * @throws {RubricError} for an invalid rubric; {@link DuplicateTraitError} for a trait name already attached.
   */
  addRubric(rubric: Rubric | Record<string, unknown>, options: { stepId?: string } = {}): void {
    const parsed = parseRubric(rubric);
    const scope = this.#scope(options.stepId);
    scope.rubric = mergeInto(scope.rubric, parsed, options.stepId ?? null, false);
  }

  /**
   * Attaches a dynamic rubric: traits evaluated only when their concept is present in the output (spec 03 §8).
   * @throws {RubricError} for an invalid rubric; {@link DuplicateTraitError} for a trait name already attached.
   */
  addDynamicRubric(rubric: DynamicRubric | Record<string, unknown>, options: { stepId?: string } = {}): void {
    const parsed = parseDynamicRubric(rubric);
    const scope = this.#scope(options.stepId);
    scope.dynamicRubric = mergeInto(scope.dynamicRubric, parsed, options.stepId ?? null, true);
  }

  /** Registers (or replaces) the function of a callable trait, winning over the trait's stored code. */
  registerCallable(name: string, fn: CallableFunction): void {
    this.#callables.set(name, fn);
  }

  /**
   * Evaluates the logs (spec 05 §9): the global scope first (when something is attached to it), then every step
   * with something attached; or only `stepId`. Each scope runs as one pipeline run with the TaskEval answering
   * identity, the first parsing model and the config's replicates; few-shot settings are ignored. Questions
   * that cannot be evaluated are listed in `failedQuestions`; a task error is in its result's failure record.
   * @throws {NothingToEvaluateError} when a scope to evaluate has no template and no rubric.
   * @throws {TaskEvalError} for an unknown step, a template attached to an unknown question, templates without
   * questions, or an invalid merge strategy; nothing is evaluated then.
   * @throws {TaskAbortedError} when `signal` aborts.
   */
  async evaluate(config: VerificationConfig, options: TaskEvalEvaluateOptions = {}): Promise<TaskEvalResult> {
    const strategy = options.mergeStrategy ?? this.mergeStrategy;
    if (strategy !== "concatenate" && strategy !== "traces_only") {
      throw new TaskEvalError(
        `mergeStrategy must be "concatenate" or "traces_only", found ${JSON.stringify(strategy)}`,
      );
    }
    const answering = answeringModel(options.answeringModel, config);
    const runName = options.runName ?? `taskeval_${randomBytes(4).toString("hex")}`;
    const plans = this.#scopesToEvaluate(options.stepId).map(([stepId, scope]) =>
      planScope(scope, stepId, { config, answering, runName, strategy }),
    );
    const services = createRunServices(config, {
      callables: this.#callables,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const evals = new Map<string | null, StepEval>();
    try {
      for (const plan of plans) {
        evals.set(plan.stepId, await runScope(plan, services));
        if (options.signal?.aborted) break;
      }
    } finally {
      await services.ports.close();
    }
    if (options.signal?.aborted) throw new TaskAbortedError("the TaskEval evaluation was cancelled");
    const perStep: Record<string, StepEval> = {};
    for (const [stepId, stepEval] of evals) if (stepId !== null) perStep[stepId] = stepEval;
    return new TaskEvalResult(evals.get(null) ?? null, perStep, this.taskId, this.metadata, runName);
  }

  #scopesToEvaluate(stepId: string | undefined): [string | null, Scope][] {
    if (stepId !== undefined) {
      checkStepId(stepId);
      const scope = this.#steps.get(stepId);
      if (scope === undefined) {
        const known = this.stepIds.map((id) => JSON.stringify(id)).join(", ") || "none";
        throw new TaskEvalError(`unknown step "${stepId}" (steps: ${known})`);
      }
      if (!scope.hasAttachments) throw new NothingToEvaluateError(stepId);
      return [[stepId, scope]];
    }
    const scopes: [string | null, Scope][] = [];
    if (this.#global.hasAttachments) scopes.push([null, this.#global]);
    for (const [id, scope] of this.#steps) if (scope.hasAttachments) scopes.push([id, scope]);
    if (scopes.length === 0) throw new NothingToEvaluateError(null);
    return scopes;
  }
}

/** The answering identity of the results: the given model or the TaskEval default, with the run's settings. */
function answeringModel(input: ModelConfigInput | undefined, config: VerificationConfig): ModelConfig {
  const given = input ?? TASKEVAL_ANSWERING_MODEL;
  const parsed = ModelConfigSchema.safeParse(given);
  if (!parsed.success) throw new ConfigError("TaskEval answering model", schemaProblems(parsed.error, given));
  return {
    ...parsed.data,
    request_timeout: parsed.data.request_timeout ?? config.request_timeout,
    retry_policy: parsed.data.retry_policy ?? config.retry_policy,
  };
}
