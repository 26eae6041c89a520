import { describeValue } from "../errors/index.js";
import type { LlmTrait } from "../model/rubric/index.js";
import { TraitEvaluationError } from "./errors.js";
import { literalLabels } from "./literal-requests.js";

/** A literal trait's result: the class index (−1 when there is none) and the label. */
export interface LiteralResult {
  readonly score: number;
  readonly label: string;
}

/** The label of a literal trait a batch reply left out. */
export const MISSING_FROM_RESPONSE = "[MISSING_FROM_RESPONSE]";

/**
 * Resolves the class the judge named (spec 03 §9.3): an exact label match gives its index; else a
 * case-insensitive match gives the canonical label and its index; else −1, keeping the invalid label.
 * @example
 * const tone = parseRubricTrait({ name: "tone", kind: "literal", classes: { formal: "F", casual: "C" } }, "llm") as LlmTrait;
 * resolveLiteralClass(tone, "Casual"); // { score: 1, label: "casual" }
 * resolveLiteralClass(tone, "chatty"); // { score: -1, label: "chatty" }
 */
export function resolveLiteralClass(trait: LlmTrait, className: string): LiteralResult {
  const labels = literalLabels(trait);
  const exact = labels.indexOf(className);
  if (exact !== -1) return { score: exact, label: className };
  const folded = className.toLowerCase();
  const loose = labels.findIndex((label) => label.toLowerCase() === folded);
  if (loose !== -1) return { score: loose, label: labels[loose] as string };
  return { score: -1, label: className };
}

/**
 * The result recorded for a literal trait whose sequential call failed: −1 with `[EVALUATION_ERROR: <msg>]`.
 * @example
 * literalFailure("timeout"); // { score: -1, label: "[EVALUATION_ERROR: timeout]" }
 */
export function literalFailure(message: string): LiteralResult {
  return { score: -1, label: `[EVALUATION_ERROR: ${message}]` };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const asLabel = (value: unknown) => (typeof value === "string" ? value : (JSON.stringify(value) ?? ""));

/**
 * Reads a batch reply `{"classifications": [{"trait_name", "class_name"}]}` (spec 03 §9.3): a later entry for
 * the same trait wins, unknown trait names are ignored, and a trait left out gets −1 with
 * `[MISSING_FROM_RESPONSE]`.
 * @throws TraitEvaluationError when the reply is unusable (the whole batch fails, as in the original).
 * @example
 * const tone = parseRubricTrait({ name: "tone", kind: "literal", classes: { formal: "F", casual: "C" } }, "llm") as LlmTrait;
 * parseBatchLiteralReply([tone], { classifications: [{ trait_name: "tone", class_name: "formal" }] }); // { tone: { score: 0, label: "formal" } }
 * parseBatchLiteralReply([tone], { classifications: [] }); // { tone: { score: -1, label: "[MISSING_FROM_RESPONSE]" } }
 */
export function parseBatchLiteralReply(
  traits: readonly LlmTrait[],
  reply: unknown,
): Record<string, LiteralResult> {
  const first = traits[0];
  if (first === undefined) return {};
  const entries = isRecord(reply) ? reply.classifications : undefined;
  if (!Array.isArray(entries) || !entries.every(isRecord)) {
    throw new TraitEvaluationError(
      first.name,
      "llm",
      null,
      `the judge reply is ${describeValue(reply)}, not an object with a "classifications" list`,
    );
  }
  const named = new Map(entries.map((entry) => [asLabel(entry.trait_name), asLabel(entry.class_name)]));
  return Object.fromEntries(
    traits.map((trait) => {
      const className = named.get(trait.name);
      const result =
        className === undefined
          ? { score: -1, label: MISSING_FROM_RESPONSE }
          : resolveLiteralClass(trait, className);
      return [trait.name, result];
    }),
  );
}

/**
 * Reads a sequential reply `{"classification": str}`.
 * @throws TraitEvaluationError when the reply is unusable; record {@link literalFailure} with its message.
 */
export function parseSequentialLiteralReply(trait: LlmTrait, reply: unknown): LiteralResult {
  if (!isRecord(reply) || !("classification" in reply)) {
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      null,
      `the judge reply is ${describeValue(reply)}, not an object with "classification"`,
    );
  }
  return resolveLiteralClass(trait, asLabel(reply.classification));
}
