import { describeValue, KareninaError } from "../../errors/index.js";
import { pyCollapseWhitespace } from "../../templates/index.js";
import { findLongestMatch } from "./longest-match.js";

export const EXCERPT_CONFIDENCES = ["high", "medium", "low"] as const;
/** How directly an excerpt supports the trait: high = explicit, medium = implied, low = weak. */
export type ExcerptConfidence = (typeof EXCERPT_CONFIDENCES)[number];

export const HALLUCINATION_RISKS = ["none", "low", "medium", "high"] as const;
export type HallucinationRisk = (typeof HALLUCINATION_RISKS)[number];

/** An excerpt as the judge returns it. */
export interface ExtractedExcerpt {
  readonly text: string;
  readonly confidence: ExcerptConfidence;
}

/** A validated excerpt as stored in `extracted_rubric_excerpts` (spec 03 §10.3, §10.5). */
export interface RubricExcerpt {
  text: string;
  confidence: ExcerptConfidence;
  similarity_score: number;
  /** With search (§10.3 step 2): the search results for this excerpt. */
  search_results?: unknown;
  hallucination_risk?: HallucinationRisk;
  hallucination_justification?: string;
}

/** A trait's hallucination risk: the highest excerpt risk, and each excerpt's. */
export interface TraitHallucinationRisk {
  overall_risk: HallucinationRisk;
  per_excerpt_risks: HallucinationRisk[];
}

/** The similarity every excerpt needs, whatever the trait's threshold (hard-coded in the original). */
export const MIN_EXCERPT_SIMILARITY = 0.75;

/**
 * How much of an excerpt occurs verbatim in the response: whitespace runs are collapsed to one space in
 * both, then the longest common contiguous block (Python's `SequenceMatcher.find_longest_match`, autojunk
 * included — see {@link findLongestMatch}) is divided by the excerpt's length. An empty excerpt scores 0.
 * @example
 * excerptSimilarity("BCL2  inhibits\napoptosis", "Venetoclax targets BCL2 inhibits apoptosis."); // 1
 * excerptSimilarity("BCL2 blocks", "BCL2 inhibits apoptosis"); // 5 / 11
 */
export function excerptSimilarity(excerpt: string, response: string): number {
  const quote = pyCollapseWhitespace(excerpt);
  const quoteLength = Array.from(quote).length;
  if (quoteLength === 0) return 0;
  return findLongestMatch(quote, pyCollapseWhitespace(response)).size / quoteLength;
}

/**
 * Whether an excerpt counts as found in the response (spec 03 §10.3): similarity ≥ 0.75 **and** ≥ the
 * trait's fuzzy-match threshold.
 * @example
 * isValidExcerpt(0.8, 0.9); // false
 * isValidExcerpt(0.8, 0.5); // true
 */
export function isValidExcerpt(similarity: number, threshold: number): boolean {
  return similarity >= MIN_EXCERPT_SIMILARITY && similarity >= threshold;
}

/** The outcome of one extraction attempt: the excerpts that passed, and the ones to report back on retry. */
export interface ExcerptValidation {
  valid: RubricExcerpt[];
  failed: RubricExcerpt[];
}

/**
 * Validates one attempt's excerpts against the response; each gets its `similarity_score`. The attempt
 * succeeds when `valid` is not empty; otherwise the caller retries with feedback about `failed`.
 */
export function validateExcerpts(
  excerpts: readonly ExtractedExcerpt[],
  response: string,
  threshold: number,
): ExcerptValidation {
  const validation: ExcerptValidation = { valid: [], failed: [] };
  for (const excerpt of excerpts) {
    const similarity = excerptSimilarity(excerpt.text, response);
    const scored = { text: excerpt.text, confidence: excerpt.confidence, similarity_score: similarity };
    (isValidExcerpt(similarity, threshold) ? validation.valid : validation.failed).push(scored);
  }
  return validation;
}

/** A reply that is not `{"excerpts": [{"text", "confidence"}]}`: the attempt counts as failed and is retried. */
export class ExcerptReplyError extends KareninaError {
  override readonly name = "ExcerptReplyError";
}

/**
 * Reads an excerpt-extraction reply `{"excerpts": [{"text": str, "confidence": "high"|"medium"|"low"}]}`;
 * an unknown confidence reads as `medium` (as the template deep judgment does).
 * @throws ExcerptReplyError when the reply does not have that shape.
 */
export function parseExcerptReply(reply: unknown): ExtractedExcerpt[] {
  const list =
    typeof reply === "object" && reply !== null ? (reply as { excerpts?: unknown }).excerpts : undefined;
  if (!Array.isArray(list)) {
    throw new ExcerptReplyError(`expected {"excerpts": [...]}, got ${describeValue(reply)}`);
  }
  return list.map((item, index) => {
    const { text, confidence } = (item ?? {}) as { text?: unknown; confidence?: unknown };
    if (typeof text !== "string") {
      throw new ExcerptReplyError(`excerpt ${index} has no text (found ${describeValue(text)})`);
    }
    const known = EXCERPT_CONFIDENCES.includes(confidence as ExcerptConfidence);
    return { text, confidence: known ? (confidence as ExcerptConfidence) : "medium" };
  });
}

/**
 * A trait's risk from its excerpts' risks: the highest (none < low < medium < high); `none` without excerpts.
 * @example
 * traitHallucinationRisk(["low", "medium", "none"]); // { overall_risk: "medium", per_excerpt_risks: ["low", "medium", "none"] }
 */
export function traitHallucinationRisk(risks: readonly HallucinationRisk[]): TraitHallucinationRisk {
  const highest = Math.max(0, ...risks.map((risk) => HALLUCINATION_RISKS.indexOf(risk)));
  return { overall_risk: HALLUCINATION_RISKS[highest] as HallucinationRisk, per_excerpt_risks: [...risks] };
}
