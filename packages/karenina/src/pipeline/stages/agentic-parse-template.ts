import { type AgentResult, LlmAbortedError, ParseError } from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import { classifyError, describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import {
  agenticExtractionPrompt,
  investigationPrompt,
  judgeContextShows,
  promptMessages,
  readJsonObject,
  unansweredFields,
} from "../prompts/index.js";
import type { Stage } from "../stage.js";
import { judgeAgentModel, judgeRun } from "./agentic-judge.js";
import { answerIsParseable } from "./parse-template.js";
import { templateStructuredSchema } from "./template-parse-call.js";
import { materializeTrace } from "./trace-file.js";

/** What an agentic parse run is told and how its errors read: plain 7b, or 7b′ escalating. */
export interface AgenticParseOptions {
  /** The reasoning of the dynamic screening that escalated here (spec 05 §12.5 step 6). */
  screeningReasoning?: string | null;
  /** The first words of the task's error messages: `Agentic`, or `Dynamic agentic` for an escalation. */
  errorPrefix: "Agentic" | "Dynamic agentic";
}

/**
 * Step 1 (spec 05 §12.3): the parsing model, as an agent, investigates — the workspace and/or the answering
 * trace, as `agentic_judge_context` says; with `agentic_parsing_materialize_trace`, the trace is a file it
 * reads rather than text in its prompt. Its system prompt carries the judge schema (never the ground truth).
 * Null, with the task's error set, when the investigation fails or hits its turn or time limit; the trace it
 * produced is stored either way.
 */
async function investigate(
  ctx: VerificationContext,
  template: AnswerTemplate,
  options: AgenticParseOptions,
  traceFile: string | null,
): Promise<AgentResult | null> {
  const { config, task, artifacts } = ctx;
  const model = judgeAgentModel(task.parsing);
  const workspace = artifacts.workspace ?? null;
  const shows = judgeContextShows(config.agentic_judge_context);
  const run = judgeRun(
    model,
    workspace,
    shows.workspace,
    { maxTurns: config.agentic_parsing_max_turns, timeoutSeconds: config.agentic_parsing_timeout },
    traceFile,
  );
  const prompt = investigationPrompt({
    question: task.question.text,
    judgeSchema: template.judgeSchema,
    mode: config.agentic_judge_context,
    trace: artifacts.rawLlmResponse ?? null,
    traceFile,
    workspacePath: workspace?.path ?? null,
    tools: { fileTools: run.fileTools, commandExecution: false },
    screeningReasoning: options.screeningReasoning ?? null,
    interface: model.interface,
    promptConfig: config.prompt_config,
  });
  let result: AgentResult;
  try {
    result = await ctx.calls.runAgent({
      stage: "agentic_parsing_investigation",
      model,
      messages: promptMessages(prompt),
      options: run.options,
    });
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    ctx.markError(
      `${options.errorPrefix} investigation failed: ${describeException(error)}`,
      classifyError(error, config.custom_error_patterns),
    );
    return null;
  }
  artifacts.investigationTrace = result.rawTrace;
  ctx.draft.template.investigation_trace = result.rawTrace;
  if (result.limitReached) {
    ctx.markError(
      `${options.errorPrefix} investigation hit the turn limit before producing a reliable report`,
    );
    return null;
  }
  if (result.timeoutReached) {
    ctx.markError(
      `${options.errorPrefix} investigation failed: timed out after ${result.turns} turns, before producing a report`,
      "timeout",
    );
    return null;
  }
  return result;
}

/**
 * The trace file of an investigation that shows the trace with `agentic_parsing_materialize_trace` on (spec 05
 * §12.3): written before the investigation, removed after it unless `agentic_parsing_persist_trace`. Null
 * when the trace is inlined.
 */
async function withTraceFile<T>(
  ctx: VerificationContext,
  use: (traceFile: string | null) => Promise<T>,
): Promise<T> {
  const { config, artifacts, task } = ctx;
  const trace = artifacts.rawLlmResponse;
  const wanted =
    config.agentic_parsing_materialize_trace && judgeContextShows(config.agentic_judge_context).trace;
  if (!wanted || trace === undefined) return use(null);
  const file = await materializeTrace(trace, task.question.id, artifacts.workspace ?? null);
  try {
    return await use(file.path);
  } finally {
    const warning = await file.release(config.agentic_parsing_persist_trace);
    if (warning !== null) ctx.warn(warning);
  }
}

/**
 * The answer with the fields the report lists as unanswered set to null, whatever the extraction made of
 * them, and without the report's own `_unanswered_fields` list.
 */
function withUnanswered(
  parsed: Record<string, unknown>,
  unanswered: ReadonlySet<string>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(parsed)
      .filter(([key]) => key !== "_unanswered_fields")
      .map(([key, value]) => [key, unanswered.has(key) ? null : value]),
  );
}

