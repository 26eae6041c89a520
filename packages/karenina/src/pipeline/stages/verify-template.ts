import type { VerificationContext } from "../context.js";
import type { Stage } from "../stage.js";

/**
 * Whether template stages may still look at the answer (spec 04 §5.7–5.8): no error (or only a timeout that
 * left a usable partial answer), no recursion limit, no refusal.
 */
export function answerIsScorable(ctx: VerificationContext): boolean {
  const { artifacts, config } = ctx;
  if (ctx.error !== null && !ctx.canScorePartialTimeout()) return false;
  if (artifacts.recursionLimitReached === true) return false;
  if (artifacts.responseTimeoutPartial === true && !config.allow_partial_trace_scoring) return false;
  return artifacts.abstentionDetected !== true;
}

function regexExtractions(details: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(details).map(([name, detail]) => [name, detail.matches_found ?? null]),
  );
}

/**
 * Stage 8 (spec 04 §5.8): the template's verdict on the parsed answer — its field checks (`verify`), its
 * regex checks on the raw response, and the partial-credit score. An exception inside the template's checks
 * fails the field checks with `field_verification_error`; it does not stop the task.
 */
export const verifyTemplateStage: Stage = {
  name: "VerifyTemplate",
  needs: ["template", "parsedAnswer", "rawLlmResponse"],
  gives: ["templateEvaluation", "fieldVerificationResult", "verifyResult"],
  shouldRun: (ctx) =>
    answerIsScorable(ctx) &&
    ctx.artifacts.parsedAnswer !== undefined &&
    ctx.artifacts.rawLlmResponse !== undefined,
  async run(ctx) {
    const { artifacts, draft } = ctx;
    const template = artifacts.template;
    if (template === undefined || artifacts.parsedAnswer === undefined) return;
    const evaluation = await template.evaluate(artifacts.parsedAnswer, {
      rawResponse: artifacts.rawLlmResponse ?? "",
      questionId: ctx.task.question.id,
      ...(ctx.task.scenario ? { scenarioContext: { node_results: ctx.task.scenario.nodeResults } } : {}),
    });
    artifacts.templateEvaluation = evaluation;
    artifacts.fieldVerificationResult = evaluation.fieldVerify;
    artifacts.verifyResult = evaluation.verify;
    const { regex } = evaluation;
    Object.assign(draft.template, {
      verify_result: evaluation.verify,
      verify_granular_result: evaluation.verifyGranular,
      regex_validations_performed: Object.keys(regex.results).length > 0,
      regex_validation_results: regex.results,
      regex_validation_details: regex.details,
      regex_overall_success: regex.success,
      regex_extraction_results: regexExtractions(regex.details),
    });
    if (evaluation.error !== null) draft.fieldVerificationError = evaluation.error;
  },
};
