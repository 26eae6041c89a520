import { describe, expect, test } from "vitest";
import { z } from "zod";
import { answerSchemaFromFields } from "./answer-schema.js";
import { zodFieldsSchema } from "./zod-fields.js";

/** The judge's property for one Zod field. */
function property(field: z.ZodType, optional = false): unknown {
  const fields = z.object({ value: optional ? field.optional() : field });
  const schema = answerSchemaFromFields("Answer", zodFieldsSchema(fields));
  return (schema.properties as Record<string, unknown>).value;
}

describe("the judge schema of a Zod field is what Pydantic gives the equivalent annotation", () => {
  test.each([
    ["str", z.string(), { title: "Value", type: "string" }],
    ["int", z.int(), { title: "Value", type: "integer" }],
    ["float", z.number(), { title: "Value", type: "number" }],
    ["bool", z.boolean(), { title: "Value", type: "boolean" }],
    ["list[str]", z.array(z.string()), { items: { type: "string" }, title: "Value", type: "array" }],
    [
      "dict[str, int]",
      z.record(z.string(), z.int()),
      { additionalProperties: { type: "integer" }, title: "Value", type: "object" },
    ],
    ['Literal["x", "y"]', z.enum(["x", "y"]), { enum: ["x", "y"], title: "Value", type: "string" }],
    ["Literal[3]", z.literal(3), { const: 3, title: "Value", type: "integer" }],
    ["Field(ge=0)", z.int().min(0), { minimum: 0, title: "Value", type: "integer" }],
    [
      "float | None (required)",
      z.number().nullable(),
      { anyOf: [{ type: "number" }, { type: "null" }], title: "Value" },
    ],
    ["bool = False", z.boolean().default(false), { default: false, title: "Value", type: "boolean" }],
  ])("%s", (_annotation, field, expected) => {
    expect(property(field)).toEqual(expected);
  });

  test("an optional field is Optional[T] = None, keeping its description outside the union", () => {
    expect(property(z.string().describe("If stated"), true)).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }],
      default: null,
      description: "If stated",
      title: "Value",
    });
  });

  test("an optional nullable field is not made nullable twice", () => {
    expect(property(z.number().nullable(), true)).toEqual({
      anyOf: [{ type: "number" }, { type: "null" }],
      default: null,
      title: "Value",
    });
  });

  test("a nested object stays inline, with Pydantic titles and optional fields made nullable", () => {
    expect(property(z.object({ page: z.int(), note: z.string().optional() }))).toEqual({
      properties: {
        page: { title: "Page", type: "integer" },
        note: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Note" },
      },
      required: ["page"],
      title: "Value",
      type: "object",
    });
  });

  test("a nested object with an id becomes a $defs entry titled by it, referenced by $ref", () => {
    const Citation = z.object({ doc_id: z.string() }).meta({ id: "KareninaTestCitation" });
    const schema = answerSchemaFromFields("Answer", zodFieldsSchema(z.object({ cites: z.array(Citation) })));
    expect(schema.$defs).toEqual({
      KareninaTestCitation: {
        properties: { doc_id: { title: "Doc Id", type: "string" } },
        required: ["doc_id"],
        title: "KareninaTestCitation",
        type: "object",
      },
    });
    expect((schema.properties as Record<string, unknown>).cites).toEqual({
      items: { $ref: "#/$defs/KareninaTestCitation" },
      title: "Cites",
      type: "array",
    });
    expect(Object.keys(schema)).toEqual([
      "$defs",
      "additionalProperties",
      "properties",
      "required",
      "title",
      "type",
    ]);
  });
});
