import { describe, expect, test } from "vitest";
import { sandboxForTheseTests } from "../test-support/python-sandbox-for-tests.js";
import { loadDeclarativeTemplate } from "./declarative/index.js";
import { answerClassSchema, judgeSchemaOf, pydanticTitle, relaxedSchemaOf } from "./judge-schema.js";
import { loadPythonTemplate } from "./python/index.js";

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

describe("the judge's schema as the original sends it (spec 02 §3.1)", () => {
  test("has no top-level description; field descriptions stay", () => {
    const judge = judgeSchemaOf({ ...answerClassSchema("Answer", []), description: "The class docstring" });
    expect(judge).not.toHaveProperty("description");
    expect(judgeSchemaOf(answerClassSchema("Answer", [{ ...CITES, description: "Cites" }]))).toMatchObject({
      properties: { cites: { description: "Cites" } },
    });
  });

  test("a required list emptied by the trace filter stays as required: []; none stays none", () => {
    expect(judgeSchemaOf(answerClassSchema("Answer", [CITES]), ["cites"]).required).toEqual([]);
    const optional = answerClassSchema("Answer", [{ ...CITES, required: false }]);
    expect(judgeSchemaOf(optional, ["cites"])).not.toHaveProperty("required");
  });
});

const CITES = { name: "cites", schema: { type: "boolean" }, required: true } as const;

describe("Python templates, run in Pyodide", () => {
  const sandbox = sandboxForTheseTests();

  // Templates written for this test from the original's docs.
  const CLASSIC = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer

class Answer(BaseAnswer):
    """Extracts the target. This docstring is not for the judge."""
    target: str = Field(description="The protein the drug acts on")

    def model_post_init(self, __context):
        self.correct = {"target": "BCL2"}

    def verify(self) -> bool:
        return self.target == self.correct["target"]
`;

  test("a classic template's docstring is not in the judge's schema", async () => {
    const template = await loadPythonTemplate(CLASSIC, { sandbox });
    expect(template.judgeSchema).not.toHaveProperty("description");
    expect(JSON.stringify(template.judgeSchema)).not.toContain("not for the judge");
    expect(template.judgeSchema.properties).toMatchObject({
      target: { description: "The protein the drug acts on", title: "Target", type: "string" },
    });
    expect(template.structuredOutputSchema).not.toHaveProperty("description");
  });

  const TRACE_REQUIRED = `from karenina.schemas.entities import BaseAnswer, ExactMatch, TraceContains, VerifiedField

class Answer(BaseAnswer):
    """Cites a trial; names a target if it can."""
    cites: bool = VerifiedField(description="Cites", ground_truth=True, verify_with=TraceContains(substring="trial"))
    target: str | None = VerifiedField(description="Target", ground_truth="BCL2", verify_with=ExactMatch(), default=None)
`;

  test("when the trace fields were the only required ones, the judge's schema says required: []", async () => {
    const python = await loadPythonTemplate(TRACE_REQUIRED, { sandbox });
    expect(python.judgeSchema.required).toEqual([]);
    expect(Object.keys(python.judgeSchema.properties as object)).toEqual(["id", "target"]);
    expect(python.judgeSchema).not.toHaveProperty("description");
  });

  test("the declarative fast path and the interpreter send the same schema for a trace-only template", async () => {
    const traceOnly = `from karenina.schemas.entities import BaseAnswer, TraceContains, VerifiedField

class Answer(BaseAnswer):
    """Cites a trial."""
    cites: bool = VerifiedField(description="Cites", ground_truth=True, verify_with=TraceContains(substring="trial"))
`;
    const python = await loadPythonTemplate(traceOnly, { sandbox });
    expect(python.judgeSchema).toEqual({
      additionalProperties: true,
      properties: { id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" } },
      required: [],
      title: "Answer",
      type: "object",
    });
    expect(loadDeclarativeTemplate(traceOnly).judgeSchema).toEqual(python.judgeSchema);
  });
});
