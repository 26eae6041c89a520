import { join } from "node:path";
import { workspaceTools } from "../../agentic/index.js";
import { type AgenticTrait, isTemplateKind, type Rubric, rubricTraits } from "../../model/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import { agentTierFor, type ModelConfig, ModelConfigSchema } from "../config/index.js";
import {
  agenticExtractionPrompt,
  decisionPrompt,
  deepJudgmentAttributes,
  type InvestigationCapabilities,
  investigationPrompt,
  type JudgePrompt,
  judgeContextShows,
  type PromptSettings,
  promptMessages,
  scalarTraitExtraction,
  sharedTraitsInvestigationPrompt,
  templateTraitExtraction,
  traitInvestigationPrompt,
} from "../prompts/index.js";
import { agentRunCalls, toolDefinitionTokens } from "./agent-calls.js";
import type { DryRunStage } from "./call-kinds.js";
import {
  type CallPlanner,
  type PlannedCall,
  REASONING_MARKER,
  REPORT_MARKER,
  TRACE_MARKER,
} from "./planned-call.js";
import type { Placeholders } from "./token-counter.js";

/** The chance that dynamic agentic parsing's screening escalates to the full investigation. */
export const ESCALATION_PROBABILITY = 0.5;

/** What an agentic judge of one task is shown: the question, the answering trace, the workspace. */
export interface AgenticJudging {
  question: string;
  /** The answering trace as the judge receives it; may be {@link TRACE_MARKER}. */
  trace: string;
  /** The tokens {@link TRACE_MARKER} stands for: the estimated length of the answering trace. */
  traceTokens: number;
  /** The task's working directory; null when the task has none. */
  workspacePath: string | null;
}

/** One investigation to estimate: who runs it, what it may see, its limits and its prompt. */
interface Investigation {
  stage: DryRunStage;
  /** The judge: its tier decides the tools counted. */
  model: ModelConfig;
  /** Set when the judge is not the task's parsing model (a trait's `model_override`). */
  override: ModelConfig | null;
  /** Whether the judge looks at the workspace (it is shown, and there is one). */
  seesWorkspace: boolean;
  /** The directory of a materialised trace the judge reads with its tools; null when the trace is inline. */
  traceDir?: string | null;
  /** `trace_only` without a workspace: one LLM call instead of an agent run (agentic traits). */
  singleCall: boolean;
  maxTurns: number;
  /** Items the report is about (schema fields or criteria): its length grows with them. */
  items: number;
  /** Placeholders in the prompt besides the trace. */
  placeholders?: Placeholders;
  prompt(tools: InvestigationCapabilities): JudgePrompt;
}

/**
 * An investigation's calls: an agent run of {@link assumedTurns} turns (read-only workspace tools offered
 * with each turn of a tool-loop judge that sees the workspace or reads a materialised trace; a deep agent's own
 * tools and system prompt are not counted), or one call. The answering trace in the prompt counts as its
 * estimated length.
 */
function investigationCalls(
  planner: CallPlanner,
  judging: AgenticJudging,
  plan: Investigation,
): PlannedCall[] {
  const placeholders = { [TRACE_MARKER]: judging.traceTokens, ...plan.placeholders };
  const toolRoot = plan.seesWorkspace ? judging.workspacePath : (plan.traceDir ?? null);
  const prompt = plan.prompt({ fileTools: toolRoot !== null, commandExecution: false });
  const model = plan.override === null ? {} : { model: plan.override };
  if (plan.singleCall) {
    const call = planner.call(plan.stage, "agentic_report", promptMessages(prompt), plan.items, placeholders);
    return [{ ...call, ...model }];
  }
  const toolTokens =
    toolRoot !== null && agentTierFor(plan.model) !== "deep_agent"
      ? toolDefinitionTokens(planner, "read_only", workspaceTools(toolRoot, { mode: "read_only" }))
      : 0;
  return agentRunCalls(planner, {
    stage: plan.stage,
    target: "parsing",
    ...model,
    messages: promptMessages(prompt),
    placeholders,
    toolTokens,
    maxTurns: plan.maxTurns,
    final: { kind: "agentic_report", items: plan.items },
  });
}

