/**
 * The original's own templates (conformance fixtures and the templates inside its checkpoints), run for real in
 * Pyodide. Every parsed answer below is hand-written from reading the template, as a judge could return it; none
 * is real model output.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../../test-support/conformance.js";
import { TemplateError } from "../answer-template.js";
import { INHERITED_ID_PROPERTY } from "../judge-schema.js";
import { defaultPythonSandbox, type LoadPythonTemplateOptions, loadPythonTemplate } from "./index.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create();
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

const load = (code: string, options: LoadPythonTemplateOptions = {}) =>
  loadPythonTemplate(code, { sandbox, ...options });

const fixture = (name: string): string => readFileSync(conformancePath(`templates/${name}`), "utf8");

/** Template texts of a conformance checkpoint, by question id. */
function checkpointTemplates(name: string): Map<string, string> {
  const checkpoint = JSON.parse(readFileSync(conformancePath(`checkpoints/${name}`), "utf8")) as {
    dataFeedElement: { item: { "@id": string; hasPart?: { text?: string } } }[];
  };
  return new Map(
    checkpoint.dataFeedElement
      .filter((element) => element.item.hasPart?.text)
      .map((element) => [element.item["@id"], element.item.hasPart?.text ?? ""]),
  );
}

/** Keys of every schema object are sorted, except the field order under `properties`. */
function keysAreSorted(value: unknown, parent?: string): boolean {
  if (Array.isArray(value)) return value.every((item) => keysAreSorted(item));
  if (value === null || typeof value !== "object") return true;
  const keys = Object.keys(value);
  const sorted = parent === "properties" || [...keys].sort().join() === keys.join();
  return sorted && Object.entries(value).every(([key, child]) => keysAreSorted(child, key));
}

type Case = readonly [label: string, parsed: Record<string, unknown>, verify: boolean];

async function expectVerdicts(code: string, cases: readonly Case[], options?: LoadPythonTemplateOptions) {
  const template = await load(code, options);
  for (const [label, parsed, verify] of cases) {
    const evaluation = await template.evaluate(parsed);
    expect({ label, verify: evaluation.verify, error: evaluation.error }).toEqual({
      label,
      verify,
      error: null,
    });
  }
}

