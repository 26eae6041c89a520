import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JavaScriptSandbox } from "../sandbox/index.js";
import { thrown } from "../test-support/thrown.js";
import { coerceToSchema } from "./coerce.js";
import { TemplateSpecError } from "./declarative/errors.js";
import { loadDeclarativeTemplate } from "./declarative/load-declarative-template.js";
import { loadJavaScriptTemplate } from "./javascript/javascript-template.js";

/**
 * Field names, ground-truth keys and parsed-answer keys come from templates and judges. A field named after an
 * Object.prototype member must be read from the answer itself (a judge that leaves it out left it out), and
 * `__proto__`, the one name that cannot be a key of a plain object, is refused as a field name.
 */
describe("declarative templates", () => {
  const constructorTemplate = () =>
    loadDeclarativeTemplate({
      fields: [
        {
          name: "constructor",
          type: "str",
          description: "Who built it",
          ground_truth: "Brunel",
          verify_with: { type: "ExactMatch" },
        },
      ],
    });

  test("a field named constructor is checked against its own ground truth", async () => {
    const template = constructorTemplate();
    expect(template.groundTruth).toEqual({ constructor: "Brunel" });
    const evaluation = await template.evaluate({ constructor: "brunel" });
    expect(evaluation.error).toBeNull();
    expect(evaluation.fieldResults).toEqual({ constructor: true });
    expect(evaluation.groundTruths).toEqual({ constructor: "Brunel" });
  });

  test("a parsed answer without `constructor` has the field missing, not Object's constructor", async () => {
    const evaluation = await constructorTemplate().evaluate({});
    expect(evaluation.error).toBeNull();
    expect(evaluation.fieldResults).toEqual({ constructor: null });
  });

  test("a field named __proto__ is refused with the field's name", () => {
    const field = {
      name: "__proto__",
      type: "str",
      description: "x",
      ground_truth: "a",
      verify_with: { type: "ExactMatch" },
    };
    const error = thrown(TemplateSpecError, () => loadDeclarativeTemplate({ fields: [field] }));
    expect(error.message).toMatch(/Field '__proto__': '__proto__' cannot be a field name/);
  });
});

describe("coercing a judge's answer to a template's schema", () => {
  const schema = {
    type: "object",
    properties: { constructor: { type: "string" }, toString: { type: "string", default: "d" } },
    required: ["constructor"],
    additionalProperties: true,
  };

  test("a required field named constructor that the judge left out is reported as required", () => {
    expect(coerceToSchema(schema, {})).toEqual({
      ok: false,
      problems: [{ path: "constructor", message: "Field required" }],
    });
  });

  test("fields named after Object.prototype members take the judge's values, or their defaults", () => {
    expect(coerceToSchema(schema, { constructor: "c" })).toEqual({
      ok: true,
      value: { constructor: "c", toString: "d" },
    });
  });

  test("an extra __proto__ key from the judge is kept as a key and does not become the prototype", () => {
    const result = coerceToSchema(
      schema,
      JSON.parse('{"constructor": "c", "__proto__": {"injected": true}}'),
    );
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { injected?: unknown }).injected).toBeUndefined();
    expect(Object.keys(value)).toEqual(["constructor", "toString", "__proto__"]);
  });

  test("a $ref to a definition named constructor that does not exist resolves to nothing", () => {
    expect(coerceToSchema({ $ref: "#/$defs/constructor" }, 3, "", {})).toEqual({ ok: true, value: 3 });
  });
});

describe("JavaScript templates", () => {
  let sandbox: JavaScriptSandbox;
  beforeAll(async () => {
    sandbox = await JavaScriptSandbox.create({ timeoutMs: 1000 });
  });
  afterAll(() => sandbox.close());

  const source = `({
    fields: { type: "object", properties: { constructor: { type: "string" } } },
    groundTruth: { constructor: "Brunel" },
    verify(answer, correct) {
      return Object.hasOwn(answer, "constructor") && answer.constructor === correct.constructor;
    },
  })`;

  test("ground truth and a parsed answer with a constructor key reach verify as data", async () => {
    const template = await loadJavaScriptTemplate(source, { sandbox });
    expect(template.groundTruth).toEqual({ constructor: "Brunel" });
    expect((await template.evaluate({ constructor: "Brunel" })).verify).toBe(true);
    expect((await template.evaluate({ constructor: "Stephenson" })).verify).toBe(false);
  });

  test("a parsed answer without constructor gives the field its default, not Object's constructor", async () => {
    const template = await loadJavaScriptTemplate(source, { sandbox });
    const evaluation = await template.evaluate({});
    expect(evaluation.error).toBeNull();
    expect(evaluation.verify).toBe(false);
  });

  test("a field named __proto__ is refused", async () => {
    const refused = loadJavaScriptTemplate(
      `({ fields: { type: "object", properties: { ["__proto__"]: { type: "string" } } }, verify: () => true })`,
      { sandbox },
    );
    await expect(refused).rejects.toThrow(/__proto__ is reserved/);
  });
});
