import { afterAll, describe, expect, test } from "vitest";
import { RubricError, rubricFromTraits } from "../model/rubric/index.js";
import { JavaScriptSandbox } from "../sandbox/index.js";
import { thrown } from "../test-support/thrown.js";
import { trait } from "./authoring.js";
import { decodeCallableCode } from "./callable-code.js";

const sandbox = await JavaScriptSandbox.create();

async function refusal(building: Promise<unknown>): Promise<RubricError> {
  try {
    await building;
  } catch (error) {
    if (error instanceof RubricError) return error;
    throw error;
  }
  throw new Error("expected the trait to be refused with a RubricError");
}
afterAll(() => sandbox.close());

describe("the trait namespace builds validated traits", () => {
  test("LLM traits: camelCase options become the model's fields, defaults as in the original", () => {
    const clarity = trait.llm.score({
      name: "clarity",
      description: "Clear and well organised",
      minScore: 1,
      maxScore: 10,
      includeGroundTruth: true,
      deepJudgment: { enabled: true, maxExcerpts: 4 },
    });
    expect(clarity).toMatchObject({
      type: "llm",
      kind: "score",
      min_score: 1,
      max_score: 10,
      include_ground_truth: true,
      deep_judgment_enabled: true,
      deep_judgment_max_excerpts: 4,
      deep_judgment_excerpt_enabled: true,
      higher_is_better: true,
    });
    expect(trait.llm.boolean({ name: "cites" })).toMatchObject({
      kind: "boolean",
      min_score: 1,
      max_score: 5,
    });
    expect(trait.llm.literal({ name: "tone", classes: { formal: "F", casual: "C" } })).toMatchObject({
      min_score: 0,
      max_score: 1,
    });
  });

  test("regex, metric and agentic traits", () => {
    expect(
      trait.regex({ name: "cites", pattern: String.raw`\[\d+\]`, caseSensitive: false, invertResult: true }),
    ).toMatchObject({
      type: "regex",
      case_sensitive: false,
      invert_result: true,
    });
    expect(
      trait.metric({
        name: "coverage",
        metrics: ["f1"],
        tpInstructions: ["COX-1"],
        tnInstructions: ["x"],
        evaluationMode: "full_matrix",
      }),
    ).toMatchObject({
      type: "metric",
      tn_instructions: ["x"],
      evaluation_mode: "full_matrix",
      higher_is_better: null,
    });
    expect(
      trait.agentic({
        name: "tests_pass",
        description: "Do the tests pass?",
        kind: "score",
        minScore: 0,
        maxScore: 3,
        maxTurns: 5,
      }),
    ).toMatchObject({
      type: "agentic",
      kind: "score",
      min_score: 0,
      max_score: 3,
      max_turns: 5,
      higher_is_better: true,
    });
  });

  test("callable traits store the function as marked JavaScript source, after a test run in QuickJS", async () => {
    const short = await trait.callable({
      name: "short",
      kind: "boolean",
      fn: (text) => text.length < 200,
      sandbox,
    });
    expect(decodeCallableCode(short.callable_code)).toEqual({
      form: "javascript",
      source: "(text) => text.length < 200",
    });
    const length = await trait.callable({
      name: "len",
      kind: "score",
      minScore: 0,
      maxScore: 100,
      fn: (t) => t.length,
    });
    expect(length).toMatchObject({ min_score: 0, max_score: 100 });
    const tone = await trait.callable({
      name: "tone",
      kind: "literal",
      classes: { calm: "No exclamation marks", excited: "Exclamation marks" },
      // biome-ignore lint/complexity/useArrowFunction: a `function` expression is what this checks
      fn: function (text) {
        return text.includes("!") ? "excited" : "calm";
      },
      sandbox,
    });
    expect(tone).toMatchObject({ min_score: 0, max_score: 1 });
  });
});

