/**
 * `trait.llm.template(...)`: a template-kind (structured) LLM trait, spec 03 §2.5. The schema is compared with
 * the one Pydantic's `model_json_schema()` writes for the equivalent class (written out by hand below).
 */
import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { RubricError } from "../model/rubric/index.js";
import { trait } from "./authoring.js";
import { templateFields } from "./template-requests.js";

/*
class ToneProfile(BaseModel):
    formality: int = Field(description="1 (casual) to 5 (formal)")
    hedges: list[str]
    note: Optional[str] = None
*/
const PYDANTIC_SCHEMA = {
  properties: {
    formality: { description: "1 (casual) to 5 (formal)", title: "Formality", type: "integer" },
    hedges: { items: { type: "string" }, title: "Hedges", type: "array" },
    note: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Note" },
  },
  required: ["formality", "hedges"],
  title: "ToneProfile",
  type: "object",
};

const tone = () =>
  trait.llm.template({
    name: "tone_profile",
    description: "Describe the tone of the response",
    fields: {
      formality: { type: "int", description: "1 (casual) to 5 (formal)" },
      hedges: { type: "list[str]" },
      note: { type: "str", optional: true, default: null },
    },
  });

describe("trait.llm.template", () => {
  test("stores the class as Pydantic's JSON Schema, keys in Pydantic's order, higher_is_better null", () => {
    const built = tone();
    expect(built.kind).toEqual({ type: "template", schema: PYDANTIC_SCHEMA });
    expect(JSON.stringify(built.kind)).toBe(JSON.stringify({ type: "template", schema: PYDANTIC_SCHEMA }));
    expect(built.higher_is_better).toBeNull();
    expect(built.deep_judgment_enabled).toBe(false);
  });

  test("the judge's fields read back as the original rebuilds the class", () => {
    const kind = tone().kind;
    if (typeof kind !== "object" || kind === null) throw new Error("expected a template kind");
    expect(templateFields(kind).map((f) => [f.name, f.type, f.nullable, f.required])).toEqual([
      ["formality", "integer", false, true],
      ["hedges", "array", false, true],
      ["note", "string", true, false],
    ]);
  });

  test("survives a checkpoint round trip as a global and a question trait", () => {
    const bench = Benchmark.create({ name: "tone" });
    const id = bench.addQuestion("Q?", "A");
    bench.setGlobalRubric([tone()]);
    bench.addQuestionRubricTrait(
      id,
      trait.llm.template({ name: "facts", className: "Facts", fields: { n: { type: "float" } } }),
    );
    const reloaded = Benchmark.parse(bench.serialize());
    expect(reloaded.getGlobalRubric()?.llm_traits).toEqual([tone()]);
    expect(reloaded.getQuestionRubric(id)?.llm_traits[0]?.kind).toEqual({
      type: "template",
      schema: {
        properties: { n: { title: "N", type: "number" } },
        required: ["n"],
        title: "Facts",
        type: "object",
      },
    });
  });

  test.each([
    [
      "an optional field without a default",
      { x: { type: "str", optional: true } },
      "Optional fields must have an explicit default value",
    ],
    ["a type outside the allowed ones", { x: { type: "dict" } }, "not allowed in template kind"],
    ["a default of the wrong type", { x: { type: "int", default: "1" } }, "is not a int"],
    ["a null default on a required type", { x: { type: "int", default: null } }, "is not a int"],
    ["a dotted field name", { "a.b": { type: "int" } }, "must be a Python identifier"],
    ["no fields", {}, "at least one field"],
  ])("refuses %s", (_, fields, message) => {
    const build = () => trait.llm.template({ name: "t", fields: fields as never });
    expect(build).toThrow(RubricError);
    expect(build).toThrow(message);
  });
});
