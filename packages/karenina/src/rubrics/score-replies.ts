import { describeValue } from "../errors/index.js";
import type { LlmTrait } from "../model/rubric/index.js";
import { pyStrip } from "../templates/index.js";
import { TraitEvaluationError } from "./errors.js";
import { assertScoreRange } from "./score-range.js";
import { scoreBounds } from "./score-requests.js";

const FALSE_WORDS = new Set(["false", "0", "no"]);

/**
 * A boolean trait's value from the judge, coerced as the original does (spec 03 §9.4): a bool is kept; a
 * number or string is true unless it is 0, empty, or (case-insensitively) "false", "0" or "no"; anything
 * else by Python truthiness (null → false, empty list or object → false).
 * @example
 * normalizeBooleanVerdict("No"); // false
 * normalizeBooleanVerdict("yes"); // true
 * normalizeBooleanVerdict(0); // false
 */
export function normalizeBooleanVerdict(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  if (typeof value === "string") return value !== "" && !FALSE_WORDS.has(value.toLowerCase());
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return false;
}

const INT_TEXT = /^[+-]?\d+(?:_\d+)*$/;

/** Python's `int(value)` for JSON values; null when Python would raise. */
function pythonInt(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : null;
  if (typeof value === "string") {
    const text = pyStrip(value);
    return INT_TEXT.test(text) ? Number(text.replaceAll("_", "")) : null;
  }
  return null;
}

/**
 * A score trait's value from the judge (spec 03 §9.4): converted with Python's `int()` (floats truncated,
 * integer strings read), then clamped to `[min_score or 1, max_score or 5]` — so `min_score = 0` clamps at 1
 * (quirk R2, mirrored).
 * @throws TraitEvaluationError when the value is not an integer (`int()` would fail), or the trait's range
 *   is empty (min ≥ max).
 * @example
 * const depth = parseRubricTrait({ name: "depth", kind: "score", min_score: 0, max_score: 10 }, "llm") as LlmTrait;
 * normalizeScore(depth, 0); // 1
 * normalizeScore(depth, "12"); // 10
 * normalizeScore(depth, 7.9); // 7
 */
export function normalizeScore(trait: LlmTrait, value: unknown): number {
  assertScoreRange(trait);
  const score = pythonInt(value);
  if (score === null) {
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      null,
      `the judge gave ${describeValue(value)}, which is not an integer score`,
    );
  }
  const { min, max } = scoreBounds(trait);
  return Math.max(min, Math.min(max, score));
}

/** A boolean or score trait's judged value, normalised by kind. */
export function normalizeTraitValue(trait: LlmTrait, value: unknown): boolean | number {
  return trait.kind === "boolean" ? normalizeBooleanVerdict(value) : normalizeScore(trait, value);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The object under `key` of a judge reply, or a TraitEvaluationError naming the first trait. */
function replyField(reply: unknown, key: string, trait: LlmTrait): unknown {
  if (!isRecord(reply) || !(key in reply)) {
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      null,
      `the judge reply is ${describeValue(reply)}, not an object with "${key}"`,
    );
  }
  return reply[key];
}

/**
 * Reads a batch reply `{"scores": {...}}` for boolean/score traits (spec 03 §9.3): names not in the batch
 * are ignored, traits missing from the reply are null, every returned value is normalised.
 * @throws TraitEvaluationError when the reply is unusable or a score is not an integer — in the original
 *   this fails the whole batch, and with it the row's rubric result.
 * @example
 * const clarity = parseRubricTrait({ name: "clarity", kind: "score" }, "llm") as LlmTrait;
 * const cites = parseRubricTrait({ name: "cites", kind: "boolean" }, "llm") as LlmTrait;
 * parseBatchScoresReply([clarity, cites], { scores: { clarity: 9, other: 1 } }); // { clarity: 5, cites: null }
 */
export function parseBatchScoresReply(
  traits: readonly LlmTrait[],
  reply: unknown,
): Record<string, boolean | number | null> {
  const first = traits[0];
  if (first === undefined) return {};
  const scores = replyField(reply, "scores", first);
  if (!isRecord(scores)) {
    throw new TraitEvaluationError(
      first.name,
      "llm",
      null,
      `the judge reply's "scores" is ${describeValue(scores)}, not an object`,
    );
  }
  return Object.fromEntries(
    traits.map((trait) => [
      trait.name,
      Object.hasOwn(scores, trait.name) ? normalizeTraitValue(trait, scores[trait.name]) : null,
    ]),
  );
}

/**
 * Reads a sequential reply: `{"result": bool}` for a boolean trait, `{"score": int}` for a score trait.
 * @throws TraitEvaluationError when the reply is unusable (the caller records null for this trait only).
 * @example
 * const clarity = parseRubricTrait({ name: "clarity", kind: "score" }, "llm") as LlmTrait;
 * parseSequentialScoreReply(clarity, { score: "4" }); // 4
 */
export function parseSequentialScoreReply(trait: LlmTrait, reply: unknown): boolean | number {
  return normalizeTraitValue(trait, replyField(reply, trait.kind === "boolean" ? "result" : "score", trait));
}
