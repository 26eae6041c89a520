import {
  excerptSimilarity,
  HALLUCINATION_RISKS,
  type HallucinationRisk,
  MIN_EXCERPT_SIMILARITY,
} from "../../rubrics/index.js";
import { readJsonObject } from "./json-reply.js";

/** How directly a template excerpt supports its attribute; `none` marks "no evidence found". */
export type TemplateExcerptConfidence = "high" | "medium" | "low" | "none";
const CONFIDENCES: readonly string[] = ["high", "medium", "low", "none"];

/** An accepted excerpt of template deep judgment (spec 04 §9.1), as stored in `extracted_excerpts`. */
export interface TemplateExcerpt {
  text: string;
  confidence: TemplateExcerptConfidence;
  similarity_score: number;
  /** Only on the "no evidence" placeholder: why nothing was found. */
  explanation?: string;
  /** With search: the results for this excerpt (`{title, content, url}[]` or a string). */
  search_results?: unknown;
  hallucination_risk?: HallucinationRisk;
  hallucination_justification?: string;
}

/** An excerpt rejected because it was not found in the response. */
export interface RejectedExcerpt {
  attribute: string;
  text: string;
  similarity_score: number;
}

/** One excerpt-extraction attempt, checked against the response. */
export interface ExcerptCheck {
  /** Accepted excerpts (and "no evidence" placeholders) by attribute. */
  excerpts: Record<string, TemplateExcerpt[]>;
  /** Attributes left without a valid excerpt, in attribute order. */
  attributesWithoutExcerpts: string[];
  /** Excerpts not found in the response: the caller retries the whole call while attempts remain, else drops them. */
  rejected: RejectedExcerpt[];
}

/**
 * Whether a template excerpt is rejected (spec 04 §9.1): only when it is not a match (similarity < 0.75) **and**
 * below the configured threshold — so the effective threshold is min(0.75, threshold). (The original's rule,
 * kept; the rubric rule in `isValidExcerpt` is stricter.)
 */
export function templateExcerptRejected(similarity: number, threshold: number): boolean {
  return similarity < MIN_EXCERPT_SIMILARITY && similarity < threshold;
}

/**
 * Reads an excerpt-extraction reply `{attr: [{text, confidence, explanation?}]}` (fences tolerated). Null when the
 * reply holds no JSON object: the attempt failed, and the caller retries (or, on the last attempt, fails).
 */
export function readExcerptReply(reply: unknown): Record<string, unknown> | null {
  return readJsonObject(reply);
}

function entryFields(entry: unknown): {
  text: string;
  confidence: TemplateExcerptConfidence;
  explanation: string;
} {
  const { text, confidence, explanation } = (
    typeof entry === "object" && entry !== null ? entry : {}
  ) as Record<string, unknown>;
  return {
    text: typeof text === "string" ? text : "",
    confidence: CONFIDENCES.includes(confidence as string)
      ? (confidence as TemplateExcerptConfidence)
      : "medium",
    explanation: typeof explanation === "string" ? explanation : "",
  };
}

/**
 * Checks one excerpt-extraction reply against the response (spec 04 §9.1 step 1), attribute by attribute (the
 * schema's, in order; keys the judge invented are ignored):
 * - no list (missing or empty) ⇒ the attribute has no excerpts;
 * - an entry with empty text, confidence `none` and an explanation ⇒ kept as the placeholder
 *   `{text: "", confidence: "none", similarity_score: 0, explanation}`, and the attribute has no excerpts;
 * - other entries with empty text are skipped; an unknown confidence reads as `medium`;
 * - otherwise the text is fuzzy-matched against the response (`excerptSimilarity`, shared with rubric deep
 *   judgment) and accepted unless {@link templateExcerptRejected}.
 * An attribute with no accepted excerpt is listed in `attributesWithoutExcerpts`. The list is computed from this
 * attempt alone (the recommended fix of the original's list, which accumulates across retries).
 */