/**
 * Steps 2–4 (spec 05 §12.3): the parser port of the parsing model turns the report (the investigation's final
 * message, or its whole trace) into the template's answer, validated as 7a validates it; fields the report
 * lists in `_unanswered_fields` are null. When extraction fails, the JSON in the report itself is tried
 * (`agentic_extraction_recovery: "local_json"`). Null, with the task's error set, when both fail.
 */
async function extract(
  ctx: VerificationContext,
  template: AnswerTemplate,
  investigation: AgentResult,
  errorPrefix: AgenticParseOptions["errorPrefix"],
): Promise<Record<string, unknown> | null> {
  const { config, task, draft, artifacts } = ctx;
  const model = task.parsing;
  const report =
    investigation.finalResponse.trim() !== "" ? investigation.finalResponse : investigation.rawTrace;
  const schema = templateStructuredSchema(template);
  const fieldNames = new Set(Object.keys((template.judgeSchema.properties ?? {}) as object));
  const unanswered = unansweredFields(report, fieldNames);
  const prompt = agenticExtractionPrompt({
    judgeSchema: template.judgeSchema,
    report,
    interface: model.interface,
    promptConfig: config.prompt_config,
  });
  try {
    const supportsSystem = ctx.services.ports.parser(model).capabilities.supportsSystemPrompt;
    const result = await ctx.calls.parse({
      stage: "agentic_parsing_extraction",
      model,
      messages: promptMessages(prompt, supportsSystem),
      schema,
    });
    return withUnanswered(result.parsed, unanswered);
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    const message = error instanceof ParseError ? error.message : describeException(error);
    draft.template.agentic_extraction_error = message;
    const local = readJsonObject(report);
    const checked = local === null ? null : schema.validate(local);
    if (checked?.success) {
      draft.template.agentic_extraction_recovery = "local_json";
      ctx.warn(`${errorPrefix} extraction failed (${message}); the report's own JSON was used`);
      return withUnanswered(checked.value, unanswered);
    }
    if (error instanceof ParseError) artifacts.judgeRawResponse = error.rawResponse;
    const reason = checked === null ? "the report holds no JSON object" : checked.error;
    ctx.markError(
      `${errorPrefix} extraction failed: ${message}; local JSON recovery failed: ${reason}`,
      classifyError(error, config.custom_error_patterns),
    );
    return null;
  }
}

/**
 * The agentic parse of spec 05 §12.3 — investigation, extraction, local recovery — writing the parsed answer
 * and `agentic_parsing_performed` on success; the task's error is set otherwise. Stage 7b runs it for every
 * answer, stage 7b′ for the answers its screening escalates.
 */
export async function agenticParse(
  ctx: VerificationContext,
  template: AnswerTemplate,
  options: AgenticParseOptions,
): Promise<void> {
  const { artifacts, draft, task } = ctx;
  const parsed = await withTraceFile(ctx, async (traceFile) => {
    const investigation = await investigate(ctx, template, options, traceFile);
    return investigation === null ? null : extract(ctx, template, investigation, options.errorPrefix);
  });
  if (parsed === null) return;
  artifacts.parsedAnswer = parsed;
  artifacts.parsingModelStr = task.parsing.model_name ?? "unknown";
  artifacts.agenticParsingPerformed = true;
  draft.template.agentic_parsing_performed = true;
}

/**
 * Stage 7b (seed 002 §3, spec 05 §12.3), in place of ParseTemplate when `agentic_parsing` is on (trigger
 * `always`): an investigation agent (the parsing model) checks the workspace and/or the answering trace and
 * reports; the parsing model's parser port then extracts the template's answer from the report — the same
 * answer 7a would give, so VerifyTemplate and the later stages work unchanged. Skips as 7a does: after an
 * error, a recursion-limit hit, a failed trace validation, an abstention, an insufficient answer.
 */
export const agenticParseTemplateStage: Stage = {
  name: "AgenticParseTemplate",
  needs: ["template", "rawLlmResponse"],
  gives: ["parsedAnswer", "parsingModelStr", "investigationTrace", "agenticParsingPerformed"],
  shouldRun: (ctx) => ctx.config.agentic_parsing && answerIsParseable(ctx),
  async run(ctx) {
    const { artifacts } = ctx;
    const template = artifacts.template as AnswerTemplate;
    artifacts.deepJudgmentPerformed = false;
    if (template.needsNoJudge) {
      artifacts.parsedAnswer = {};
      artifacts.parsingModelStr = "regex_only (no LLM)";
      return;
    }
    await agenticParse(ctx, template, { errorPrefix: "Agentic" });
  },
};