/**
 * AgenticParseTemplate (stage 7b, spec 05 §12.3): the parsing model's investigation, with the real
 * investigation prompt for the configured judge context (the answering trace when the mode shows it — or, with
 * `agentic_parsing_materialize_trace`, the file it is in, read with the tools — and the workspace directory when
 * it shows it), then one extraction call of its report (a placeholder of the estimated report length). None for
 * a template without judge fields. `screened`: an escalation of dynamic parsing, shown the screening's reasoning.
 */
export function agenticParseCalls(
  planner: CallPlanner,
  judging: AgenticJudging,
  template: AnswerTemplate,
  parsing: ModelConfig,
  screened = false,
): PlannedCall[] {
  if (template.needsNoJudge) return [];
  const { config } = planner;
  const fields = deepJudgmentAttributes(template.judgeSchema).length;
  const shows = judgeContextShows(config.agentic_judge_context);
  const materialised = config.agentic_parsing_materialize_trace && shows.trace;
  const traceDir = materialised ? join(judging.workspacePath ?? "/tmp/karenina-trace", "traces") : null;
  const investigation = investigationCalls(planner, judging, {
    stage: "agentic_parsing_investigation",
    model: parsing,
    override: null,
    seesWorkspace: shows.workspace && judging.workspacePath !== null,
    traceDir,
    singleCall: false,
    maxTurns: config.agentic_parsing_max_turns,
    items: fields,
    placeholders: { [REASONING_MARKER]: planner.output("agentic_decision", 0) },
    prompt: (tools) =>
      investigationPrompt({
        ...planner.settings,
        question: judging.question,
        judgeSchema: template.judgeSchema,
        mode: config.agentic_judge_context,
        trace: materialised ? null : judging.trace,
        traceFile: traceDir === null ? null : join(traceDir, "question_trace.txt"),
        workspacePath: judging.workspacePath,
        tools,
        screeningReasoning: screened ? REASONING_MARKER : null,
      }),
  });
  const extraction = agenticExtractionPrompt({
    ...planner.settings,
    judgeSchema: template.judgeSchema,
    report: REPORT_MARKER,
  });
  return [
    ...investigation,
    planner.call("agentic_parsing_extraction", "parsing", promptMessages(extraction), fields, {
      [REPORT_MARKER]: planner.output("agentic_report", fields),
    }),
  ];
}

/**
 * DynamicParseTemplate (stage 7b′, spec 05 §12.5): one decision call on the answer's final message (counted
 * as the answer placeholder for a live answer), then, with {@link ESCALATION_PROBABILITY}, the agentic parse of
 * 7b told the screening's reasoning: its calls are weighted by that chance. An answer whose final message
 * cannot be extracted always escalates, without a decision call.
 */
export function dynamicParseCalls(
  planner: CallPlanner,
  judging: AgenticJudging,
  template: AnswerTemplate,
  parsing: ModelConfig,
  finalMessage: string | null,
): PlannedCall[] {
  if (template.needsNoJudge) return [];
  const escalation = agenticParseCalls(planner, judging, template, parsing, true);
  if (finalMessage === null) return escalation;
  const fields = deepJudgmentAttributes(template.judgeSchema).length;
  const prompt = decisionPrompt({
    ...planner.settings,
    question: judging.question,
    finalMessage,
    judgeSchema: template.judgeSchema,
  });
  return [
    planner.call("dynamic_parsing_decision", "agentic_decision", promptMessages(prompt), fields),
    ...escalation.map((call) => ({ ...call, weight: ESCALATION_PROBABILITY })),
  ];
}

const NO_AGENT_INTERFACES = new Set(["manual", "taskeval"]);

/** A trait's judge: its `model_override`, else the parsing model; null when it cannot run an agent. */
function traitJudge(trait: AgenticTrait, parsing: ModelConfig): ModelConfig | null {
  let model = parsing;
  if (trait.model_override !== null) {
    const parsed = ModelConfigSchema.safeParse(trait.model_override);
    if (!parsed.success) return null;
    model = parsed.data;
  }
  return NO_AGENT_INTERFACES.has(model.interface) ? null : model;
}

const sameModel = (a: ModelConfig, b: ModelConfig) =>
  a.interface === b.interface && a.model_provider === b.model_provider && a.model_name === b.model_name;

const fieldsOf = (schema: unknown) =>
  Object.keys(((schema as { properties?: object }).properties ?? {}) as object).length;

/**
 * A trait's extraction call from a report of `reportTokens`: boolean, score and literal traits always; a
 * template-kind trait only when its report's JSON is not read locally (a shared report of several of them).
 */
