import { describe, expect, test } from "vitest";
import { z } from "zod";
import { billionLaughsSchema, nestedSchema } from "../../test-support/hostile-schemas.js";
import { TemplateError } from "../answer-template.js";
import { answerSchemaFromFields } from "./answer-schema.js";
import { dummyAnswer } from "./dummy-answer.js";
import { assertFieldsSchemaWithinLimits } from "./fields-schema-limits.js";
import { zodFieldsSchema } from "./zod-fields.js";

function refusal(fields: unknown): string {
  try {
    answerSchemaFromFields("Answer", fields);
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateError);
    return (error as Error).message;
  }
  return expect.fail("expected the fields schema to be refused");
}

describe("a fields schema whose expansion would not stay small is refused before anything walks it", () => {
  test("a billion laughs of $defs (30 levels, 2^30 leaves) is refused after 10,000 nodes, naming the $refs", () => {
    const before = process.memoryUsage().heapUsed;
    const message = refusal(billionLaughsSchema(30));
    expect(message).toMatch(
      /^fields\.properties\.x\.properties\..+: the fields schema expands to more than 10000 nodes through \$ref \(#\/\$defs\/L30 → #\/\$defs\/L29 → #\/\$defs\/L28 → …\(\d+ more\)( → #\/\$defs\/L\d+){3}\): refused$/,
    );
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
  });

  test("the laughs are refused even where no field refers to them", () => {
    const { $defs } = billionLaughsSchema(30);
    expect(refusal({ type: "object", properties: {}, $defs })).toMatch(
      /^fields\.\$defs\.L\d+\..+: the fields schema expands to more than 10000 nodes through \$ref \(#\/\$defs\/L\d+ → .+\): refused$/,
    );
  });

  test("a $ref leading back to its own definition is refused as recursive", () => {
    const fields = {
      type: "object",
      properties: { head: { $ref: "#/$defs/Node" } },
      $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } },
    };
    expect(refusal(fields)).toBe(
      "fields.properties.head.properties.next: the fields schema refers to itself through $ref (#/$defs/Node → #/$defs/Node); a recursive schema cannot be expanded for the judge: refused",
    );
  });

  test("a cycle through several definitions names each of them", () => {
    const fields = {
      properties: { a: { $ref: "#/$defs/A" } },
      $defs: { A: { items: { $ref: "#/$defs/B" } }, B: { anyOf: [{ $ref: "#/$defs/A" }] } },
    };
    expect(refusal(fields)).toContain("through $ref (#/$defs/A → #/$defs/B → #/$defs/A)");
  });

  test("10,000 levels of nested properties are refused at 64, with the path shortened", () => {
    expect(refusal(nestedSchema(10_000))).toBe(
      "fields.properties.a.properties.a.properties…(53 more)….properties.a.properties.a.properties.a: the fields schema nests deeper than 64 levels: refused",
    );
  });

  test("10,000 nodes in plain sight are refused too", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`f${i}`, { type: "string" }]),
    );
    expect(refusal({ properties })).toMatch(
      /^fields\.properties\.f\d+(\.type)?: the fields schema has more than 10000 nodes: refused$/,
    );
  });

  test("a type list, which the judge schema spells as one copy of the constraints per type, counts each copy", () => {
    const constraints = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-note-${i}`, i]));
    const types = ["string", "number", "integer", "boolean", "object", "array"];
    const fields = {
      properties: Object.fromEntries(
        Array.from({ length: 10 }, (_, i) => [`f${i}`, { type: types, ...constraints }]),
      ),
    };
    expect(refusal(fields)).toContain("the fields schema has more than 10000 nodes: refused");
    // One field of the same shape is well within the limit.
    expect(() =>
      assertFieldsSchemaWithinLimits({ properties: { f: { type: types, ...constraints } } }),
    ).not.toThrow();
  });
});

describe("ordinary schemas pass", () => {
  test("a Zod schema with a definition used by several fields builds its judge schema and dummy answer", () => {
    const Citation = z
      .object({ doc_id: z.string(), page: z.int().optional() })
      .meta({ id: "LimitsCitation" });
    const fields = zodFieldsSchema(
      z.object({ main: Citation, others: z.array(Citation), backup: Citation.nullable(), note: z.string() }),
    );
    const schema = answerSchemaFromFields("Answer", fields);
    expect(dummyAnswer(schema)).toEqual({
      id: null,
      main: { doc_id: "", page: 0 },
      others: [],
      backup: { doc_id: "", page: 0 },
      note: "",
    });
  });

  test("nesting of 20 levels and a few thousand nodes are fine", () => {
    expect(() => assertFieldsSchemaWithinLimits(nestedSchema(20))).not.toThrow();
    const properties = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`f${i}`, { type: "string" }]),
    );
    expect(() => assertFieldsSchemaWithinLimits({ type: "object", properties })).not.toThrow();
  });

  test("a $ref to something other than a definition is left as it is", () => {
    expect(() =>
      assertFieldsSchemaWithinLimits({
        properties: { a: { $ref: "#/properties/a" }, b: { $ref: "#/$defs/missing" } },
      }),
    ).not.toThrow();
  });
});