describe("bad input is refused with a RubricError naming the trait and the field", () => {
  test("a score range with min ≥ max (our addition)", async () => {
    const error = thrown(RubricError, () => trait.llm.score({ name: "depth", minScore: 5, maxScore: 5 }));
    expect(error.message).toBe(
      'llm trait "depth": field "min_score": min_score (5) must be lower than max_score (5)',
    );
    const callable = trait.callable({
      name: "n",
      kind: "score",
      minScore: 3,
      maxScore: 1,
      fn: (t) => t.length,
      sandbox,
    });
    expect((await refusal(callable)).message).toBe(
      'callable trait "n": field "min_score": min_score (3) must be lower than max_score (1)',
    );
    expect(
      thrown(RubricError, () =>
        trait.agentic({ name: "a", description: "d", kind: "score", minScore: 9, maxScore: 2 }),
      ).field,
    ).toBe("min_score");
  });

  test("a literal trait with fewer than 2 classes, of any kind", async () => {
    expect(
      thrown(RubricError, () => trait.llm.literal({ name: "tone", classes: { only: "One" } })).message,
    ).toBe('llm trait "tone": field "classes": Literal trait must have at least 2 classes');
    const callable = trait.callable({ name: "c", kind: "literal", classes: {}, fn: (t) => t, sandbox });
    expect((await refusal(callable)).field).toBe("classes");
    expect(
      thrown(RubricError, () =>
        trait.agentic({ name: "a", description: "d", kind: "literal", classes: { one: "1" } }),
      ).message,
    ).toBe('agentic trait "a": field "classes": Literal trait must have at least 2 classes');
  });

  test("an invalid regex", () => {
    expect(thrown(RubricError, () => trait.regex({ name: "bad", pattern: "(" })).message).toMatch(
      /^regex trait "bad": field "pattern": Invalid regex pattern: /,
    );
  });

  test("a callable that is not a one-parameter function expression", async () => {
    const twoParameters = ((a: string, b: string) => a === b) as (text: string) => boolean;
    expect(
      (await refusal(trait.callable({ name: "two", kind: "boolean", fn: twoParameters, sandbox }))).message,
    ).toBe(
      'callable trait "two": field "fn": the function must take exactly one parameter (the text); it takes 2',
    );
    const method = {
      check(text: string) {
        return text.length > 0;
      },
    };
    expect(
      (await refusal(trait.callable({ name: "m", kind: "boolean", fn: method.check, sandbox }))).reason,
    ).toContain("not a function expression");
    const bound = ((text: string) => text.length > 0).bind(null);
    expect(
      (await refusal(trait.callable({ name: "b", kind: "boolean", fn: bound, sandbox }))).reason,
    ).toContain("bound function");
  });

  test("a closure is refused: the function must run alone in QuickJS", async () => {
    const limit = 200;
    const error = await refusal(
      trait.callable({ name: "short", kind: "boolean", fn: (text) => text.length < limit, sandbox }),
    );
    expect(error.field).toBe("fn");
    expect(error.reason).toContain("the function fails when run alone in the sandbox (ReferenceError:");
    expect(error.reason).toContain("the function must be self-contained");
  });

  test("an async function, or one returning the wrong type for its kind, is refused", async () => {
    const asyncFn = await refusal(
      trait.callable({ name: "later", kind: "boolean", fn: async (text) => text === "", sandbox }),
    );
    expect(asyncFn.reason).toContain("returned a Promise");
    const wrongType = await refusal(
      trait.callable({ name: "count", kind: "boolean", fn: (text) => text.length, sandbox }),
    );
    expect(wrongType.message).toMatch(
      /^callable trait "count": field "fn": kind "boolean" needs the function to return a boolean, and on a sample text it returned the number \d+$/,
    );
  });

  test("two traits sharing a name within one rubric", () => {
    const error = thrown(RubricError, () =>
      rubricFromTraits([trait.llm.boolean({ name: "cites" }), trait.regex({ name: "cites", pattern: "x" })]),
    );
    expect(error.message).toBe(
      `regex trait "cites": field "name": Duplicate trait name 'cites' across different trait types (llm and regex); trait names must be unique`,
    );
  });
});
