import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { JavaScriptSandbox } from "../../sandbox/index.js";
import { TemplateError } from "../answer-template.js";
import { defineAnswerTemplate } from "./define-answer-template.js";
import { loadJavaScriptTemplate } from "./javascript-template.js";
import { templateToJavaScriptSource } from "./template-source.js";

let sandbox: JavaScriptSandbox;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create();
});
afterAll(() => sandbox.close());

const drugFields = z.object({
  target: z.string().describe("The protein the drug inhibits"),
  approval_year: z.int().optional().describe("Year of first approval"),
  indications: z.array(z.string()).meta({ description: "Diseases it is approved for" }),
});

const drugTemplate = {
  className: "VenetoclaxAnswer",
  fields: drugFields,
  groundTruth: { target: "BCL2", indications: ["cll", "aml"] },
  verify(answer: z.output<typeof drugFields>, correct: { target: string; indications: string[] }) {
    const found = answer.indications.map((name) => name.trim().toLowerCase());
    return (
      answer.target.trim().toUpperCase() === correct.target &&
      correct.indications.every((n) => found.includes(n))
    );
  },
  verifyGranular: (
    answer: z.output<typeof drugFields>,
    correct: { target: string; indications: string[] },
  ) => {
    const found = new Set(answer.indications.map((name) => name.toLowerCase()));
    return correct.indications.filter((name) => found.has(name)).length / correct.indications.length;
  },
  regex: { year: { pattern: "\\b(20\\d\\d)\\b", expected: "2016", match_type: "contains" as const } },
};

const answers = [
  [{ target: "bcl2", indications: ["CLL", "AML"] }, "Approved in 2016."],
  [{ target: "BCL2", indications: ["CLL"] }, "Approved in 2016."],
  [{ target: "BCL2", indications: ["cll", "aml"] }, "Approved recently."],
  [{ target: "MCL1", indications: [], approval_year: "2016" }, "2016"],
  [{ target: 7, indications: [] }, "2016"],
] as const;

describe("defineAnswerTemplate", () => {
  test("a defined template and its saved source loaded back give the same verdicts", async () => {
    const defined = await defineAnswerTemplate(drugTemplate, { sandbox });
    const reloaded = await loadJavaScriptTemplate(defined.source, { sandbox });
    expect(reloaded.judgeSchema).toEqual(defined.judgeSchema);
    expect(reloaded.groundTruth).toEqual(defined.groundTruth);
    const verdicts = [];
    for (const [parsed, rawResponse] of answers) {
      const before = await defined.evaluate(parsed, { rawResponse, questionId: "q1" });
      const after = await reloaded.evaluate(parsed, { rawResponse, questionId: "q1" });
      expect(after).toEqual(before);
      verdicts.push([before.verify, before.verifyGranular]);
    }
    expect(verdicts).toEqual([
      [true, 1],
      [false, 0.5],
      [false, 1],
      [false, 0],
      [false, null],
    ]);
  });

  test("the judge schema is Pydantic-shaped, with descriptions from .describe() and .meta()", async () => {
    const defined = await defineAnswerTemplate(drugTemplate, { sandbox });
    expect(defined.judgeSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
        target: { description: "The protein the drug inhibits", title: "Target", type: "string" },
        approval_year: {
          anyOf: [{ type: "integer" }, { type: "null" }],
          default: null,
          description: "Year of first approval",
          title: "Approval Year",
        },
        indications: {
          description: "Diseases it is approved for",
          items: { type: "string" },
          title: "Indications",
          type: "array",
        },
      },
      required: ["target", "indications"],
      title: "VenetoclaxAnswer",
      type: "object",
    });
  });

  test("the saved source is a readable script holding the data and the functions' own text", () => {
    const source = templateToJavaScriptSource(drugTemplate);
    expect(source).toMatch(/^\/\/ Karenina answer template \(JavaScript\)/);
    expect(source).toContain('className: "VenetoclaxAnswer",');
    expect(source).toContain(`"target": "BCL2"`);
    expect(source).toContain(`verify(answer, correct) {`);
    expect(source).toContain("verifyGranular: (answer, correct) => {");
  });

  test.each([
    ["an arrow function", (answer: { a: string }) => answer.a === "x"],
    ["a function expression", (answer: { a: string }) => answer.a === "x"],
    [
      "a method of another name",
      {
        check(answer: { a: string }) {
          return answer.a === "x";
        },
      }.check,
    ],
  ])("verify may be written as %s", async (_form, verify) => {
    const template = await defineAnswerTemplate({ fields: z.object({ a: z.string() }), verify }, { sandbox });
    expect((await template.evaluate({ a: "x" })).verify).toBe(true);
    expect((await template.evaluate({ a: "y" })).verify).toBe(false);
  });

  test("a verify that closes over an outer variable is refused at define time, naming the variable", async () => {
    const expected = "BCL2";
    const error = await defineAnswerTemplate(
      { fields: z.object({ target: z.string() }), verify: (answer) => answer.target === expected },
      { sandbox },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(
      /^verify uses "expected", which does not exist in the sandbox: .* Move "expected" into the function, or its value into groundTruth$/,
    );
  });

  test("a verify calling an outer helper is refused the same way", async () => {
    const normalise = (text: string) => text.trim().toUpperCase();
    await expect(
      defineAnswerTemplate(
        { fields: z.object({ target: z.string() }), verify: (answer) => normalise(answer.target) === "BCL2" },
        { sandbox },
      ),
    ).rejects.toThrow('verify uses "normalise"');
  });

  test("a bound function cannot be saved", () => {
    const bound = ((answer: { a: string }) => answer.a === "x").bind(null);
    expect(() => templateToJavaScriptSource({ fields: z.object({ a: z.string() }), verify: bound })).toThrow(
      "verify: its source text is not JavaScript (function () { [native code] }); a bound or built-in function cannot be saved, write the function out",
    );
  });

  test("ground truth must be JSON data", () => {
    expect(() =>
      templateToJavaScriptSource({
        fields: z.object({}),
        groundTruth: { approved: new Date(0) } as never,
      }),
    ).toThrow(
      "groundTruth.approved: expected JSON data (objects, arrays, strings, numbers, booleans, null), found an instance of Date",
    );
  });

  test("a field with no JSON Schema form is refused", () => {
    expect(() =>
      templateToJavaScriptSource({ fields: z.object({ approved: z.date() }), verify: () => true }),
    ).toThrow("fields cannot be sent to a judge as JSON Schema: Date cannot be represented in JSON Schema");
  });

  test("a field may not be called id or correct", async () => {
    await expect(
      defineAnswerTemplate({ fields: z.object({ id: z.string() }), verify: () => true }, { sandbox }),
    ).rejects.toThrow("fields: id is reserved");
  });

  test("a simple template verifies answers one after another (the rate is logged)", async () => {
    const template = await defineAnswerTemplate(
      {
        fields: z.object({ target: z.string() }),
        groundTruth: { target: "BCL2" },
        verify: (answer, correct) => answer.target.trim().toUpperCase() === correct.target,
      },
      { sandbox },
    );
    const started = performance.now();
    let evaluations = 0;
    while (performance.now() - started < 1000) {
      const right = evaluations % 2 === 0;
      const result = await template.evaluate({ target: right ? "bcl2" : "TP53" }, { rawResponse: "BCL2" });
      expect(result.verify).toBe(right);
      evaluations++;
    }
    const perSecond = Math.round(evaluations / ((performance.now() - started) / 1000));
    // Each is one round trip to the sandbox's worker thread; no threshold, as the machine may be busy.
    console.info(`JavaScript template: ${perSecond} verifications/s`);
  });
});