function extractionCall(
  planner: CallPlanner,
  trait: AgenticTrait,
  judge: { model: ModelConfig; override: ModelConfig | null },
  reportTokens: number,
  readsLocally: boolean,
): PlannedCall[] {
  const settings: PromptSettings = {
    interface: judge.model.interface,
    promptConfig: planner.config.prompt_config,
  };
  const kind = trait.kind;
  if (isTemplateKind(kind) && readsLocally) return [];
  const prompt = isTemplateKind(kind)
    ? templateTraitExtraction(trait, kind, REPORT_MARKER, settings).prompt
    : scalarTraitExtraction(trait, REPORT_MARKER, settings).prompt;
  const items = isTemplateKind(kind) ? fieldsOf(kind.schema) : 1;
  const call = planner.call("rubric_agentic_trait_extraction", "rubric", promptMessages(prompt), items, {
    [REPORT_MARKER]: reportTokens,
  });
  return [judge.override === null ? call : { ...call, model: judge.override }];
}

/**
 * AgenticRubricEvaluation (stage 11b, spec 05 §12.6): strategy `individual`, per trait an investigation (an
 * agent run, or one call for `trace_only` without a workspace) and an extraction; strategy `shared` with one
 * judge for every trait, one investigation of every criterion and an extraction per trait. None when a
 * trait's judge cannot run an agent (the run fails the task).
 */
export function agenticTraitCalls(
  planner: CallPlanner,
  judging: AgenticJudging,
  rubric: Rubric | null,
  parsing: ModelConfig,
): PlannedCall[] {
  const traits = rubricTraits(rubric).filter((trait): trait is AgenticTrait => trait.type === "agentic");
  const judges = traits.map((trait) => traitJudge(trait, parsing));
  if (traits.length === 0 || judges.some((judge) => judge === null)) return [];
  const models = judges as ModelConfig[];
  const promptConfig = planner.config.prompt_config;
  const judgeOf = (model: ModelConfig) => ({ model, override: model === parsing ? null : model });
  const first = models[0] as ModelConfig;
  if (
    planner.config.agentic_rubric_strategy === "shared" &&
    traits.length > 1 &&
    models.every((model) => sameModel(model, first))
  ) {
    const modes = traits.map((trait) => judgeContextShows(trait.context_mode));
    const showsTrace = modes.some((shows) => shows.trace);
    const showsWorkspace = modes.some((shows) => shows.workspace);
    const calls = investigationCalls(planner, judging, {
      stage: "rubric_agentic_trait_investigation",
      ...judgeOf(first),
      seesWorkspace: showsWorkspace && judging.workspacePath !== null,
      singleCall: !showsWorkspace && judging.workspacePath === null,
      maxTurns: Math.max(...traits.map((trait) => trait.max_turns)),
      items: traits.length,
      prompt: (tools) =>
        sharedTraitsInvestigationPrompt({
          traits,
          question: judging.question,
          trace: showsTrace ? judging.trace : null,
          workspacePath: showsWorkspace ? judging.workspacePath : null,
          tools,
          interface: first.interface,
          promptConfig,
        }),
    });
    const report = planner.output("agentic_report", traits.length);
    const templateTraits = traits.filter((trait) => isTemplateKind(trait.kind)).length;
    return [
      ...calls,
      ...traits.flatMap((trait) =>
        extractionCall(planner, trait, judgeOf(first), report, templateTraits <= 1),
      ),
    ];
  }
  return traits.flatMap((trait, index) => {
    const judge = judgeOf(models[index] as ModelConfig);
    const shows = judgeContextShows(trait.context_mode);
    const calls = investigationCalls(planner, judging, {
      stage: "rubric_agentic_trait_investigation",
      ...judge,
      seesWorkspace: shows.workspace && judging.workspacePath !== null,
      singleCall: trait.context_mode === "trace_only" && judging.workspacePath === null,
      maxTurns: trait.max_turns,
      items: 1,
      prompt: (tools) =>
        traitInvestigationPrompt({
          trait,
          question: judging.question,
          trace: judging.trace,
          workspacePath: judging.workspacePath,
          tools,
          interface: judge.model.interface,
          promptConfig,
        }),
    });
    return [...calls, ...extractionCall(planner, trait, judge, planner.output("agentic_report", 1), true)];
  });
}
