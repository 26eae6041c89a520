import { renderRawTrace, serializeMessages } from "../../llm/index.js";
import {
  canonicalKey,
  caveatsFor,
  classifyFailure,
  localTimestamp,
  resultId,
  type VerificationResult,
  VerificationResultDeepJudgmentRubricSchema,
  VerificationResultDeepJudgmentSchema,
  VerificationResultRubricSchema,
  VerificationResultTemplateSchema,
} from "../../results/index.js";
import { modelIdentity } from "../config/index.js";
import type { VerificationContext } from "../context.js";
import type { VerificationTask } from "../task.js";

const NOT_ANSWER_FIELDS = new Set(["id", "correct", "regex"]);

function parsedSections(ctx: VerificationContext) {
  const parsed = ctx.artifacts.parsedAnswer;
  if (parsed === undefined) return {};
  const llm = Object.fromEntries(Object.entries(parsed).filter(([key]) => !NOT_ANSWER_FIELDS.has(key)));
  const evaluation = ctx.artifacts.templateEvaluation;
  const fieldResults =
    evaluation && Object.keys(evaluation.fieldResults).length > 0 ? evaluation.fieldResults : null;
  return {
    parsed_gt_response: groundTruthOf(ctx),
    parsed_llm_response: llm,
    field_results: fieldResults,
  };
}

/**
 * The template's ground truth; in a scenario turn with the conditional values resolved for this turn next to
 * the ordinary ones (spec 08 §2.12), as the evaluation checked them.
 */
function groundTruthOf(ctx: VerificationContext): Record<string, unknown> | null {
  const groundTruth = ctx.artifacts.template?.groundTruth ?? null;
  const evaluation = ctx.artifacts.templateEvaluation as
    | { groundTruths?: Record<string, unknown> }
    | undefined;
  if (ctx.task.scenario === undefined || groundTruth === null || evaluation?.groundTruths === undefined)
    return groundTruth;
  return { ...evaluation.groundTruths, ...groundTruth };
}

function templateSection(ctx: VerificationContext) {
  const { artifacts, draft } = ctx;
  const trace = artifacts.traceMessages ?? [];
  let raw = artifacts.rawLlmResponse ?? draft.template.raw_llm_response ?? "";
  if (raw === "" && trace.length > 0) raw = renderRawTrace(trace);
  return VerificationResultTemplateSchema.parse({
    ...draft.template,
    ...parsedSections(ctx),
    raw_llm_response: raw,
    trace_messages: serializeMessages(trace),
    conversation_context: serializeMessages(artifacts.conversationContext ?? []),
    template_verification_performed: artifacts.fieldVerificationResult !== undefined,
    verify_result: artifacts.verifyResult ?? draft.template.verify_result ?? null,
    field_verification_error: draft.fieldVerificationError,
    usage_metadata: ctx.usage.summary(),
  });
}

/** The `timestamp` of a task's result: the task's start, to the second, in local time. */
export function taskTimestamp(ctx: VerificationContext): string {
  return localTimestamp(new Date(ctx.startedAt));
}

/**
 * The `result_id` the task's result gets (spec 06 §1.3), known from the task's start on: a `full` workspace
 * capture names its destination after it before the answer is generated (spec 05 §12.2).
 */
export function taskResultId(ctx: VerificationContext, timestamp = taskTimestamp(ctx)): string {
  return resultIdOfTask(ctx.task, timestamp);
}

/** The `result_id` of a task's result whose `timestamp` is `timestamp` (spec 06 §1.3). */
function resultIdOfTask(task: VerificationTask, timestamp: string): string {
  return resultId({
    answering: canonicalKey(modelIdentity(task.answering, "answering")),
    parsing: canonicalKey(modelIdentity(task.parsing, "parsing")),
    question_id: task.question.id,
    replicate: task.replicate,
    scenario_id: task.scenario?.scenarioId ?? null,
    scenario_node: task.scenario?.node ?? null,
    scenario_turn: task.scenario?.turn ?? null,
    timestamp,
  });
}