describe.skipIf(!hasConformance)(`conformance templates (${hasConformance ? "found" : SKIP_REASON})`, () => {
  test("simple_extraction.py: the judge schema is Pydantic's, without the class docstring (spec 02 §3.1)", async () => {
    const template = await load(fixture("simple_extraction.py"));
    expect(template.judgeSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
        value: { description: "The extracted answer value", title: "Value", type: "string" },
      },
      required: ["value"],
      title: "Answer",
      type: "object",
    });
    expect(template.structuredOutputSchema).toEqual({
      additionalProperties: true,
      properties: template.judgeSchema.properties,
      required: ["value"],
      title: "Answer__Relaxed",
      type: "object",
    });
    expect([template.className, template.mode, template.needsNoJudge]).toEqual(["Answer", "classic", false]);
    expect(template.groundTruth).toEqual({ value: "42" });
    expect(template.extractionHints).toEqual({});
  });

  test("simple_extraction.py: verdicts, with whitespace and type variants", async () => {
    await expectVerdicts(fixture("simple_extraction.py"), [
      // Hand-written parsed answers.
      ["exact", { value: "42" }, true],
      ["surrounding whitespace is stripped", { value: " 42\n" }, true],
      ["a float rendering is another string", { value: "42.0" }, false],
      ["words", { value: "forty-two" }, false],
    ]);
  });

  test("simple_extraction.py: a number, a null or a missing value is refused, naming the field", async () => {
    const template = await load(fixture("simple_extraction.py"));
    // Hand-written parsed answers that a str field refuses (Pydantic lax mode does not turn numbers into text).
    expect(await template.evaluate({ value: 42 })).toEqual({
      verify: false,
      fieldVerify: false,
      verifyGranular: null,
      fieldResults: {},
      regex: { success: true, results: {}, details: {} },
      error: "Parsed answer does not match the template: value: Input should be a valid string (got 42)",
    });
    expect((await template.evaluate({ value: null })).error).toBe(
      "Parsed answer does not match the template: value: Input should be a valid string (got None)",
    );
    expect((await template.evaluate({})).error).toBe(
      "Parsed answer does not match the template: value: Field required (got {})",
    );
  });

  test("ground_truth_style.py: ground_truth() sets the ground truth; case and whitespace variants", async () => {
    const code = fixture("ground_truth_style.py");
    expect((await load(code)).groundTruth).toEqual({ target: "BCL2" });
    await expectVerdicts(code, [
      // Hand-written parsed answers.
      ["upper case", { target: "BCL2" }, true],
      ["lower case with spaces", { target: "  bcl2 " }, true],
      ["hyphenated synonym", { target: "Bcl-2" }, false],
      ["another gene", { target: "MCL1" }, false],
    ]);
  });

  test("multi_field.py: the original rejects it, as its dummy instance gets '' for `Citation | None`", async () => {
    const error = await load(fixture("multi_field.py")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).message).toBe(
      [
        "Error testing ground_truth/model_post_init: 1 validation error for Answer",
        "citation",
        "  Input should be a valid dictionary or instance of Citation [type=model_type, input_value='', input_type=str]",
      ].join("\n"),
    );
  });

  test("multi_field.py: nested model → $defs and $ref, constraints, default_factory fields not required", async () => {
    const template = await load(fixture("multi_field.py"), { lenientDummyCheck: true });
    const optional = (type: string, description: string, title: string) => ({
      anyOf: [{ type }, { type: "null" }],
      default: null,
      description,
      title,
    });
    expect(template.judgeSchema).toEqual({
      $defs: {
        Citation: {
          additionalProperties: true,
          description: "Nested citation structure.",
          properties: {
            id: INHERITED_ID_PROPERTY,
            identifier: { description: "Citation identifier like [1]", title: "Identifier", type: "string" },
            page: optional("integer", "Page number", "Page"),
            url: optional("string", "Source URL", "Url"),
          },
          required: ["identifier"],
          title: "Citation",
          type: "object",
        },
      },
      additionalProperties: true,
      properties: {
        id: INHERITED_ID_PROPERTY,
        main_answer: { description: "The primary answer text", title: "Main Answer", type: "string" },
        confidence: {
          description: "Confidence score from 0.0 to 1.0",
          maximum: 1,
          minimum: 0,
          title: "Confidence",
          type: "number",
        },
        keywords: {
          description: "List of relevant keywords",
          items: { type: "string" },
          title: "Keywords",
          type: "array",
        },
        entities: {
          description: "Named entities mentioned",
          items: { type: "string" },
          title: "Entities",
          type: "array",
        },
        citation: {
          anyOf: [{ $ref: "#/$defs/Citation" }, { type: "null" }],
          default: null,
          description: "Primary citation source",
        },
        disclaimer: optional("string", "Any disclaimer or caveat", "Disclaimer"),
      },
      required: ["main_answer", "confidence"],
      title: "Answer",
      type: "object",
    });
    expect(Object.keys(template.judgeSchema.properties as object)).toEqual([
      "id",
      "main_answer",
      "confidence",
      "keywords",
      "entities",
      "citation",
      "disclaimer",
    ]);
    expect(template.groundTruth).toMatchObject({ confidence: 0.95, disclaimer: null });
  });

  test("multi_field.py: verdicts, with nested coercion and constraint checks", async () => {
    // Hand-written parsed answers.
    const right = {
      main_answer: "The mitochondria is the powerhouse of the cell",
      confidence: 0.95,
      keywords: ["organelle", "cell", "powerhouse", "mitochondria"],
      entities: ["mitochondria", "cell"],
      citation: { identifier: "[1]", page: 42, url: null },
      disclaimer: null,
    };
    await expectVerdicts(
      fixture("multi_field.py"),
      [
        ["right, keywords in another order", right, true],
        [
          "numbers as strings are coerced",
          { ...right, confidence: "0.95", citation: { identifier: "[1]", page: "42" } },
          true,
        ],
        ["keywords with a duplicate", { ...right, keywords: [...right.keywords, "cell"] }, true],
        ["other confidence", { ...right, confidence: 0.9 }, false],
        ["no citation", { ...right, citation: null }, false],
        ["other page", { ...right, citation: { identifier: "[1]", page: 41 } }, false],
        ["a disclaimer", { ...right, disclaimer: "none" }, false],
        ["main answer in lower case", { ...right, main_answer: right.main_answer.toLowerCase() }, false],
      ],
      { lenientDummyCheck: true },
    );
    const template = await load(fixture("multi_field.py"), { lenientDummyCheck: true });
    expect((await template.evaluate({ ...right, confidence: 1.5 })).error).toBe(
      "Parsed answer does not match the template: confidence: Input should be less than or equal to 1.0 (got 1.5)",
    );
    expect((await template.evaluate({ ...right, citation: { identifier: "[1]", page: 4.5 } })).error).toBe(
      "Parsed answer does not match the template: citation.page: Input should be a valid integer, got a number with a fractional part (got 4.5)",
    );
  });

  test("with_correct_dict.py: rejected by the original for its `int | None` and `list[str] | None` dummies", async () => {
    await expect(load(fixture("with_correct_dict.py"))).rejects.toThrow(
      /^Error testing ground_truth\/model_post_init: 2 validation errors for Answer\nsynonyms\n {2}Input should be a valid list/,
    );
  });

  test("with_correct_dict.py: verdicts, with optional fields and coercions", async () => {
    // Hand-written parsed answers.
    const right = {
      gene_name: "bcl2",
      chromosome: "18q21.33",
      function: "It is an apoptosis regulator that inhibits programmed cell death in B cells.",
    };
    await expectVerdicts(
      fixture("with_correct_dict.py"),
      [
        ["gene name in another case, function contained", right, true],
        ["chromosome in another case", { ...right, chromosome: "18Q21.33" }, false],
        ["function paraphrased", { ...right, function: "Blocks apoptosis" }, false],
        ["known synonyms in any case", { ...right, synonyms: ["bcl-2", "Bcl2"] }, true],
        ["an unknown synonym", { ...right, synonyms: ["BCL2", "B-cell lymphoma 2"] }, false],
        ['OMIM id as the string "151430"', { ...right, omim_id: "151430" }, true],
        ["other OMIM id", { ...right, omim_id: 151431 }, false],
        ["nulls for the optional fields", { ...right, synonyms: null, omim_id: null }, true],
      ],
      { lenientDummyCheck: true },
    );
  });
});

