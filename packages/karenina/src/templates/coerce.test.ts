import { describe, expect, test } from "vitest";
import type { JsonSchema } from "./answer-template.js";
import { coerceToSchema, describeProblems } from "./coerce.js";

const ok = (schema: JsonSchema, value: unknown) => {
  const result = coerceToSchema(schema, value);
  if (!result.ok) throw new Error(describeProblems(result.problems));
  return result.value;
};
const refused = (schema: JsonSchema, value: unknown) => coerceToSchema(schema, value).ok === false;

describe("Pydantic lax coercion (spec 02 §2.1)", () => {
  test("str takes strings only", () => {
    expect(ok({ type: "string" }, "BCL2")).toBe("BCL2");
    expect(refused({ type: "string" }, 3)).toBe(true);
    expect(refused({ type: "string" }, true)).toBe(true);
    expect(refused({ type: "string" }, null)).toBe(true);
  });

  test("int takes ints, integral floats, numeric strings and booleans", () => {
    expect(ok({ type: "integer" }, 3)).toBe(3);
    expect(ok({ type: "integer" }, 3.0)).toBe(3);
    expect(ok({ type: "integer" }, " 3 ")).toBe(3);
    expect(ok({ type: "integer" }, true)).toBe(1);
    expect(refused({ type: "integer" }, 3.5)).toBe(true);
    expect(refused({ type: "integer" }, "three")).toBe(true);
    expect(refused({ type: "integer" }, "")).toBe(true);
  });

  test("float takes numbers, numeric strings and booleans", () => {
    expect(ok({ type: "number" }, "1e3")).toBe(1000);
    expect(ok({ type: "number" }, "1_000.5")).toBe(1000.5);
    expect(ok({ type: "number" }, false)).toBe(0);
    expect(refused({ type: "number" }, "1,000")).toBe(true);
    expect(refused({ type: "number" }, "0x10")).toBe(true);
  });

  test("bool takes booleans, 0/1 and the yes/no words", () => {
    expect(ok({ type: "boolean" }, "YES")).toBe(true);
    expect(ok({ type: "boolean" }, "off")).toBe(false);
    expect(ok({ type: "boolean" }, 1)).toBe(true);
    expect(refused({ type: "boolean" }, 2)).toBe(true);
    expect(refused({ type: "boolean" }, "maybe")).toBe(true);
  });

  test("lists coerce each item; literals take their own values; optional takes null", () => {
    expect(ok({ type: "array", items: { type: "integer" } }, ["1", 2])).toEqual([1, 2]);
    expect(refused({ type: "array", items: { type: "string" } }, "a")).toBe(true);
    expect(ok({ enum: ["low", "high"], type: "string" }, "low")).toBe("low");
    expect(refused({ enum: ["low", "high"], type: "string" }, "LOW")).toBe(true);
    expect(ok({ anyOf: [{ type: "integer" }, { type: "null" }], default: null }, null)).toBeNull();
  });

  test("objects: required fields, defaults, extra keys kept, nested $refs", () => {
    const schema = {
      type: "object",
      additionalProperties: true,
      properties: {
        page: { anyOf: [{ type: "integer" }, { type: "null" }], default: null },
        citation: { $ref: "#/$defs/Citation" },
      },
      required: ["citation"],
    };
    const defs = {
      Citation: { type: "object", properties: { identifier: { type: "string" } }, required: ["identifier"] },
    };
    expect(coerceToSchema(schema, { citation: { identifier: "[1]" }, extra: 1 }, "", defs)).toEqual({
      ok: true,
      value: { page: null, citation: { identifier: "[1]" }, extra: 1 },
    });
    const missing = coerceToSchema(schema, { citation: { identifier: 3 } }, "", defs);
    expect(missing.ok).toBe(false);
    expect(!missing.ok && describeProblems(missing.problems)).toBe(
      "citation.identifier: Input should be a valid string, found the number 3",
    );
  });
});
