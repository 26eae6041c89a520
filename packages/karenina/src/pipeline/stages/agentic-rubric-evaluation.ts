import { KareninaError } from "../../errors/index.js";
import { LlmAbortedError } from "../../llm/index.js";
import {
  type AgenticTrait,
  isTemplateKind,
  type Rubric,
  rubricTraits,
  type TemplateKind,
} from "../../model/index.js";
import {
  type AgenticExtractionMetadata,
  buildRubricResult,
  flattenTemplateResult,
} from "../../rubrics/index.js";
import { describeException } from "../classify-error.js";
import { type ModelConfig, ModelConfigSchema } from "../config/index.js";
import type { VerificationContext } from "../context.js";
import {
  type InvestigationCapabilities,
  type JudgePrompt,
  judgeContextShows,
  promptMessages,
  readJsonObject,
  type ScalarTraitReply,
  scalarTraitExtraction,
  sharedTraitsInvestigationPrompt,
  type TraitExtraction,
  templateTraitExtraction,
  templateTraitSchema,
  traitInvestigationPrompt,
} from "../prompts/index.js";
import type { Stage } from "../stage.js";
import { judgeAgentModel, judgeRun } from "./agentic-judge.js";
import { materializeTrace } from "./trace-file.js";

/** An agentic trait whose judge cannot investigate: its `model_override` is invalid or has no agent. */
export class AgenticTraitModelError extends KareninaError {
  override readonly name = "AgenticTraitModelError";

  constructor(
    readonly traitName: string,
    readonly reason: string,
  ) {
    super(`agentic trait "${traitName}": model_override: ${reason}`);
  }
}

const NO_AGENT_INTERFACES = new Set(["manual", "taskeval"]);
const AI_HEADER = "--- AI Message ---\n";

function agenticTraits(rubric: Rubric | null): AgenticTrait[] {
  return rubricTraits(rubric).filter((trait): trait is AgenticTrait => trait.type === "agentic");
}

const overrides = new WeakMap<AgenticTrait, ModelConfig>();

/**
 * The model judging a trait: its `model_override`, else the run's parsing model. Any model with an agent
 * may judge (not only deep agents, as in the original; docs/decisions.md).
 * @throws {AgenticTraitModelError} for an invalid override or one without an agent (`manual`, `taskeval`).
 */
function judgeModelFor(ctx: VerificationContext, trait: AgenticTrait): ModelConfig {
  let model = ctx.task.parsing;
  if (trait.model_override !== null) {
    const cached = overrides.get(trait);
    if (cached !== undefined) model = cached;
    else {
      const parsed = ModelConfigSchema.safeParse(trait.model_override);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
        throw new AgenticTraitModelError(trait.name, `expected a model config, found ${problems.join("; ")}`);
      }
      model = {
        ...parsed.data,
        request_timeout: parsed.data.request_timeout ?? ctx.config.request_timeout,
        retry_policy: parsed.data.retry_policy ?? ctx.config.retry_policy,
      };
      overrides.set(trait, model);
    }
  }
  if (NO_AGENT_INTERFACES.has(model.interface)) {
    throw new AgenticTraitModelError(
      trait.name,
      `expected a model that can run an agent, found the ${model.interface} interface`,
    );
  }
  return model;
}

/** What an investigation produced: the report to extract from and the trace to keep. */
interface Investigation {
  report: string;
  trace: string;
}

/** One investigation to run: what it may look at, its limits, and its prompt once its tools are known. */
interface InvestigationPlan {
  /** Who it is for, in warnings: `Agentic trait "x"`. */
  subject: string;
  showsWorkspace: boolean;
  /** `trace_only` without a workspace: one LLM call instead of an agent run. */
  singleCall: boolean;
  maxTurns: number;
  timeoutSeconds: number;
  /** The materialised trace the judge is pointed at instead of the inline trace; null when inlined. */
  traceFile: string | null;
  prompt(tools: InvestigationCapabilities): JudgePrompt;
}

/**
 * Runs an investigation (spec 05 §12.6 step 3): an agent run of the judge in the workspace and/or on the
 * answering trace, or a single LLM call for `trace_only` without a workspace. Reaching a limit is a warning:
 * the report may be incomplete.
 */