describe.skipIf(!hasConformance)(`checkpoint templates (${hasConformance ? "found" : SKIP_REASON})`, () => {
  const minimal = hasConformance ? checkpointTemplates("minimal.jsonld") : new Map<string, string>();
  const rubrics = hasConformance ? checkpointTemplates("with_rubrics.jsonld") : new Map<string, string>();

  test("every template loads, with a Pydantic-shaped schema", async () => {
    const all = [...minimal.values(), ...rubrics.values()];
    expect(all).toHaveLength(4);
    for (const code of all) {
      const template = await load(code);
      const properties = template.judgeSchema.properties as Record<string, unknown>;
      expect(Object.keys(properties)[0]).toBe("id");
      expect(properties.id).toEqual(INHERITED_ID_PROPERTY);
      expect(template.judgeSchema).toMatchObject({
        additionalProperties: true,
        title: "Answer",
        type: "object",
      });
      expect(keysAreSorted(template.judgeSchema)).toBe(true);
      expect(template.mode).toBe("classic");
    }
  });

  test("minimal.jsonld q001: the schema, and `int` coercions of 4", async () => {
    const code = minimal.get("urn:karenina:test:q001-question") ?? "";
    const template = await load(code);
    expect(template.judgeSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: INHERITED_ID_PROPERTY,
        result: { description: "The numerical result", title: "Result", type: "integer" },
      },
      required: ["result"],
      title: "Answer",
      type: "object",
    });
    expect(template.groundTruth).toEqual({ result: 4 });
    await expectVerdicts(code, [
      // Hand-written parsed answers.
      ["the integer", { result: 4 }, true],
      ['the string "4"', { result: "4" }, true],
      ["a float with zero fraction", { result: 4.0 }, true],
      ["another number", { result: 5 }, false],
      ["true is 1", { result: true }, false],
    ]);
    expect((await template.evaluate({ result: "four" })).error).toBe(
      "Parsed answer does not match the template: result: Input should be a valid integer, unable to parse string as an integer (got 'four')",
    );
  });

  test("with_rubrics.jsonld: each template's verdicts", async () => {
    // Hand-written parsed answers.
    await expectVerdicts(rubrics.get("urn:karenina:test:rq001-question") ?? "", [
      ["right", { gene_name: "bcl2", gene_function: "An anti-apoptotic regulator" }, true],
      ["hyphenated name", { gene_name: "BCL-2", gene_function: "anti-apoptotic" }, false],
      ["pro-apoptotic", { gene_name: "BCL2", gene_function: "pro-apoptotic" }, false],
    ]);
    await expectVerdicts(rubrics.get("urn:karenina:test:rq002-question") ?? "", [
      ["Celsius right", { celsius: 100, fahrenheit: 0 }, true],
      ["Fahrenheit right, as strings", { celsius: "99", fahrenheit: "212" }, true],
      ["both as floats with zero fraction", { celsius: 100.0, fahrenheit: 212.0 }, true],
      ["both wrong", { celsius: 99, fahrenheit: 211 }, false],
    ]);
    await expectVerdicts(rubrics.get("urn:karenina:test:rq003-question") ?? "", [
      ["padded upper case", { capital: "  PARIS " }, true],
      ["with the country", { capital: "Paris, France" }, false],
    ]);
  });
});

