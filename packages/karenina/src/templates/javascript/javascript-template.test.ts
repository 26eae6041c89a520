import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JavaScriptSandbox } from "../../sandbox/index.js";
import { TemplateError } from "../answer-template.js";
import {
  isTypeScriptTemplate,
  type JavaScriptTemplate,
  loadJavaScriptTemplate,
} from "./javascript-template.js";

let sandbox: JavaScriptSandbox;
beforeAll(async () => {
  sandbox = await JavaScriptSandbox.create({ timeoutMs: 300 });
});
afterAll(() => sandbox.close());

const load = (source: string): Promise<JavaScriptTemplate> => loadJavaScriptTemplate(source, { sandbox });

async function loadError(source: string): Promise<string> {
  const error = await load(source).then(
    () => expect.fail("expected the template to be refused"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return (error as Error).message;
}

const TARGET = `({
  className: "TargetAnswer",
  fields: {
    type: "object",
    properties: {
      target: { type: "string", description: "The protein target" },
      confidence: { type: "number" },
    },
    required: ["target"],
  },
  groundTruth: { target: "BCL2" },
  verify(answer, correct) {
    return answer.target.trim().toUpperCase() === correct.target;
  },
  verifyGranular(answer) {
    return answer.confidence ?? 0;
  },
  regex: { cites: { pattern: "\\\\[(\\\\d+)\\\\]", expected: "1", match_type: "contains" } },
})`;

describe("loading a JavaScript template", () => {
  test("the schemas, ground truth and flags come from the source", async () => {
    const template = await load(TARGET);
    expect(template.runtime).toBe("javascript");
    expect(template.className).toBe("TargetAnswer");
    expect(template.mode).toBe("classic");
    expect(template.groundTruth).toEqual({ target: "BCL2" });
    expect(template.needsNoJudge).toBe(false);
    expect(template.source).toBe(TARGET);
    expect(isTypeScriptTemplate(template)).toBe(true);
    expect(template.judgeSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
        target: { description: "The protein target", title: "Target", type: "string" },
        confidence: { anyOf: [{ type: "number" }, { type: "null" }], default: null, title: "Confidence" },
      },
      required: ["target"],
      title: "TargetAnswer",
      type: "object",
    });
    expect(template.structuredOutputSchema).toEqual({
      ...template.judgeSchema,
      title: "TargetAnswer__Relaxed",
    });
  });

  test.each([
    ["42", "a JavaScript template must evaluate to an object such as"],
    [
      "({ verify(a) { return a. } })",
      "the template is not valid JavaScript: SyntaxError: expecting field name at line 1, column 26",
    ],
    ["(() => { throw new Error('boom'); })()", "evaluating the template failed: Error: boom"],
    ["({ className: 3 })", "className: expected a string, found a number"],
    [
      "({ className: 'My Answer' })",
      'className: expected a class name (letters, digits and _, not starting with a digit), found "My Answer"',
    ],
    ["({ fields: [] })", "fields: expected a JSON Schema object, found an array"],
    [
      "({ fields: { properties: { a: { type: 'string' } } } })",
      "the template has fields but no verify(answer, correct) function",
    ],
    ["({ verify: true })", "verify: expected a function, found a boolean"],
    ["({ verifyGranular: 0.5 })", "verifyGranular: expected a function, found a number"],
    ["({ groundTruth: 'BCL2' })", "groundTruth: expected an object, found a string"],
    [
      "({ regex: { cites: '\\\\d' } })",
      "regex.cites: expected { pattern, expected, match_type }, found a string",
    ],
    ["({ regex: { cites: { pattern: 1 } } })", "regex.cites.pattern: expected a string, found a number"],
    [
      "({ fields: { properties: { correct: { type: 'string' } } }, verify: () => true })",
      "fields: correct is reserved",
    ],
    [
      "({ fields: { properties: { n: 3 } }, verify: () => true })",
      "fields.properties.n: expected a JSON Schema object, found the number 3",
    ],
  ])("%s is refused with an actionable message", async (source, message) => {
    expect(await loadError(source)).toContain(message);
  });

  test("a template without fields is regex-only: it needs no judge and no verify", async () => {
    const template = await load(
      `({ regex: { year: { pattern: "\\\\b(19|20)\\\\d\\\\d\\\\b", expected: 1, match_type: "count" } } })`,
    );
    expect(template.needsNoJudge).toBe(true);
    expect(template.className).toBe("Answer");
    const passed = await template.evaluate({}, { rawResponse: "Approved in 2016." });
    expect([passed.verify, passed.fieldVerify, passed.regex.results]).toEqual([true, true, { year: true }]);
    expect((await template.evaluate({}, { rawResponse: "Approved long ago." })).verify).toBe(false);
  });

  test("a function using a name the sandbox lacks is refused at load, naming it", async () => {
    expect(
      await loadError(
        "({ fields: { properties: { a: { type: 'string' } } }, verify: (a) => a.a === EXPECTED })",
      ),
    ).toBe(
      'verify uses "EXPECTED", which does not exist in the sandbox: template functions run in a sandbox and see only their arguments, their own variables and the language\'s built-ins: no outer variables, imports, console or Node globals. Move "EXPECTED" into the function, or its value into groundTruth',
    );
    expect(await loadError("({ verifyGranular: () => helper() })")).toContain('verifyGranular uses "helper"');
  });

  test("an async function is refused at load", async () => {
    expect(await loadError("({ verify: async () => true })")).toBe(
      "verify returned a Promise: template functions must be synchronous (no async)",
    );
  });
});

