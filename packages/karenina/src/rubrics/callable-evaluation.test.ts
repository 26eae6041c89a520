import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CallableTrait, parseRubricTrait } from "../model/rubric/index.js";
import { JavaScriptSandbox, PythonSandbox } from "../sandbox/index.js";
import { decodeCallableCode, encodeJavaScriptCallable } from "./callable-code.js";
import { evaluateCallableTrait } from "./callable-evaluation.js";

const callable = (fields: Record<string, unknown>) =>
  parseRubricTrait({ name: "c", kind: "boolean", callable_code: "", ...fields }, "callable") as CallableTrait;
const python = (source: string) => Buffer.from(source, "utf8").toString("base64");

/** The two base64-Python callables of the conformance file `with_rubrics.jsonld`, verbatim. */
const CONTAINS_CITATIONS =
  "aW1wb3J0IHJlCmRlZiBldmFsdWF0ZSh0cmFjZTogc3RyKSAtPiBib29sOgogICAgcmV0dXJuIGJvb2wocmUuc2VhcmNoKHInXFtcZCtcXScsIHRyYWNlKSk=";
const RESPONSE_LENGTH =
  "ZGVmIGV2YWx1YXRlKHRyYWNlOiBzdHIpIC0+IGludDoKICAgIHdvcmRzID0gbGVuKHRyYWNlLnNwbGl0KCkpCiAgICBpZiB3b3JkcyA8IDIwOgogICAgICAgIHJldHVybiAxCiAgICBlbGlmIHdvcmRzIDwgNTA6CiAgICAgICAgcmV0dXJuIDIKICAgIGVsaWYgd29yZHMgPCAxMDA6CiAgICAgICAgcmV0dXJuIDMKICAgIGVsaWYgd29yZHMgPCAyMDA6CiAgICAgICAgcmV0dXJuIDQKICAgIGVsc2U6CiAgICAgICAgcmV0dXJuIDU=";

/** Python's `pickle.dumps(len, protocol=5)`, made with python3 for this test: pickle bytes as cloudpickle writes. */
const PICKLE = "gAWVFAAAAAAAAACMCGJ1aWx0aW5zlIwDbGVulJOULg==";

const pythonSandbox = PythonSandbox.create({ timeoutMs: 2000 });
const javascriptSandbox = await JavaScriptSandbox.create({ timeoutMs: 300 });
beforeAll(() => pythonSandbox.start(), 60_000);
afterAll(async () => {
  javascriptSandbox.close();
  await pythonSandbox.close();
});

// Every response text below is hand-written for these tests.
describe("callable_code forms", () => {
  test("are told apart by their decoded bytes", () => {
    expect(decodeCallableCode("").form).toBe("empty");
    expect(decodeCallableCode(PICKLE).form).toBe("cloudpickle");
    expect(decodeCallableCode(CONTAINS_CITATIONS)).toEqual({
      form: "python",
      source:
        "import re\ndef evaluate(trace: str) -> bool:\n    return bool(re.search(r'\\[\\d+\\]', trace))",
    });
    expect(decodeCallableCode(Buffer.from([0xff, 0xfe, 0x00]).toString("base64")).form).toBe("unreadable");
  });
});

