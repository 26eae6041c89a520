import { workspaceTools } from "../../agentic/index.js";
import type { ReplayStore } from "../../llm/index.js";
import { type DynamicRubric, type Rubric, rubricTraits, templateId } from "../../model/index.js";
import type { PythonSandbox } from "../../sandbox/index.js";
import { type AnswerTemplate, type LoadTemplateOptions, loadTemplate } from "../../templates/index.js";
import { agentTierFor, type ModelConfig, usesAgentPort, type VerificationConfig } from "../config/index.js";
import { taskPlan } from "../planning.js";
import { costOf, DEFAULT_PRICES, type PriceTable } from "../pricing.js";
import { answeringMessages, promptForTask, workspaceParagraph } from "../prompts/index.js";
import { stagesFor } from "../stage-list.js";
import type { PipelineQuestion, VerificationTask } from "../task.js";
import {
  agentRunCalls,
  agentTraceTokens,
  estimatedWorkspacePath,
  toolDefinitionTokens,
} from "./agent-calls.js";
import { assumptionsOf, type Facts } from "./assumptions.js";
import { CALL_KINDS, DRY_RUN_STAGES, type OutputTokenHistory } from "./call-kinds.js";
import type { DryRunModelCost, DryRunPlan, DryRunStageCount } from "./dry-run-plan.js";
import { CallPlanner, type PlannedCall } from "./planned-call.js";
import { AnswerSharing, answererKey, modelLabel, Tally } from "./tally.js";
import { type AnswerSource, answerSource, type JudgeCalls, judgeCalls } from "./task-calls.js";
import { DRY_RUN_TOKENIZER, loadTokenCounter, type TokenCounter } from "./token-counter.js";

/** What a dry run needs besides the questions and the config. */
export interface DryRunOptions {
  /** Default {@link DEFAULT_PRICES}. */
  priceTable?: Readonly<PriceTable>;
  /** Output lengths seen in a response cache (`readOutputTokenHistory`); per-kind defaults otherwise. */
  outputTokenHistory?: OutputTokenHistory;
  globalRubric?: Rubric | null;
  globalDynamicRubric?: DynamicRubric | null;
  /** Task keys to leave out: the finished tasks of a run being resumed. */
  skipKeys?: ReadonlySet<string>;
  /** The sandbox of the questions' trust domain, where Python templates load; default the shared one. */
  pythonSandbox?: PythonSandbox;
  /** The replay store the run would use: its answers need no answering call. */
  replay?: ReplayStore | null;
  /**
   * The run's workspace root: with one, tasks with an agent answerer or agentic traits work in a workspace (and
   * their answering model runs as an agent). Agentic parsing always counts a workspace (the run needs a root).
   */
  workspaceRoot?: string | null;
  /** Whether answering tool-loop agents get `run_command` (`agentCommands` of the run). */
  agentCommands?: boolean;
  /** Called every {@link DRY_RUN_PROGRESS_STEP} tasks walked, for a progress line on very large plans. */
  onProgress?: (walked: number, total: number) => void;
}

/** How many tasks a dry run walks between two `onProgress` calls. */
export const DRY_RUN_PROGRESS_STEP = 10_000;

/** A question's loaded template, or why its tasks fail at ValidateTemplate, before any call. */
type LoadedTemplate = AnswerTemplate | { failure: string };