async function investigate(
  ctx: VerificationContext,
  model: ModelConfig,
  plan: InvestigationPlan,
): Promise<Investigation> {
  if (plan.singleCall) {
    const prompt = plan.prompt({ fileTools: false, commandExecution: false });
    const supportsSystem = ctx.services.ports.llm(model).capabilities.supportsSystemPrompt;
    const response = await ctx.calls.invoke({
      stage: "rubric_agentic_trait_investigation",
      model,
      messages: promptMessages(prompt, supportsSystem),
    });
    return { report: response.content, trace: AI_HEADER + response.content };
  }
  const judge = judgeAgentModel(model);
  const run = judgeRun(judge, ctx.artifacts.workspace ?? null, plan.showsWorkspace, plan, plan.traceFile);
  const result = await ctx.calls.runAgent({
    stage: "rubric_agentic_trait_investigation",
    model: judge,
    messages: promptMessages(plan.prompt({ fileTools: run.fileTools, commandExecution: false })),
    options: run.options,
  });
  if (result.limitReached || result.timeoutReached) {
    const limit = result.limitReached
      ? `its turn limit (${plan.maxTurns})`
      : `its time limit (${plan.timeoutSeconds} s)`;
    ctx.warn(`${plan.subject}: the investigation stopped at ${limit}; its report may be incomplete`);
  }
  return {
    report: result.finalResponse.trim() !== "" ? result.finalResponse : result.rawTrace,
    trace: result.rawTrace,
  };
}

/**
 * One trait's investigation. A trait with `materialize_trace` is pointed at the trace file — unlike the
 * original, whose individual strategy inlines the trace although it wrote the file (docs/decisions.md).
 */
function traitPlan(
  ctx: VerificationContext,
  trait: AgenticTrait,
  model: ModelConfig,
  materialized: string | null,
): InvestigationPlan {
  const workspace = ctx.artifacts.workspace ?? null;
  const traceFile = trait.materialize_trace ? materialized : null;
  return {
    subject: `Agentic trait "${trait.name}"`,
    showsWorkspace: judgeContextShows(trait.context_mode).workspace,
    singleCall: trait.context_mode === "trace_only" && workspace === null && traceFile === null,
    maxTurns: trait.max_turns,
    timeoutSeconds: trait.timeout_seconds,
    traceFile,
    prompt: (tools) =>
      traitInvestigationPrompt({
        trait,
        question: ctx.task.question.text,
        trace: ctx.artifacts.rawLlmResponse ?? null,
        traceFile,
        workspacePath: workspace?.path ?? null,
        tools,
        interface: model.interface,
        promptConfig: ctx.config.prompt_config,
      }),
  };
}

/**
 * The shared session of strategy `shared` (spec 05 §12.6 step 4): every trait's criterion in one
 * investigation, which sees the trace if any trait wants it (as the file, when one was materialised) and the
 * workspace if any trait wants it, with the largest turn and time limits.
 */
function sharedPlan(
  ctx: VerificationContext,
  traits: readonly AgenticTrait[],
  model: ModelConfig,
  materialized: string | null,
): InvestigationPlan {
  const workspace = ctx.artifacts.workspace ?? null;
  const modes = traits.map((trait) => judgeContextShows(trait.context_mode));
  const showsTrace = modes.some((shows) => shows.trace);
  const showsWorkspace = modes.some((shows) => shows.workspace);
  return {
    subject: "The shared agentic-trait investigation",
    showsWorkspace,
    singleCall: !showsWorkspace && workspace === null && materialized === null,
    maxTurns: Math.max(...traits.map((trait) => trait.max_turns)),
    timeoutSeconds: Math.max(...traits.map((trait) => trait.timeout_seconds)),
    traceFile: materialized,
    prompt: (tools) =>
      sharedTraitsInvestigationPrompt({
        traits,
        question: ctx.task.question.text,
        trace: showsTrace ? (ctx.artifacts.rawLlmResponse ?? null) : null,
        traceFile: materialized,
        workspacePath: showsWorkspace ? (workspace?.path ?? null) : null,
        tools,
        interface: model.interface,
        promptConfig: ctx.config.prompt_config,
      }),
  };
}

/** An extraction call of the judge's parser port, usage under `rubric_agentic_trait_extraction`. */
async function parseWith<T>(
  ctx: VerificationContext,
  model: ModelConfig,
  extraction: TraitExtraction<T>,
): Promise<T> {
  const supportsSystem = ctx.services.ports.parser(model).capabilities.supportsSystemPrompt;
  const result = await ctx.calls.parse({
    stage: "rubric_agentic_trait_extraction",
    model,
    messages: promptMessages(extraction.prompt, supportsSystem),
    schema: extraction.schema,
  });
  return result.parsed;
}

