import { describeValue } from "../errors/index.js";
import type { LlmTrait } from "../model/rubric/index.js";
import { setOwn } from "../plain-data/index.js";
import { TraitEvaluationError } from "./errors.js";
import { type TemplateField, templateFields, templateKindOf } from "./template-requests.js";

/**
 * A template-kind trait's values as result keys `"<trait>.<field>"` (spec 03 §2.5), in field order.
 * @example
 * flattenTemplateResult("steps", { count: 3, ordered: true }); // { "steps.count": 3, "steps.ordered": true }
 */
export function flattenTemplateResult(
  traitName: string,
  values: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [`${traitName}.${field}`, value]));
}

const A_TYPE = {
  integer: "an integer",
  number: "a number",
  string: "a string",
  boolean: "a boolean",
} as const;

const TRUE_TEXT = new Set(["true", "yes", "on", "1", "t", "y"]);
const FALSE_TEXT = new Set(["false", "no", "off", "0", "f", "n"]);

/** Pydantic's lax reading of one scalar; undefined when it refuses. */
function coerceScalar(type: TemplateField["itemType"], value: unknown): unknown {
  switch (type) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "boolean":
      if (typeof value === "boolean") return value;
      if (value === 0 || value === 1) return value === 1;
      if (typeof value === "string") {
        const word = value.trim().toLowerCase();
        if (TRUE_TEXT.has(word)) return true;
        if (FALSE_TEXT.has(word)) return false;
      }
      return undefined;
    case "integer": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof number === "number" && Number.isInteger(number) ? number : undefined;
    }
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof number === "number" && Number.isFinite(number) ? number : undefined;
    }
  }
}

function coerceField(field: TemplateField, value: unknown): unknown {
  if (value === null) return field.nullable ? null : undefined;
  if (field.type !== "array") return coerceScalar(field.type, value);
  if (!Array.isArray(value)) return undefined;
  const items = value.map((item) => coerceScalar(field.itemType, item));
  return items.includes(undefined) ? undefined : items;
}

/**
 * Reads a template-kind trait's reply into its `trait.field` results (spec 03 §9.3): every field of the
 * trait's class, in order, with the reply's value (read leniently, as Pydantic does: `"3"` for an integer,
 * `"yes"` for a boolean), else the field's default, else null for an optional field. Extra keys are ignored.
 * @throws TraitEvaluationError naming the field when a required field is missing or a value has the wrong
 *   type (the original then records the trait as null).
 * @example
 * const kind = { type: "template" as const, schema: { properties: { count: { type: "integer" }, note: { anyOf: [{ type: "string" }, { type: "null" }], default: null } }, required: ["count"] } };
 * const steps = parseRubricTrait({ name: "steps", kind, higher_is_better: null }, "llm") as LlmTrait;
 * parseTemplateTraitReply(steps, { count: "3" }); // { "steps.count": 3, "steps.note": null }
 */
export function parseTemplateTraitReply(trait: LlmTrait, reply: unknown): Record<string, unknown> {
  const fields = templateFields(templateKindOf(trait));
  if (typeof reply !== "object" || reply === null || Array.isArray(reply)) {
    throw new TraitEvaluationError(
      trait.name,
      "llm",
      null,
      `the judge reply is ${describeValue(reply)}, not an object`,
    );
  }
  const given = reply as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(given, field.name)) {
      if (field.required) {
        throw new TraitEvaluationError(
          trait.name,
          "llm",
          `kind.${field.name}`,
          "the judge reply has no value for it",
        );
      }
      setOwn(values, field.name, "default" in field ? structuredClone(field.default) : null);
      continue;
    }
    const value = coerceField(field, given[field.name]);
    if (value === undefined) {
      const expected = field.type === "array" ? `a list of ${field.itemType}` : A_TYPE[field.type];
      throw new TraitEvaluationError(
        trait.name,
        "llm",
        `kind.${field.name}`,
        `expected ${expected}${field.nullable ? " or null" : ""}, the judge gave ${describeValue(given[field.name])}`,
      );
    }
    setOwn(values, field.name, value); // field names come from the checkpoint's schema, `__proto__` included
  }
  return flattenTemplateResult(trait.name, values);
}
