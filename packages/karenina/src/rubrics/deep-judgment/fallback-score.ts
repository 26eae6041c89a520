import type { LlmTrait } from "../../model/rubric/index.js";
import { pyStrip } from "../../templates/index.js";
import { normalizeScore } from "../score-replies.js";
import { scoreBounds } from "../score-requests.js";

const YES = new Set(["true", "yes", "1"]);
const NO = new Set(["false", "no", "0"]);

/**
 * Reads a deep-judgment score from a plain-text reply, when structured output failed (spec 03 §10.3 step 4).
 * Boolean traits: `true`/`yes`/`1` vs `false`/`no`/`0` (whole reply, case-insensitive), else whether the
 * reply contains "true" or "yes", else false. Other kinds (literal traits included) take the numeric path:
 * the first integer in the reply, else `min_score or 1`, clamped to the trait's range.
 * @example
 * const clarity = parseRubricTrait({ name: "clarity", kind: "score" }, "llm") as LlmTrait;
 * parseFallbackScore(clarity, "I would give it a 4 out of 5."); // 4
 * parseFallbackScore(clarity, "Excellent."); // 1
 * parseFallbackScore(parseRubricTrait({ name: "ok", kind: "boolean" }, "llm") as LlmTrait, "Yes, it is."); // true
 */
export function parseFallbackScore(trait: LlmTrait, reply: string): boolean | number {
  const text = pyStrip(reply).toLowerCase();
  if (trait.kind === "boolean") {
    if (YES.has(text)) return true;
    if (NO.has(text)) return false;
    return text.includes("true") || text.includes("yes");
  }
  const first = /-?\d+/.exec(text);
  return normalizeScore(trait, first === null ? scoreBounds(trait).min : Number(first[0]));
}