describe("evaluateCallableTrait with Python source in the Pyodide sandbox", () => {
  test("the conformance ContainsCitations callable finds [n] citations", async () => {
    const trait = callable({ name: "ContainsCitations", callable_code: CONTAINS_CITATIONS });
    expect(await evaluateCallableTrait(trait, "BCL2 blocks apoptosis [1].", { pythonSandbox })).toEqual({
      value: true,
      error: null,
    });
    expect((await evaluateCallableTrait(trait, "No citations.", { pythonSandbox })).value).toBe(false);
  });

  test("the conformance ResponseLength callable scores by word count (20 words → 2)", async () => {
    const trait = callable({
      name: "ResponseLength",
      kind: "score",
      min_score: 1,
      max_score: 5,
      callable_code: RESPONSE_LENGTH,
    });
    expect((await evaluateCallableTrait(trait, "one two three", { pythonSandbox })).value).toBe(1);
    const twenty = Array.from({ length: 20 }, (_, i) => `w${i}`).join(" ");
    expect((await evaluateCallableTrait(trait, twenty, { pythonSandbox })).value).toBe(2);
  });

  test("the single top-level function is called when none is named evaluate; imported functions do not count", async () => {
    const source =
      "from re import search\n\ndef has_gene(text):\n    return search(r'BCL\\d', text) is not None\n";
    const trait = callable({ callable_code: python(source) });
    expect((await evaluateCallableTrait(trait, "BCL2", { pythonSandbox })).value).toBe(true);
  });

  test("code with several functions and no evaluate gets a clear error", async () => {
    const trait = callable({
      name: "two",
      callable_code: python("def a(t):\n    return True\ndef b(t):\n    return False\n"),
    });
    const outcome = await evaluateCallableTrait(trait, "x", { pythonSandbox });
    expect(outcome.value).toBeNull();
    expect(outcome.error).toContain(
      "define a function named 'evaluate' or exactly one function (found: a, b)",
    );
  });

  test("invert_result negates a boolean; a literal label becomes its class index", async () => {
    const inverted = callable({
      invert_result: true,
      callable_code: python("def evaluate(t):\n    return 'x' in t\n"),
    });
    expect((await evaluateCallableTrait(inverted, "x", { pythonSandbox })).value).toBe(false);
    const tone = callable({
      kind: "literal",
      classes: { formal: "Formal", casual: "Casual" },
      callable_code: python("def evaluate(t):\n    return 'casual' if '!' in t else 'formal'\n"),
    });
    expect((await evaluateCallableTrait(tone, "Hi!", { pythonSandbox })).value).toBe(1);
  });

  test("an exception in the function gives null with the Python error; the host carries on", async () => {
    const trait = callable({
      name: "boom",
      callable_code: python("def evaluate(t):\n    raise ValueError('bad input')\n"),
    });
    const outcome = await evaluateCallableTrait(trait, "x", { pythonSandbox });
    expect(outcome).toEqual({
      value: null,
      error: 'callable trait "boom": evaluation failed: ValueError: bad input',
    });
    expect(
      (await evaluateCallableTrait(callable({ callable_code: CONTAINS_CITATIONS }), "[2]", { pythonSandbox }))
        .value,
    ).toBe(true);
  });

  test("the sandbox time limit gives null with the limit named", async () => {
    const quick = PythonSandbox.create({ timeoutMs: 300 });
    try {
      const trait = callable({
        name: "loop",
        callable_code: python("def evaluate(t):\n    while True:\n        pass\n"),
      });
      const outcome = await evaluateCallableTrait(trait, "x", { pythonSandbox: quick });
      expect(outcome.value).toBeNull();
      expect(outcome.error).toContain("ran longer than its limit of 300 ms");
    } finally {
      await quick.close();
    }
  }, 60_000);

  test("Python source without a Python sandbox gives null with the reason", async () => {
    const outcome = await evaluateCallableTrait(callable({ callable_code: CONTAINS_CITATIONS }), "[1]", {});
    expect(outcome.error).toContain("the code is Python source, and no Python sandbox was given to run it");
  });
});

describe("evaluateCallableTrait with JavaScript source in QuickJS", () => {
  const javascript = (source: string, fields: Record<string, unknown> = {}) =>
    callable({ name: "js", callable_code: encodeJavaScriptCallable(source), ...fields });

  test("an arrow function or a function expression (trailing semicolon allowed) runs on the text", async () => {
    const arrow = javascript("(text) => /BCL-?2/.test(text)");
    expect(await evaluateCallableTrait(arrow, "Venetoclax binds BCL-2.", { javascriptSandbox })).toEqual({
      value: true,
      error: null,
    });
    const words = javascript("function (text) {\n  return text.split(/\\s+/).length;\n};", {
      kind: "score",
      min_score: 1,
      max_score: 100,
    });
    expect((await evaluateCallableTrait(words, "one two three", { javascriptSandbox })).value).toBe(3);
  });

  test("a throwing function, a time-out, a non-function and an async function give null with the reason", async () => {
    const outcome = (source: string) => evaluateCallableTrait(javascript(source), "x", { javascriptSandbox });
    expect((await outcome("(text) => { throw new RangeError('too short'); }")).error).toBe(
      'callable trait "js": evaluation failed: RangeError: too short',
    );
    expect((await outcome("(text) => { for (;;) {} }")).error).toContain(
      "ran longer than its limit of 300 ms",
    );
    expect((await outcome("42")).error).toContain("the stored JavaScript is not a function expression");
    expect((await outcome("async (text) => true")).error).toContain("returned a Promise");
    expect((await outcome("(text) => true")).value).toBe(true);
  });

  test("JavaScript source without a JavaScript sandbox gives null with the reason", async () => {
    expect((await evaluateCallableTrait(javascript("(t) => true"), "x", {})).error).toBe(
      'callable trait "js": field "callable_code": the code is JavaScript, and no JavaScript sandbox was given to run it',
    );
  });
});

