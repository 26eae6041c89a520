import { LlmAbortedError, ParseError, prepareEvaluationInput } from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import { classifyError, describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import { templateDeepJudgment } from "../deep-judgment-template/index.js";
import { parsingPrompt } from "../prompts/index.js";
import type { Stage } from "../stage.js";
import { parseTemplateAnswer, templateStructuredSchema } from "./template-parse-call.js";
import { answerIsScorable } from "./verify-template.js";

function noJudge(ctx: VerificationContext, modelStr: string): void {
  ctx.artifacts.parsedAnswer = {};
  ctx.artifacts.parsingModelStr = modelStr;
  ctx.draft.usedFullTrace = ctx.config.use_full_trace_for_template;
  ctx.draft.traceExtractionError = null;
}

/**
 * Whether a task's answer goes to a parse stage (7a or 7b): scorable (no error, abstention or recursion limit),
 * trace validation passed, not found insufficient, with an answer and a template, and not a replay that brings
 * its verdict without the parsed answer.
 */
export function answerIsParseable(ctx: VerificationContext): boolean {
  const { artifacts } = ctx;
  return (
    answerIsScorable(ctx) &&
    artifacts.traceValidationFailed !== true &&
    artifacts.sufficiencyDetected !== false &&
    artifacts.rawLlmResponse !== undefined &&
    artifacts.template !== undefined &&
    !(artifacts.replayedVerdict !== undefined && artifacts.replayedParsedAnswer === undefined)
  );
}

/**
 * The replay bypass of the parse stages (spec 04 §5.7 step 3): the replayed answer's captured parsed fields,
 * checked with the relaxed schema; `"parse"` when there are none, or when they do not fit and
 * `replay_parse_on_hydration_mismatch` is `fall_through` (with a warning); null, with the task's error set,
 * when they do not fit and it is `strict`.
 */
export function replayedParse(
  ctx: VerificationContext,
  template: AnswerTemplate,
): Record<string, unknown> | null | "parse" {
  const replayed = ctx.artifacts.replayedParsedAnswer;
  if (replayed === undefined) return "parse";
  const checked = templateStructuredSchema(template).validate(replayed);
  if (checked.success) return checked.value;
  if (ctx.config.replay_parse_on_hydration_mismatch === "strict") {
    ctx.markError(`Replayed parsed answer does not fit the template: ${checked.error}`);
    return null;
  }
  ctx.warn(`replayed parsed answer does not fit the template (${checked.error}); parsing live`);
  return "parse";
}

/**
 * Stage 7a (spec 04 §5.7): the judge (parsing model) extracts the template's fields from the answer. The
 * judge sees the judge schema only — never the ground truth. Templates without judge fields, and replayed
 * parsed answers, need no call. With template deep judgment on, the parse goes through its excerpt and
 * reasoning stages instead. A judge that cannot produce valid JSON fails the task as a parsing error, with
 * its raw reply kept.
 */
export const parseTemplateStage: Stage = {
  name: "ParseTemplate",
  needs: ["template", "rawLlmResponse"],
  gives: ["parsedAnswer", "parsingModelStr"],
  shouldRun: answerIsParseable,
  async run(ctx) {
    const { artifacts, config, task, draft } = ctx;
    const template = artifacts.template as AnswerTemplate;
    if (template.needsNoJudge) {
      noJudge(ctx, "regex_only (no LLM)");
      return;
    }
    const replayed = replayedParse(ctx, template);
    if (replayed !== "parse") {
      if (replayed !== null) {
        noJudge(ctx, "replay (no LLM)");
        artifacts.parsedAnswer = replayed;
      }
      return;
    }
    const useFull = config.use_full_trace_for_template;
    draft.usedFullTrace = useFull;
    const input = prepareEvaluationInput(artifacts.traceMessages ?? artifacts.rawLlmResponse ?? "", useFull);
    if (input.error !== null) {
      draft.traceExtractionError = input.error;
      ctx.markError(input.error);
      return;
    }
    try {
      artifacts.parsedAnswer =
        config.deep_judgment_mode === "disabled"
          ? await standardParse(ctx, template, input.text)
          : await templateDeepJudgment(ctx, template, input.text);
      artifacts.parsingModelStr = task.parsing.model_name ?? "unknown";
      draft.evaluationInput = useFull ? input.text : null;
      draft.traceExtractionError = null;
    } catch (error) {
      if (error instanceof LlmAbortedError || ctx.aborted) throw error;
      if (error instanceof ParseError) {
        artifacts.judgeRawResponse = error.rawResponse;
        ctx.markError(error.message, "permanent");
      } else {
        ctx.markError(
          `Parsing failed: ${describeException(error)}`,
          classifyError(error, config.custom_error_patterns),
        );
      }
    }
  },
};

async function standardParse(
  ctx: VerificationContext,
  template: AnswerTemplate,
  response: string,
): Promise<Record<string, unknown>> {
  const { task, config } = ctx;
  const model = task.parsing;
  const prompt = parsingPrompt({
    judgeSchema: template.judgeSchema,
    extractionHints: template.extractionHints,
    includeExtractionHints: config.include_extraction_hints,
    question: task.question.text,
    response,
    interface: model.interface,
    promptConfig: config.prompt_config,
  });
  return parseTemplateAnswer(ctx, template, prompt);
}