/**
 * Stage 13 (spec 04 §5.14): builds the task's `VerificationResult` from the artifacts and the result draft —
 * identities, template section, rubric section (only when a rubric stage ran), deep-judgment sections (only
 * when they ran), failure, caveats, warnings, usage and retry counts, and the `result_id`. Sections are
 * validated by their schemas; the whole row is assembled in the schema's key order without a second pass.
 */
export function finalizeResult(ctx: VerificationContext, timestamp: string): VerificationResult {
  const { task, config, artifacts, draft } = ctx;
  const answering = modelIdentity(task.answering, "answering");
  const parsing = modelIdentity(task.parsing, "parsing");
  const template = templateSection(ctx);
  const retryCounts = ctx.retries.snapshot();
  const failure = classifyFailure({
    failedStage: draft.failedStage,
    templateVerificationPerformed: template.template_verification_performed,
    verifyResult: template.verify_result,
    error: ctx.error?.message ?? null,
    errorCategory: ctx.error?.category ?? null,
    errorStage: ctx.error?.stage ?? null,
    retryCounts,
    abstentionDetected: template.abstention_detected,
    abstentionReasoning: template.abstention_reasoning,
    sufficiencyCheckPerformed: template.sufficiency_check_performed,
    sufficiencyDetected: template.sufficiency_detected,
    sufficiencyOverrideApplied: template.sufficiency_override_applied,
    sufficiencyReasoning: template.sufficiency_reasoning,
    templateValidationError: artifacts.templateValidationError ?? null,
  });
  if (failure?.category === "parsing" && artifacts.judgeRawResponse != null) {
    failure.details = { ...(failure.details ?? {}), judge_raw_response: artifacts.judgeRawResponse };
  }
  const rubric =
    draft.rubric === null
      ? null
      : VerificationResultRubricSchema.parse({
          ...draft.rubric,
          trait_provenance: draft.rubric.trait_provenance ?? nonEmpty(task.traitProvenance),
        });
  const result: VerificationResult = {
    metadata: {
      question_id: task.question.id,
      template_id: task.templateId,
      failure,
      caveats: caveatsFor({
        responseTimeoutPartial: template.response_timeout_partial,
        embeddingOverrideApplied: template.embedding_override_applied,
        parseDecisionMalformed: artifacts.parseDecisionMalformed === true,
        retryCounts,
      }),
      warnings: [...ctx.warnings],
      partial_content: null,
      retry_counts: retryCounts,
      question_text: task.question.text,
      raw_answer: task.question.rawAnswer,
      keywords: task.question.keywords,
      answering,
      parsing,
      answering_system_prompt: task.answering.system_prompt,
      parsing_system_prompt: task.parsing.system_prompt,
      execution_time: ctx.elapsedSeconds(),
      timestamp,
      result_id: taskResultId(ctx, timestamp),
      run_name: task.scenario ? task.scenario.runName : task.runName,
      replicate: task.replicate,
      few_shot_enabled: task.fewShotEnabled,
      few_shot_example_count: task.fewShotExamples.length,
      evaluation_mode: task.scenario ? null : config.evaluation_mode,
      scenario_id: task.scenario?.scenarioId ?? null,
      scenario_node: task.scenario?.node ?? null,
      scenario_turn: task.scenario?.turn ?? null,
      scenario_path: task.scenario ? [...task.scenario.path] : null,
    },
    template,
    rubric,
    deep_judgment:
      config.evaluation_mode !== "rubric_only" &&
      config.deep_judgment_mode !== "disabled" &&
      draft.deepJudgment
        ? VerificationResultDeepJudgmentSchema.parse({
            deep_judgment_mode: config.deep_judgment_mode,
            ...draft.deepJudgment,
          })
        : null,
    deep_judgment_rubric:
      draft.deepJudgmentRubric?.deep_judgment_rubric_performed === true
        ? VerificationResultDeepJudgmentRubricSchema.parse(draft.deepJudgmentRubric)
        : null,
    evaluation_input: draft.evaluationInput,
    used_full_trace: draft.usedFullTrace ?? true,
    trace_extraction_error: draft.traceExtractionError,
  };
  return result;
}

function nonEmpty<T extends object>(value: T): T | null {
  return Object.keys(value).length === 0 ? null : value;
}