async function loadOne(
  source: PipelineQuestion["template"],
  options: LoadTemplateOptions,
): Promise<LoadedTemplate> {
  if (source === null || source.code.trim() === "") return { failure: "the question has no answer template" };
  try {
    return await loadTemplate(source.code, source.language, options);
  } catch (error) {
    return {
      failure: `the template does not load (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** The templates of the questions by template id; none in `rubric_only` runs, which need none. */
async function loadTemplates(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  options: LoadTemplateOptions,
): Promise<Map<string, LoadedTemplate>> {
  const templates = new Map<string, LoadedTemplate>();
  if (config.evaluation_mode === "rubric_only") return templates;
  for (const question of questions) {
    const id = templateId(question.template?.code);
    if (!templates.has(id)) templates.set(id, await loadOne(question.template, options));
  }
  return templates;
}

type Answer = Exclude<AnswerSource, { kind: "missing" }>;

/** The tasks of a plan, visited one by one into a tally; prompts shared between tasks are counted once. */
class DryRunWalk {
  readonly tally = new Tally();
  readonly #sharing = new AnswerSharing();
  /** Answering calls by question and answering model (replicates send the same prompts). */
  readonly #answerCalls = new Map<string, PlannedCall[]>();
  /** Judge calls by question, judge interface and answer source: judges of one family get the same prompts. */
  readonly #judged = new Map<string, JudgeCalls>();
  readonly #planners = new Map<string, CallPlanner>();

  constructor(
    private readonly config: VerificationConfig,
    private readonly templates: ReadonlyMap<string, LoadedTemplate>,
    private readonly counter: TokenCounter,
    private readonly options: DryRunOptions,
  ) {}

  visit(task: VerificationTask): void {
    const { tally } = this;
    tally.task(task);
    if (rubricTraits(task.dynamicRubric).some((trait) => trait.type !== "agentic")) tally.dynamicRubrics++;
    const loaded = this.templates.get(task.templateId);
    if (loaded !== undefined && "failure" in loaded) {
      tally.fail(loaded.failure);
      return;
    }
    const source = answerSource(task, this.options.replay ?? null);
    if (source.kind === "missing") {
      tally.fail(source.reason);
      return;
    }
    const generates = this.#sharing.generates(task);
    if (source.kind === "supplied") tally.answersSupplied += generates ? 1 : 0;
    else if (generates) this.#answer(task);
    const judged = this.#judgeCalls(task, source, loaded ?? null);
    for (const stage of judged.unestimated) tally.unestimated.add(stage);
    const judge = modelLabel(task.parsing, "parsing");
    const embeddings = `${this.config.embedding_check_model} (embeddings)`;
    for (const call of judged.calls) {
      if (call.stage.endsWith("_investigation") && agentTierFor(call.model ?? task.parsing) === "deep_agent")
        tally.agents.add("deep_agent");
      if (call.target === "embedding") tally.call(call, embeddings, this.config.embedding_check_model);
      else if (call.model !== undefined)
        tally.call(call, modelLabel(call.model, "parsing"), call.model.model_name ?? "unknown");
      else tally.call(call, judge, task.parsing.model_name ?? "unknown");
    }
  }

  /** The task's working directory, as the run resolves one (seed 002 §2); null when it gets none. */
  #workspace(task: VerificationTask): string | null {
    const root = this.options.workspaceRoot ?? null;
    const agenticTraits = rubricTraits(task.rubric).some((trait) => trait.type === "agentic");
    const wants =
      this.config.agentic_parsing || (root !== null && (usesAgentPort(task.answering) || agenticTraits));
    return wants ? estimatedWorkspacePath(root, task.question) : null;
  }

  /** Whether the live answer of `task` is an agent run: seed 002 §1's rule, or a task with a workspace. */
  #answersAsAgent(task: VerificationTask): boolean {
    return this.#workspace(task) !== null || usesAgentPort(task.answering);
  }

  #planner(family: string): CallPlanner {
    let planner = this.#planners.get(family);
    if (planner === undefined) {
      planner = new CallPlanner(this.config, family, this.counter, this.options.outputTokenHistory);
      this.#planners.set(family, planner);
    }
    return planner;
  }

  /** The answering calls: one call with the real prompt, or an agent run's turns; the answer of the estimated length. */
  #answer(task: VerificationTask): void {
    this.tally.answersGenerated++;
    const key = `${task.question.id}\t${answererKey(task.answering)}`;
    let calls = this.#answerCalls.get(key);
    if (calls === undefined) {
      calls = this.#answeringCalls(task);
      this.#answerCalls.set(key, calls);
    }
    const label = modelLabel(task.answering, "answering");
    for (const call of calls) this.tally.call(call, label, task.answering.model_name ?? "unknown");
  }

  #answeringCalls(task: VerificationTask): PlannedCall[] {
    const model = task.answering;
    const workspace = this.#workspace(task);
    const deep = agentTierFor(model) === "deep_agent";
    const commands = this.options.agentCommands === true;
    const messages = answeringMessages({
      systemPrompt: model.system_prompt,
      generationInstructions: promptForTask(this.config.prompt_config, "generation"),
      question: task.question.text,
      fewShotExamples: task.fewShotExamples,
      workspaceParagraph:
        workspace === null
          ? null
          : workspaceParagraph(workspace, {
              supportsCodeExecution: deep || commands,
              usesSandboxedExecution: false,
            }),
    });
    const planner = this.#planner(model.interface);
    if (!this.#answersAsAgent(task)) {
      return [
        {
          stage: "answer_generation",
          kind: "answer_generation",
          target: "answering",
          inputTokens: this.counter.messages(messages),
          outputTokens: planner.output("answer_generation"),
        },
      ];
    }
    this.tally.agents.add(deep ? "deep_agent" : "tool_loop");
    if (Object.keys(model.mcp_urls_dict ?? {}).length > 0) this.tally.agents.add("mcp");
    const toolTokens =
      workspace === null || deep
        ? 0
        : toolDefinitionTokens(
            planner,
            commands ? "commands" : "read_write",
            workspaceTools(workspace, { mode: "read_write", allowCommands: commands }),
          );
    return agentRunCalls(planner, {
      stage: "answer_generation",
      target: "answering",
      messages,
      toolTokens,
      maxTurns: answeringTurnLimit(model),
      final: { kind: "answer_generation", items: 0 },
    });
  }

  /** The length of a live answer's whole trace, as agentic judges see it. */
  #traceTokens(task: VerificationTask, planner: CallPlanner): number {
    if (!this.#answersAsAgent(task)) return planner.answerTokens;
    return agentTraceTokens(planner, answeringTurnLimit(task.answering), planner.answerTokens);
  }

  #judgeCalls(task: VerificationTask, source: Answer, template: AnswerTemplate | null): JudgeCalls {
    const family = task.parsing.interface;
    const planner = this.#planner(family);
    const workspacePath = source.kind === "supplied" && source.by === "replay" ? null : this.#workspace(task);
    const traceTokens = source.kind === "live" ? this.#traceTokens(task, planner) : 0;
    const by =
      source.kind === "live" ? `live\t${traceTokens}` : `${source.by}\t${answererKey(task.answering)}`;
    const replicate = source.kind === "supplied" && source.by === "replay" ? `\t${task.replicate ?? 0}` : "";
    const key = `${task.question.id}\t${family}\t${by}${replicate}\t${workspacePath ?? ""}`;
    let calls = this.#judged.get(key);
    if (calls === undefined) {
      const stages = stagesFor(this.config, task).map((stage) => stage.name);
      calls = judgeCalls(planner, task, stages, source, template, { traceTokens, workspacePath });
      this.#judged.set(key, calls);
    }
    return calls;
  }
}

/** An answering agent's turn limit: `agent_middleware.limits.model_call_limit`, else the tool loop's 25. */
function answeringTurnLimit(model: ModelConfig): number {
  const limits = (model.agent_middleware as { limits?: { model_call_limit?: unknown } } | null)?.limits;
  const limit = limits?.model_call_limit;
  return typeof limit === "number" && limit >= 1 ? limit : 25;
}

function planOf(config: VerificationConfig, priceTable: Readonly<PriceTable>, facts: Facts): DryRunPlan {
  const { tally } = facts;
  const models = [...tally.models].map(([model, totals]): DryRunModelCost => {
    const costUsd = costOf(
      {
        input_tokens: totals.inputTokens,
        output_tokens: totals.outputTokens,
        total_tokens: totals.inputTokens + totals.outputTokens,
        model: totals.priceKey,
      },
      priceTable,
    );
    return {
      model,
      priceKey: totals.priceKey,
      roles: [...totals.roles],
      calls: totals.calls,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      costUsd,
    };
  });
  const stages = DRY_RUN_STAGES.flatMap((stage) => tally.stages.get(stage) ?? []);
  const sum = (pick: (stage: DryRunStageCount) => number) => stages.reduce((total, s) => total + pick(s), 0);
  return {
    questions: tally.questions.size,
    replicates: config.replicate_count,
    tasks: tally.tasks,
    answersGenerated: tally.answersGenerated,
    answersSupplied: tally.answersSupplied,
    pairs: [...tally.pairs.values()],
    stages,
    models,
    outputTokens: CALL_KINDS.flatMap((kind) => {
      const seen = tally.kinds.get(kind);
      if (seen === undefined) return [];
      const cached = facts.history?.[kind];
      return [
        {
          kind,
          calls: seen.calls,
          outputTokens: seen.outputTokens,
          source: cached === undefined ? ("default" as const) : ("cache" as const),
          cacheSamples: cached?.samples ?? 0,
        },
      ];
    }),
    failedTasks: [...tally.failed].map(([reason, tasks]) => ({ reason, tasks })),
    totals: {
      calls: sum((s) => s.calls),
      inputTokens: sum((s) => s.inputTokens),
      outputTokens: sum((s) => s.outputTokens),
      costUsd:
        models.length > 0 && models.every((model) => model.costUsd === null)
          ? null
          : models.reduce((total, model) => total + (model.costUsd ?? 0), 0),
      unpricedModels: models.filter((model) => model.costUsd === null).map((model) => model.model),
    },
    tokenizer: DRY_RUN_TOKENIZER,
    assumptions: assumptionsOf(config, facts),
  };
}

/**
 * Estimates a verification run without calling anything (`karenina verify --dry-run`): walks the run's task plan
 * and stage lists, builds the prompts each call would send (a placeholder of the estimated length stands for
 * text only a call would produce, such as the answer in judge prompts), counts their tokens, estimates reply
 * lengths from per-kind defaults or a response cache's history, and prices each model with the price table.
 * Answers are counted once per question, answering model and replicate (the judges share them); answers from
 * manual traces or a replay store cost nothing. Reads no file and writes none (templates are loaded in memory).
 * @example
 * const bench = await Benchmark.load("drug-targets.jsonld");
 * const config = parseVerificationConfig({
 *   answering_models: [{ id: "gpt-4.1-mini", model_name: "gpt-4.1-mini", interface: "openai" }],
 *   parsing_models: [{ id: "gpt-4.1-mini", model_name: "gpt-4.1-mini", interface: "openai" }],
 * });
 * const questions = await pipelineQuestions(bench, config);
 * const plan = await planDryRun(questions, config, { globalRubric: bench.getGlobalRubric() });
 * plan.tasks; // 5
 * plan.stages.map((stage) => [stage.stage, stage.calls]);
 * // [["answer_generation", 5], ["parsing", 5]]
 * plan.totals.unpricedModels; // []
 */
export async function planDryRun(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  options: DryRunOptions = {},
): Promise<DryRunPlan> {
  const priceTable = options.priceTable ?? DEFAULT_PRICES;
  const counter = await loadTokenCounter();
  const templates = await loadTemplates(
    questions,
    config,
    options.pythonSandbox === undefined ? {} : { pythonSandbox: options.pythonSandbox },
  );
  const plan = taskPlan(questions, config, {
    globalRubric: options.globalRubric ?? null,
    globalDynamicRubric: options.globalDynamicRubric ?? null,
    runName: "dry-run",
    ...(options.skipKeys === undefined ? {} : { skipKeys: options.skipKeys }),
  });
  const walk = new DryRunWalk(config, templates, counter, options);
  let walked = 0;
  for (const task of plan) {
    walk.visit(task);
    if (++walked % DRY_RUN_PROGRESS_STEP === 0) options.onProgress?.(walked, plan.total);
  }
  const full =
    questions.length * config.answering_models.length * config.parsing_models.length * config.replicate_count;
  const facts: Facts = {
    tally: walk.tally,
    history: options.outputTokenHistory,
    skipped: Math.max(0, full - plan.total),
  };
  return planOf(config, priceTable, facts);
}
