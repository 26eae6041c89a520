import { LlmAbortedError, prepareEvaluationInput } from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import { classifyError, describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import { decisionPrompt, promptMessages, readDecisionReply } from "../prompts/index.js";
import type { Stage } from "../stage.js";
import { agenticParse } from "./agentic-parse-template.js";
import { answerIsParseable, replayedParse } from "./parse-template.js";
import { templateStructuredSchema } from "./template-parse-call.js";

/** How a dynamic parse ended (result field `dynamic_parse_decision`). */
type Decision = "direct" | "escalated" | "replay" | "answer_error_null";

function decide(ctx: VerificationContext, decision: Decision, reasoning: string | null): void {
  ctx.draft.template.dynamic_parse_decision = decision;
  ctx.draft.template.dynamic_decision_reasoning = reasoning;
}

/**
 * Whether a final message is nothing but the answering agent's API-connection failure (spec 05 §12.5 step 3):
 * its normalised text names both the failed connection and the refusal.
 */
export function isApiConnectionError(finalMessage: string): boolean {
  const text = finalMessage.toLowerCase().replace(/\s+/g, " ");
  return text.includes("api error: unable to connect to api") && text.includes("connectionrefused");
}

/** Every field of the judge schema unanswered: the answer of a trial whose agent never reached its API. */
function allNullAnswer(template: AnswerTemplate): Record<string, unknown> {
  const fields = Object.keys((template.judgeSchema.properties ?? {}) as object);
  return Object.fromEntries(fields.map((field) => [field, null]));
}

/** Step 6: the full agentic parse, the screening's reasoning handed to the investigation. */
async function escalate(
  ctx: VerificationContext,
  template: AnswerTemplate,
  reasoning: string,
): Promise<void> {
  decide(ctx, "escalated", reasoning);
  await agenticParse(ctx, template, { screeningReasoning: reasoning, errorPrefix: "Dynamic agentic" });
}

/**
 * Steps 4–5: the parsing model's LLM port decides whether the final message fills the template, and fills
 * it. A direct answer, or the reasoning to escalate with — or null when the call failed for good (the task's
 * error set).
 */
async function screen(
  ctx: VerificationContext,
  template: AnswerTemplate,
  finalMessage: string,
): Promise<{ answer: Record<string, unknown>; reasoning: string | null } | { escalate: string } | null> {
  const { config, task, artifacts } = ctx;
  const model = task.parsing;
  const prompt = decisionPrompt({
    question: task.question.text,
    finalMessage,
    judgeSchema: template.judgeSchema,
    interface: model.interface,
    promptConfig: config.prompt_config,
  });
  let reply: string;
  try {
    const supportsSystem = ctx.services.ports.llm(model).capabilities.supportsSystemPrompt;
    const response = await ctx.calls.invoke({
      stage: "dynamic_parsing_decision",
      model,
      messages: promptMessages(prompt, supportsSystem),
    });
    reply = response.content;
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    const category = classifyError(error, config.custom_error_patterns);
    if (category === "permanent") {
      ctx.markError(`Dynamic parsing decision failed: ${describeException(error)}`, category);
      return null;
    }
    const reason = `The decision call failed (${describeException(error)}), so the answer is investigated.`;
    ctx.warn(`Dynamic parsing decision failed after retries (${category}); escalating to the investigation`);
    return { escalate: reason };
  }
  const outcome = readDecisionReply(reply);
  if (outcome.kind === "insufficient") {
    return { escalate: outcome.reasoning ?? "The final message does not determine every field." };
  }
  const checked =
    outcome.kind === "sufficient" ? templateStructuredSchema(template).validate(outcome.answer) : null;
  if (checked?.success) return { answer: checked.value, reasoning: outcome.reasoning };
  const problem = outcome.kind === "malformed" ? outcome.problem : `answer: ${checked?.error}`;
  artifacts.parseDecisionMalformed = true;
  ctx.warn(`Dynamic parsing decision was malformed (${problem}); escalating to the investigation`);
  return { escalate: outcome.reasoning ?? `The decision reply was malformed: ${problem}.` };
}

/**
 * Stage 7b′ (spec 05 §12.5), in place of 7a/7b when `agentic_parsing` is on with trigger `dynamic`: the
 * answering agent's final message is screened first by one LLM call of the parsing model, which fills the
 * template directly when the message alone suffices (`direct`); otherwise — or when the reply is malformed
 * (caveat `parse_decision_malformed`), or the call failed with a retryable error — the answer gets the full
 * agentic parse of 7b, told the screening's reasoning (`escalated`). Replayed parsed fields are used as they
 * are (`replay`); a final message that is only an API-connection error is scored as all-null
 * (`answer_error_null`) instead of investigated. Skips as 7a and 7b do.
 */
export const dynamicParseTemplateStage: Stage = {
  name: "DynamicParseTemplate",
  needs: ["template", "rawLlmResponse"],
  gives: [
    "parsedAnswer",
    "parsingModelStr",
    "investigationTrace",
    "agenticParsingPerformed",
    "parseDecisionMalformed",
  ],
  shouldRun: (ctx) =>
    ctx.config.agentic_parsing && ctx.config.agentic_parsing_trigger === "dynamic" && answerIsParseable(ctx),
  async run(ctx) {
    const { artifacts, draft, task } = ctx;
    const template = artifacts.template as AnswerTemplate;
    artifacts.deepJudgmentPerformed = false;
    if (template.needsNoJudge) {
      artifacts.parsedAnswer = {};
      artifacts.parsingModelStr = "regex_only (no LLM)";
      return;
    }
    draft.template.dynamic_parsing_performed = true;
    const replayed = replayedParse(ctx, template);
    if (replayed === null) return;
    if (replayed !== "parse") {
      artifacts.parsedAnswer = replayed;
      artifacts.parsingModelStr = "replay (no LLM)";
      decide(ctx, "replay", null);
      return;
    }
    draft.usedFullTrace = false;
    draft.evaluationInput = null;
    const input = prepareEvaluationInput(artifacts.traceMessages ?? artifacts.rawLlmResponse ?? "", false);
    draft.traceExtractionError = input.error;
    if (input.error !== null) {
      await escalate(ctx, template, input.error);
      return;
    }
    if (isApiConnectionError(input.text)) {
      artifacts.parsedAnswer = allNullAnswer(template);
      artifacts.parsingModelStr = "answer_error_null (no LLM)";
      decide(
        ctx,
        "answer_error_null",
        "The final message is only an API connection error: every field is unanswered, and the trial is scored instead of investigated.",
      );
      ctx.warn(
        "Dynamic parsing: the answering agent's final message is an API connection error; all fields null",
      );
      return;
    }
    const screened = await screen(ctx, template, input.text);
    if (screened === null) return;
    if ("escalate" in screened) {
      await escalate(ctx, template, screened.escalate);
      return;
    }
    artifacts.parsedAnswer = screened.answer;
    artifacts.parsingModelStr = task.parsing.model_name ?? "unknown";
    decide(ctx, "direct", screened.reasoning);
  },
};
