import { ParseError } from "../../llm/index.js";
import type { VerificationContext } from "../context.js";
import {
  checkTemplateExcerpts,
  type DeepJudgmentPromptBase,
  type ExcerptCheck,
  excerptExtractionPrompt,
  readExcerptReply,
} from "../prompts/index.js";
import { askJudge } from "./calls.js";

/** The accepted excerpt-extraction attempt and how many calls it took. */
export interface ExcerptExtraction {
  check: ExcerptCheck;
  calls: number;
}

/**
 * Excerpt extraction with fuzzy validation and retries (spec 04 §9.1 step 1): up to
 * `1 + deep_judgment_excerpt_retry_attempts` calls. A reply without a JSON object, or with an excerpt that is
 * not found in the response, makes the whole call run again (with a note asking for verbatim quotes) while
 * attempts remain; on the last attempt excerpts not found are dropped. The attributes left without excerpts
 * come from the accepted attempt alone (the spec's recommended fix; the original accumulates them across
 * attempts).
 * @throws {ParseError} when the last attempt's reply holds no JSON object.
 */
export async function extractExcerpts(
  ctx: VerificationContext,
  base: DeepJudgmentPromptBase,
  attributes: readonly string[],
  response: string,
): Promise<ExcerptExtraction> {
  const { config } = ctx;
  const attempts = 1 + Math.max(0, config.deep_judgment_excerpt_retry_attempts);
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= attempts;
    const prompt = excerptExtractionPrompt({
      ...base,
      response,
      maxExcerptsPerAttribute: config.deep_judgment_max_excerpts_per_attribute,
      retry: attempt > 1,
    });
    const reply = await askJudge(ctx, prompt, "deep_judgment_excerpts");
    const parsed = readExcerptReply(reply.content);
    if (parsed === null) {
      if (!last) continue;
      throw new ParseError(
        `Deep judgment excerpt extraction failed: the judge's reply holds no JSON object (after ${attempt} attempt${attempt === 1 ? "" : "s"})`,
        reply.content,
        reply.usage,
      );
    }
    const check = checkTemplateExcerpts(
      parsed,
      attributes,
      response,
      config.deep_judgment_fuzzy_match_threshold,
    );
    if (check.rejected.length === 0 || last) return { check, calls: attempt };
  }
}
