/** The two server calls of the rubric editor: rubric validation and the regex test box. */
import { ApiRequestError, apiFetch } from "../api/index.js";
import type { RegexTestRequest, RegexTestResult, Rubric, RubricValidation } from "../library-types/index.js";
import { placedTraits } from "./traits.js";
import { problemsOfReadiness, problemsOfRefusal, type ServerVerdict } from "./validation.js";

/** How long the editor waits after the last keystroke before asking the server. */
export const VALIDATION_DELAY_MS = 500;
export const REGEX_TEST_DELAY_MS = 300;

/** Validates the rubric on the server: a 422 becomes its problems by trait, not a failure. */
export async function validateRubric(rubric: Rubric, signal: AbortSignal): Promise<ServerVerdict> {
  try {
    const answer = await apiFetch<RubricValidation>("/api/v2/rubrics/validation", {
      method: "POST",
      body: { rubric },
      signal,
    });
    return { invalid: [], readiness: problemsOfReadiness(answer.readiness_errors, placedTraits(rubric)) };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 422)
      return { invalid: problemsOfRefusal(error.message, error.details), readiness: [] };
    throw error;
  }
}

/** Runs a pattern on a text with the library's Python-regex semantics (and its timeout), on the server. */
export function testRegex(request: RegexTestRequest, signal: AbortSignal): Promise<RegexTestResult> {
  return apiFetch<RegexTestResult>("/api/v2/regex/test", { method: "POST", body: request, signal });
}