/** A scalar trait's value: the verdict, the score (not clamped) or the class index (−1 for an unknown label). */
async function extractScalar(
  ctx: VerificationContext,
  trait: AgenticTrait,
  model: ModelConfig,
  report: string,
): Promise<unknown> {
  const settings = { interface: model.interface, promptConfig: ctx.config.prompt_config };
  const reply = await parseWith<ScalarTraitReply>(ctx, model, scalarTraitExtraction(trait, report, settings));
  if ("result" in reply) return reply.result;
  if ("score" in reply) return reply.score;
  return Object.keys(trait.classes ?? {}).indexOf(reply.classification);
}

/**
 * A template-kind trait's values: first the JSON object the report ends with, read locally; when that fails,
 * the parser fills the trait's class from the report. The provenance is recorded either way.
 */
async function extractTemplate(
  ctx: VerificationContext,
  trait: AgenticTrait,
  kind: TemplateKind,
  model: ModelConfig,
  report: string,
  readLocally: boolean,
): Promise<{ values: Record<string, unknown> | null; metadata: AgenticExtractionMetadata }> {
  let localError = "a shared report answers several criteria, so its JSON is not read locally";
  if (readLocally) {
    const local = readJsonObject(report);
    const checked = local === null ? null : templateTraitSchema(trait.name, kind).validate(local);
    if (checked?.success) {
      return {
        values: checked.value,
        metadata: { method: "local_json", local_json_error: null, parser_error: null },
      };
    }
    localError = checked === null ? "the report holds no JSON object" : checked.error;
  }
  const settings = { interface: model.interface, promptConfig: ctx.config.prompt_config };
  try {
    const values = await parseWith<Record<string, unknown>>(
      ctx,
      model,
      templateTraitExtraction(trait, kind, report, settings),
    );
    return {
      values,
      metadata: {
        method: "parser_after_local_json_failed",
        local_json_error: localError,
        parser_error: null,
      },
    };
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    return {
      values: null,
      metadata: { method: "failed", local_json_error: localError, parser_error: describeException(error) },
    };
  }
}

/** What the stage writes for the traits: scores (nulls kept), traces and template extraction provenance. */
interface TraitResults {
  scores: Record<string, unknown>;
  traces: Record<string, string | null>;
  metadata: Record<string, AgenticExtractionMetadata>;
  /** Template-kind traits among those evaluated: a shared report's JSON is read locally only if one. */
  templateTraitsInSession: number;
}

/**
 * Reads one trait's value from an investigation's report into `out` (spec 05 §12.6 step 3, "Extraction"):
 * template kinds flattened to `trait.field` keys; a failed extraction leaves the score null, the trace kept.
 */
async function extractInto(
  ctx: VerificationContext,
  trait: AgenticTrait,
  model: ModelConfig,
  investigation: Investigation,
  out: TraitResults,
  shared: boolean,
): Promise<void> {
  out.traces[trait.name] = investigation.trace;
  if (isTemplateKind(trait.kind)) {
    const readLocally = !shared || out.templateTraitsInSession <= 1;
    const { values, metadata } = await extractTemplate(
      ctx,
      trait,
      trait.kind,
      model,
      investigation.report,
      readLocally,
    );
    out.metadata[trait.name] = metadata;
    if (values === null) {
      ctx.warn(`Agentic trait "${trait.name}" has no score: extraction failed: ${metadata.parser_error}`);
      return;
    }
    delete out.scores[trait.name];
    Object.assign(out.scores, flattenTemplateResult(trait.name, values));
    return;
  }
  try {
    out.scores[trait.name] = await extractScalar(ctx, trait, model, investigation.report);
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    ctx.warn(`Agentic trait "${trait.name}" has no score: extraction failed: ${describeException(error)}`);
  }
}

/** An investigation, or null (with a warning naming `what` failed) when it throws. */
async function tryInvestigate(
  ctx: VerificationContext,
  model: ModelConfig,
  plan: InvestigationPlan,
  what: string,
): Promise<Investigation | null> {
  try {
    return await investigate(ctx, model, plan);
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    ctx.warn(`${what}: investigation failed: ${describeException(error)}`);
    return null;
  }
}

