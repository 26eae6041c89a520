import { describe, expect, test } from "vitest";
import { FewShotConfigSchema } from "../config/index.js";
import { fewShotSeed, resolveFewShotExamples } from "./index.js";

// Hand-written example pool.
const pool = Array.from({ length: 8 }, (_, i) => ({ question: `Question ${i}?`, answer: `Answer ${i}` }));
const globals = [{ question: "Global?", answer: "Yes" }];
const config = (fields: Record<string, unknown>) => FewShotConfigSchema.parse(fields);
// hashlib.md5(b"Question 5?").hexdigest() in Python.
const HASH_5 = "9eedca60427decc07f4cbe554e4d9bb6";

describe("few-shot resolution", () => {
  test("no config or a disabled source gives no examples", () => {
    expect(resolveFewShotExamples(null, "q1", pool)).toEqual([]);
    expect(resolveFewShotExamples(config({ source: "disabled" }), "q1", pool)).toEqual([]);
  });

  test("`both` with mode all: the question's examples, then the global ones", () => {
    expect(resolveFewShotExamples(config({ global_examples: globals }), "q1", pool)).toEqual([
      ...pool,
      ...globals,
    ]);
  });

  test("`global` uses only the global examples, `question_pool` only the question's", () => {
    expect(
      resolveFewShotExamples(config({ source: "global", global_examples: globals }), "q1", pool),
    ).toEqual(globals);
    expect(
      resolveFewShotExamples(config({ source: "question_pool", global_examples: globals }), "q1", pool),
    ).toEqual(pool);
  });

  test("the seed is the low 31 bits of the question id's md5, as in the original", () => {
    // int(hashlib.md5(b"q1").hexdigest(), 16) & 0x7FFFFFFF in Python.
    expect(fewShotSeed("q1")).toBe(337204154);
    expect(fewShotSeed("urn:uuid:question-what-is-x-1a2b3c4d")).toBe(1626724759);
  });

  test("k-shot draws k distinct examples, the same ones every time for a question id", () => {
    const kShot = config({ source: "question_pool", pool_mode: "k-shot", pool_k: 3 });
    const first = resolveFewShotExamples(kShot, "q1", pool);
    expect(first).toHaveLength(3);
    expect(new Set(first.map((e) => e.question)).size).toBe(3);
    expect(resolveFewShotExamples(kShot, "q1", pool)).toEqual(first);
    const others = ["q2", "q3", "q4", "q5"].map((id) => resolveFewShotExamples(kShot, id, pool));
    expect(others.some((sample) => JSON.stringify(sample) !== JSON.stringify(first))).toBe(true);
  });

  test("k-shot with no more than k examples takes them all, in order", () => {
    const kShot = config({ source: "question_pool", pool_mode: "k-shot", pool_k: 8 });
    expect(resolveFewShotExamples(kShot, "q1", pool)).toEqual(pool);
  });

  test("a question config overrides the pool mode; inherit takes the pool's mode and k", () => {
    const fields = {
      source: "question_pool",
      pool_mode: "k-shot",
      pool_k: 2,
      question_configs: {
        all: { mode: "all" },
        kOwn: { mode: "k-shot" },
        inherit: { mode: "inherit", k: 5 },
      },
    };
    expect(resolveFewShotExamples(config(fields), "all", pool)).toEqual(pool);
    expect(resolveFewShotExamples(config(fields), "kOwn", pool)).toHaveLength(2);
    expect(resolveFewShotExamples(config(fields), "inherit", pool)).toHaveLength(2);
  });

  test("custom selects by index or by md5 of the question, in the listed order, ignoring unknown refs", () => {
    const custom = config({
      source: "question_pool",
      question_configs: { q1: { mode: "custom", selected_examples: [3, HASH_5, 99, "nope", 0] } },
    });
    expect(resolveFewShotExamples(custom, "q1", pool).map((e) => e.answer)).toEqual([
      "Answer 3",
      "Answer 5",
      "Answer 0",
    ]);
  });

  test("exclusions name examples of the question's pool, by index or by md5 of the question", () => {
    const excluding = config({
      source: "question_pool",
      question_configs: { q1: { mode: "all", excluded_examples: [1, HASH_5] } },
    });
    expect(resolveFewShotExamples(excluding, "q1", pool).map((e) => e.answer)).toEqual([
      "Answer 0",
      "Answer 2",
      "Answer 3",
      "Answer 4",
      "Answer 6",
      "Answer 7",
    ]);
  });
});
