/**
 * Crafted result rows for the export tests: minimal objects, filled in by the schema's defaults when
 * validated. Hand-written test data, not the output of any model or run.
 */
import type { VerificationResultInput } from "../../verification-result.js";

const identity = { interface: "langchain", model_name: "gpt-4o", tools: [], config_id: null };

/** A minimal valid row; `patch.metadata` and `patch.template` are merged into those sections, other keys set. */
export function row(
  questionId: string,
  patch: { metadata?: object; template?: object | null; [section: string]: unknown } = {},
): VerificationResultInput {
  const { metadata, template, ...rest } = patch;
  return {
    metadata: {
      question_id: questionId,
      template_id: "no_template",
      question_text: `Question ${questionId}`,
      answering: identity,
      parsing: identity,
      execution_time: 1,
      timestamp: "2026-04-21 12:00:00",
      result_id: "0123456789abcdef",
      ...metadata,
    },
    template: template === null ? null : { raw_llm_response: `answer ${questionId}`, ...template },
    ...rest,
  } as VerificationResultInput;
}