describe("evaluating a JavaScript template", () => {
  let template: JavaScriptTemplate;
  beforeAll(async () => {
    template = await load(TARGET);
  });

  test("verify is the field verdict AND the regex checks, with the granular score beside it", async () => {
    const right = await template.evaluate({ target: " bcl2", confidence: 0.75 }, { rawResponse: "BCL2 [1]" });
    expect(right).toMatchObject({ verify: true, fieldVerify: true, verifyGranular: 0.75, error: null });
    expect(right.regex.results).toEqual({ cites: true });
    const uncited = await template.evaluate({ target: "BCL2" }, { rawResponse: "BCL2" });
    expect(uncited).toMatchObject({ verify: false, fieldVerify: true, verifyGranular: 0, error: null });
    const wrong = await template.evaluate({ target: "TP53" }, { rawResponse: "[1]" });
    expect(wrong).toMatchObject({ verify: false, fieldVerify: false });
  });

  test("the judge's values are coerced with Pydantic's lax rules before verify sees them", async () => {
    const result = await template.evaluate({ target: "BCL2", confidence: "0.5" }, { rawResponse: "[1]" });
    expect(result.verifyGranular).toBe(0.5);
  });

  test("a value that does not fit a field fails the evaluation, naming the field", async () => {
    const result = await template.evaluate({ target: 42 }, { rawResponse: "[1]" });
    expect(result).toMatchObject({ verify: false, fieldVerify: false, verifyGranular: null });
    expect(result.error).toBe(
      "the parsed answer does not fit TargetAnswer: target: Input should be a valid string, found the number 42",
    );
  });

  test("the question id reaches verify as answer.id", async () => {
    const echo = await load(`({
      fields: { properties: { x: { type: "string" } }, required: ["x"] },
      verify: (answer) => answer.id === "q-7" && answer.extra === 1,
    })`);
    expect((await echo.evaluate({ x: "", extra: 1 }, { questionId: "q-7" })).fieldVerify).toBe(true);
    expect((await echo.evaluate({ x: "", extra: 1 })).fieldVerify).toBe(false);
  });

  test("verify throwing fails the evaluation with the JavaScript error, and skips the granular score", async () => {
    const throwing = await load(`({
      fields: { properties: { items: { type: "array" } } },
      verify: (answer) => answer.items.length > 0,
      verifyGranular: () => 1,
    })`);
    expect(await throwing.evaluate({ items: null })).toEqual({
      verify: false,
      fieldVerify: false,
      verifyGranular: null,
      fieldResults: {},
      regex: { success: true, results: {}, details: {} },
      error: "Field verification failed: TypeError: cannot read property 'length' of null",
    });
  });

  test.each([
    ["1", "it returned a number"],
    ["'yes'", "it returned a string"],
    ["undefined", "it returned nothing"],
    ["null", "it returned null"],
  ])("verify returning %s is an error naming the type", async (value, found) => {
    const loose = await load(
      `({ fields: { properties: { a: { type: "string" } } }, verify: () => ${value} })`,
    );
    const result = await loose.evaluate({ a: "x" });
    expect(result.verify).toBe(false);
    expect(result.error).toBe(`Field verification failed: verify must return true or false, ${found}`);
  });

  test.each([
    ["1.5", "verifyGranular must return a number in [0, 1], it returned 1.5"],
    ["-0.1", "verifyGranular must return a number in [0, 1], it returned -0.1"],
    ["NaN", "verifyGranular must return a number in [0, 1], it returned a number that is not finite"],
    ["'0.5'", "verifyGranular must return a number in [0, 1], it returned a string"],
    ["(() => { throw new RangeError('no score'); })()", "verifyGranular failed: RangeError: no score"],
  ])(
    "a granular score of %s is reported as an error, not clamped; verify keeps its verdict",
    async (value, error) => {
      const scored = await load(`({ verify: () => true, verifyGranular: () => ${value} })`);
      expect(await scored.evaluate({})).toMatchObject({
        verify: true,
        fieldVerify: true,
        verifyGranular: null,
        error,
      });
    },
  );
});