/** A template in the style of simple_extraction.py, for tests that need no conformance data. */
const SIMPLE = [
  "class Answer(BaseAnswer):",
  "    value: str = Field(description='The extracted answer value')",
  "    def model_post_init(self, __context):",
  "        self.correct = {'value': '42'}",
  "    def verify(self) -> bool:",
  "        return self.value.strip() == self.correct['value']",
].join("\n");

describe("original templates in general", () => {
  test("the default placeholder template loads and always fails", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      '    """Answer template for: What is 2+2?..."""',
      "",
      '    response: str = Field(description="The answer response")',
      "",
      "    def verify(self) -> bool:",
      "        # Default template: returns False to indicate custom verification needed",
      "        return False",
      "",
    ].join("\n");
    const template = await load(code);
    // The class docstring is not sent to the judge (spec 02 §3.1).
    expect(template.judgeSchema.description).toBeUndefined();
    expect(template.groundTruth).toBeNull();
    // Hand-written parsed answer.
    expect((await template.evaluate({ response: "4" })).verify).toBe(false);
  });

  test("the question id replaces the judge's `id`", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    value: str = Field(description='x')",
      "    def verify(self):",
      "        return self.id == 'q-7'",
    ].join("\n");
    const template = await load(code);
    // Hand-written parsed answers.
    expect((await template.evaluate({ value: "a", id: "judge-id" }, { questionId: "q-7" })).verify).toBe(
      true,
    );
    expect((await template.evaluate({ value: "a", id: "judge-id" })).verify).toBe(false);
  });

  test("extra keys from the judge are kept and do not shadow methods", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    value: str = Field(description='x')",
      "    def verify(self):",
      "        return self.value == 'a' and self.note == 'kept'",
    ].join("\n");
    // Hand-written parsed answer with keys the schema does not declare.
    const evaluation = await (await load(code)).evaluate({
      value: "a",
      note: "kept",
      verify: "not a method",
    });
    expect(evaluation).toMatchObject({ verify: true, error: null });
  });

  test("each evaluation gets a fresh instance: state set by verify() does not leak", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    value: int = Field(description='x')",
      "    def verify(self):",
      "        seen = getattr(self, 'seen', 0)",
      "        self.seen = seen + self.value",
      "        return self.seen == self.value",
    ].join("\n");
    const template = await load(code);
    // Hand-written parsed answers.
    const results = await Promise.all([1, 2, 3].map((value) => template.evaluate({ value })));
    expect(results.map((r) => r.verify)).toEqual([true, true, true]);
  });

  test("concurrent evaluations are batched and each gets its own verdict", async () => {
    const template = await load(SIMPLE);
    // Hand-written parsed answers: "0" to "49", of which only "42" is right.
    const evaluations = await Promise.all(
      Array.from({ length: 500 }, (_, i) => template.evaluate({ value: String(i % 50) })),
    );
    expect(evaluations.filter((e) => e.verify)).toHaveLength(10);
    expect(evaluations[42]?.verify).toBe(true);
  });

  test("without a sandbox option, templates use one default sandbox, created on first use", async () => {
    expect(defaultPythonSandbox()).toBe(defaultPythonSandbox());
    const template = await loadPythonTemplate(SIMPLE);
    // Hand-written parsed answer.
    expect((await template.evaluate({ value: "42" })).verify).toBe(true);
  });

  test("the TSDoc example holds", async () => {
    const code = [
      "class Answer(BaseAnswer):",
      "    city: str = Field(description='The capital named in the response')",
      "    def ground_truth(self):",
      "        self.correct = {'city': 'Paris'}",
      "    def verify(self):",
      "        return self.city.strip().lower() == self.correct['city'].lower()",
    ].join("\n");
    const template = await load(code);
    expect(template.groundTruth).toEqual({ city: "Paris" });
    // Hand-written parsed answer.
    expect((await template.evaluate({ city: " paris " })).verify).toBe(true);
  });
});
