import { describe, expect, test } from "vitest";
import { answerClassSchema, judgeSchemaOf, pydanticTitle, relaxedSchemaOf } from "./judge-schema.js";

test.each([
  ["gene_symbol", "Gene Symbol"],
  ["geneID", "Geneid"],
  ["x2y_z", "X2Y Z"],
  ["target", "Target"],
  ["_private", " Private"],
])("Pydantic titles %j as %j", (name, title) => {
  expect(pydanticTitle(name)).toBe(title);
});

describe("answer class schemas", () => {
  const schema = answerClassSchema("Answer", [
    {
      name: "target",
      schema: { type: "string", __verification__: { ground_truth: "BCL2" } },
      description: "The target",
      required: true,
    },
    { name: "cites", schema: { type: "boolean" }, description: "Cites a reference", required: true },
    {
      name: "notes",
      schema: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
      required: false,
    },
  ]);

  test("have Pydantic's shape: id first, sorted keys, additionalProperties, required", () => {
    expect(JSON.stringify(schema)).toBe(
      JSON.stringify({
        additionalProperties: true,
        properties: {
          id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
          target: {
            __verification__: { ground_truth: "BCL2" },
            description: "The target",
            title: "Target",
            type: "string",
          },
          cites: { description: "Cites a reference", title: "Cites", type: "boolean" },
          notes: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Notes" },
        },
        required: ["target", "cites"],
        title: "Answer",
        type: "object",
      }),
    );
  });

  test("the judge's copy has no ground truth and no trace fields", () => {
    const judge = judgeSchemaOf(schema, ["cites"]);
    expect(JSON.stringify(judge)).not.toContain("BCL2");
    expect(Object.keys(judge.properties as object)).toEqual(["id", "target", "notes"]);
    expect(judge.required).toEqual(["target"]);
  });

  test("the relaxed sibling makes verified fields nullable and optional, without descriptions", () => {
    const relaxed = relaxedSchemaOf(schema, ["target"]);
    expect(relaxed.title).toBe("Answer__Relaxed");
    expect((relaxed.properties as Record<string, unknown>).target).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }],
      default: null,
      title: "Target",
    });
    expect(relaxed.required).toEqual(["cites"]);
    expect(JSON.stringify(relaxed)).not.toContain("__verification__");
  });
});