describe("output checks per kind (spec 03 §4.2)", () => {
  const returning = (kind: string, value: string, extra: Record<string, unknown> = {}) =>
    callable({
      name: "out",
      kind,
      callable_code: python(`def evaluate(t):\n    return ${value}\n`),
      ...extra,
    });

  test("a boolean trait refuses a non-bool, naming the trait and the kind field", async () => {
    const outcome = await evaluateCallableTrait(returning("boolean", "1"), "x", { pythonSandbox });
    expect(outcome).toEqual({
      value: null,
      error:
        'callable trait "out": field "kind": kind "boolean" needs the function to return a bool, got the number 1',
    });
  });

  test("a score trait keeps floats and bools (Python ints), and refuses values outside [min, max]", async () => {
    const range = { min_score: 0, max_score: 10 };
    expect(
      (await evaluateCallableTrait(returning("score", "7.5", range), "x", { pythonSandbox })).value,
    ).toBe(7.5);
    expect(
      (await evaluateCallableTrait(returning("score", "True", range), "x", { pythonSandbox })).value,
    ).toBe(true);
    const above = await evaluateCallableTrait(returning("score", "11", range), "x", { pythonSandbox });
    expect(above.error).toBe('callable trait "out": field "max_score": score 11 is above the maximum of 10');
    const text = await evaluateCallableTrait(returning("score", "'high'", range), "x", { pythonSandbox });
    expect(text.error).toContain('field "kind": kind "score" needs the function to return a number');
  });

  test("a literal trait needs one of its labels exactly (case-sensitive)", async () => {
    const classes = { classes: { formal: "F", casual: "C" } };
    const outcome = await evaluateCallableTrait(returning("literal", "'Casual'", classes), "x", {
      pythonSandbox,
    });
    expect(outcome.error).toBe(
      'callable trait "out": field "classes": kind "literal" needs the function to return one of the class labels "formal", "casual", got a string "Casual"',
    );
  });

  test("a score trait with min ≥ max is an error at evaluation (our addition)", async () => {
    const outcome = await evaluateCallableTrait(
      returning("score", "3", { min_score: 5, max_score: 5 }),
      "x",
      {
        pythonSandbox,
      },
    );
    expect(outcome.error).toBe(
      'callable trait "out": field "min_score": min_score (5) must be lower than max_score (5)',
    );
  });
});

describe("the runtime registry and code that cannot run here", () => {
  test("a registered function wins over the stored code", async () => {
    const trait = callable({ name: "ContainsCitations", callable_code: CONTAINS_CITATIONS });
    const registry = new Map([["ContainsCitations", () => false]]);
    expect((await evaluateCallableTrait(trait, "[1]", { registry, pythonSandbox })).value).toBe(false);
  });

  test("registered functions may be async, and their exceptions give null", async () => {
    const trait = callable({ name: "r" });
    expect(
      (await evaluateCallableTrait(trait, "x", { registry: new Map([["r", async () => true]]) })).value,
    ).toBe(true);
    const failing = new Map([
      [
        "r",
        () => {
          throw new RangeError("nope");
        },
      ],
    ]);
    expect(await evaluateCallableTrait(trait, "x", { registry: failing })).toEqual({
      value: null,
      error: 'callable trait "r": evaluation failed: nope',
    });
  });

  test("cloudpickle bytes are kept untouched and evaluate to null with the reason", async () => {
    const trait = callable({ name: "pickled", callable_code: PICKLE });
    expect(await evaluateCallableTrait(trait, "x", { pythonSandbox })).toEqual({
      value: null,
      error:
        'callable trait "pickled": field "callable_code": serialized Python function (cloudpickle) cannot run here; register a function for trait \'pickled\'',
    });
    expect(trait.callable_code).toBe(PICKLE);
  });

  test("empty code evaluates to null with the reason", async () => {
    const outcome = await evaluateCallableTrait(callable({ name: "none" }), "x", { pythonSandbox });
    expect(outcome.error).toBe(
      'callable trait "none": field "callable_code": no code is stored; register a function for trait \'none\'',
    );
  });
});