/** Whether every trait is judged by the same model (interface, provider, name): a shared session is possible. */
function sameModel(models: readonly ModelConfig[]): boolean {
  const key = (model: ModelConfig) =>
    JSON.stringify([model.interface, model.model_provider, model.model_name]);
  return models.every((model) => key(model) === key(models[0] as ModelConfig));
}

/**
 * Strategy `shared`: one investigation for every trait, then each trait's extraction from its report. Null
 * (with a warning) when the traits have different judges or the shared session fails: the caller then
 * evaluates them one by one.
 */
async function sharedInvestigation(
  ctx: VerificationContext,
  traits: readonly AgenticTrait[],
  models: readonly ModelConfig[],
  materialized: string | null,
): Promise<Investigation | null> {
  if (!sameModel(models)) {
    ctx.warn("agentic_rubric_strategy shared: the traits have different judge models; evaluated one by one");
    return null;
  }
  const model = models[0] as ModelConfig;
  const shared = await tryInvestigate(
    ctx,
    model,
    sharedPlan(ctx, traits, model, materialized),
    "agentic_rubric_strategy shared, evaluated one by one instead",
  );
  return shared;
}

/**
 * Stage 11b (spec 05 §12.6, spec 03 §9.5): each agentic trait of the task's rubric is judged by an agent —
 * the trait's `model_override` or the parsing model — that investigates the workspace and/or the answering
 * trace as the trait's `context_mode` says, within its `max_turns` and `timeout_seconds`; its report is then
 * read into the trait's kind. Strategy `individual`: one investigation per trait, one after the other;
 * `shared`: one investigation for all the traits when they have the same judge (else, or when it fails,
 * individual). When any trait has `materialize_trace`, the answering trace is written once to a file
 * (spec 05 §12.6 step 2) that those traits' judges read instead of the inline trace; it is removed afterwards
 * unless a trait has `persist_trace`. A trait that fails has a null score and a warning; a judge that cannot
 * run an agent, or a trace that cannot be written, fails the task.
 */
export const agenticRubricEvaluationStage: Stage = {
  name: "AgenticRubricEvaluation",
  needs: ["rawLlmResponse"],
  gives: [],
  shouldRun: (ctx) => ctx.error === null && agenticTraits(ctx.task.rubric).length > 0,
  async run(ctx) {
    const traits = agenticTraits(ctx.task.rubric);
    const models = traits.map((trait) => judgeModelFor(ctx, trait));
    const trace = ctx.artifacts.rawLlmResponse;
    const file =
      traits.some((trait) => trait.materialize_trace) && trace !== undefined
        ? await materializeTrace(trace, ctx.task.question.id, ctx.artifacts.workspace ?? null)
        : null;
    try {
      await evaluateTraits(ctx, traits, models, file?.path ?? null);
    } finally {
      const warning = await file?.release(traits.some((trait) => trait.persist_trace));
      if (warning) ctx.warn(warning);
    }
  },
};

/** Every trait's investigation and extraction, by the run's strategy, written to the rubric section. */
async function evaluateTraits(
  ctx: VerificationContext,
  traits: readonly AgenticTrait[],
  models: readonly ModelConfig[],
  materialized: string | null,
): Promise<void> {
  const out: TraitResults = {
    scores: Object.fromEntries(traits.map((trait) => [trait.name, null])),
    traces: {},
    metadata: {},
    templateTraitsInSession: traits.filter((trait) => isTemplateKind(trait.kind)).length,
  };
  const shared =
    ctx.config.agentic_rubric_strategy === "shared" && traits.length > 1
      ? await sharedInvestigation(ctx, traits, models, materialized)
      : null;
  for (const [index, trait] of traits.entries()) {
    const model = models[index] as ModelConfig;
    const investigation =
      shared ??
      (await tryInvestigate(
        ctx,
        model,
        traitPlan(ctx, trait, model, materialized),
        `Agentic trait "${trait.name}" has no score`,
      ));
    if (investigation !== null) await extractInto(ctx, trait, model, investigation, out, shared !== null);
  }
  const block = buildRubricResult({
    rubric: ctx.task.rubric as Rubric,
    scores: null,
    agenticScores: out.scores,
    agenticTraces: out.traces,
    agenticExtractionMetadata: out.metadata,
  });
  ctx.draft.rubric = {
    ...(ctx.draft.rubric ?? block),
    agentic_trait_scores: block.agentic_trait_scores,
    agentic_trait_investigation_traces: block.agentic_trait_investigation_traces,
    agentic_trait_extraction_metadata: block.agentic_trait_extraction_metadata,
  };
}