export function checkTemplateExcerpts(
  reply: Readonly<Record<string, unknown>>,
  attributes: readonly string[],
  response: string,
  threshold: number,
): ExcerptCheck {
  const check: ExcerptCheck = { excerpts: {}, attributesWithoutExcerpts: [], rejected: [] };
  for (const attribute of attributes) {
    const entries = reply[attribute];
    const accepted: TemplateExcerpt[] = [];
    let placeholder = false;
    for (const entry of Array.isArray(entries) ? entries : []) {
      const { text, confidence, explanation } = entryFields(entry);
      if (text.trim() === "") {
        if (confidence === "none" && explanation !== "") {
          accepted.push({ text: "", confidence: "none", similarity_score: 0, explanation });
          placeholder = true;
        }
        continue;
      }
      const similarity = excerptSimilarity(text, response);
      if (templateExcerptRejected(similarity, threshold)) {
        check.rejected.push({ attribute, text, similarity_score: similarity });
      } else {
        accepted.push({ text, confidence, similarity_score: similarity });
      }
    }
    check.excerpts[attribute] = accepted;
    if (placeholder || accepted.length === 0) check.attributesWithoutExcerpts.push(attribute);
  }
  return check;
}

/**
 * Reads a reasoning reply `{attr: reasoning}` — or `{attr: {reasoning, …}}`, the form with search — into
 * `{attr: reasoning}` (fences tolerated). Values that are neither a string nor an object with a string
 * `reasoning` are dropped. An unusable reply gives `{}` (spec 04 §9.1: the parse then works without reasoning).
 */
export function readReasoningReply(reply: unknown): Record<string, string> {
  const value = readJsonObject(reply);
  const reasoning: Record<string, string> = {};
  for (const [attribute, entry] of Object.entries(value ?? {})) {
    if (typeof entry === "string") reasoning[attribute] = entry;
    else if (
      typeof entry === "object" &&
      entry !== null &&
      typeof (entry as Record<string, unknown>).reasoning === "string"
    ) {
      reasoning[attribute] = (entry as { reasoning: string }).reasoning;
    }
  }
  return reasoning;
}

/** A hallucination judge's assessment of one excerpt. */
export interface ExcerptAssessment {
  hallucination_risk: HallucinationRisk;
  justification: string;
}

/**
 * Reads a hallucination-assessment reply `{excerpt_assessments: [{excerpt_id, hallucination_risk,
 * justification}]}` for the excerpt ids asked about: every id gets an assessment, `high` (with an empty
 * justification) when the judge left it out or gave an unknown risk. Null when the reply is unusable — the
 * assessment is then skipped (failures are not fatal).
 */
export function readHallucinationReply(
  reply: unknown,
  excerptIds: readonly string[],
): Record<string, ExcerptAssessment> | null {
  const list = readJsonObject(reply)?.excerpt_assessments;
  if (!Array.isArray(list)) return null;
  const assessments: Record<string, ExcerptAssessment> = Object.fromEntries(
    excerptIds.map((id) => [id, { hallucination_risk: "high", justification: "" }]),
  );
  for (const entry of list) {
    if (typeof entry !== "object" || entry === null) continue;
    const { excerpt_id: id, hallucination_risk: risk, justification } = entry as Record<string, unknown>;
    if (typeof id !== "string" || !Object.hasOwn(assessments, id)) continue;
    assessments[id] = {
      hallucination_risk: HALLUCINATION_RISKS.includes(risk as HallucinationRisk)
        ? (risk as HallucinationRisk)
        : "high",
      justification: typeof justification === "string" ? justification : "",
    };
  }
  return assessments;
}

/**
 * An attribute's hallucination risk (spec 04 §9.1 step 4): the highest risk of its assessed excerpts (none < low
 * < medium < high), or `high` when none of its excerpts was assessed.
 */
export function attributeHallucinationRisk(excerpts: readonly TemplateExcerpt[]): HallucinationRisk {
  const risks = excerpts.flatMap((excerpt) =>
    excerpt.hallucination_risk === undefined ? [] : [HALLUCINATION_RISKS.indexOf(excerpt.hallucination_risk)],
  );
  return risks.length === 0 ? "high" : (HALLUCINATION_RISKS[Math.max(...risks)] as HallucinationRisk);
}
