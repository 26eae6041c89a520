import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CheckpointError, CheckpointNestingError } from "../checkpoint/index.js";
import { RubricError } from "../model/index.js";
import { buildRubricResult } from "../rubrics/index.js";
import {
  deepArrayJson,
  hostileCheckpointText,
  propertyJson,
  regexRatingJson,
} from "../test-support/hostile-checkpoints.js";
import { Benchmark } from "./index.js";

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "karenina-hostile-"));
}

describe("deeply nested data through the benchmark API", () => {
  test("the 10,000-deep checkpoint is refused by Benchmark.load with the file, the depth and the limit", async () => {
    const file = join(await tempDir(), "deep.jsonld");
    await writeFile(
      file,
      hostileCheckpointText({ questionProperties: [propertyJson("custom_deep", deepArrayJson(10_000))] }),
    );
    await expect(Benchmark.load(file)).rejects.toThrow(
      new RegExp(
        `^${file}: .*: cannot load: objects and arrays nested 10,006 levels deep; a checkpoint may nest at most 200 levels`,
      ),
    );
  });

  test("a deep structure set through the API is refused on save, and the existing file is left as it was", async () => {
    const dir = await tempDir();
    const file = join(dir, "bench.jsonld");
    const bench = Benchmark.create({ name: "deep" });
    const id = bench.addQuestion("What is 2+2?", "4");
    await bench.save(file);
    const before = await readFile(file, "utf8");
    bench.setQuestionCustomProperty(id, "deep", JSON.parse(deepArrayJson(10_000)));
    const error = await bench.save(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointNestingError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${file}: \\$\\.dataFeedElement\\[0\\]\\.item\\.additionalProperty\\[1\\]\\.value\\[0\\].*: cannot save: objects and arrays nested 10,006 levels deep`,
      ),
    );
    expect(await readFile(file, "utf8")).toBe(before);
    expect(await readdir(dir)).toEqual(["bench.jsonld"]);
    expect(() => bench.serialize()).toThrow(CheckpointNestingError);
    expect(() => bench.toCheckpoint()).toThrow(/cannot copy: objects and arrays nested/);
    expect(() => bench.clone()).toThrow(CheckpointNestingError);
  });

  test("a deep author given to addQuestion is refused before the question is added", () => {
    const bench = Benchmark.create({ name: "deep-author" });
    expect(() =>
      bench.addQuestion("What is 2+2?", "4", { author: JSON.parse(deepArrayJson(10_000)) }),
    ).toThrow(/^<benchmark>: author\[0\].*: cannot save: objects and arrays nested 10,000 levels deep/);
    expect(bench.size).toBe(0);
  });

  test("a benchmark property that contains itself is refused on save", async () => {
    const bench = Benchmark.create({ name: "loop" });
    const loop: Record<string, unknown> = {};
    loop.again = loop;
    bench.setCustomProperty("loop", loop);
    await expect(bench.save(join(await tempDir(), "loop.jsonld"))).rejects.toThrow(
      /this object contains itself/,
    );
  });
});

describe("custom properties named __proto__, constructor and prototype are plain data", () => {
  const names = ["__proto__", "constructor", "prototype"];
  const text = hostileCheckpointText({
    questionProperties: [
      propertyJson("custom___proto__", '{"polluted": true}'),
      propertyJson("custom_constructor", '"a builder"'),
      propertyJson("custom_prototype", '{"__proto__": {"nested": 1}}'),
    ],
    rootProperties: [propertyJson("__proto__", '{"polluted": true}'), propertyJson("constructor", '"root"')],
  });

  test("a checkpoint holding them round-trips byte for byte through load and save", async () => {
    const dir = await tempDir();
    const first = join(dir, "first.jsonld");
    const second = join(dir, "second.jsonld");
    await Benchmark.parse(text).save(first);
    await (await Benchmark.load(first)).save(second);
    const saved = await readFile(first, "utf8");
    expect((await readFile(second, "utf8")).replace(/"dateModified": "[^"]*"/g, "")).toBe(
      saved.replace(/"dateModified": "[^"]*"/g, ""),
    );
    for (const name of names) expect(saved).toContain(`"name": "custom_${name}"`);
  });

  test("they are keys of custom_metadata, whose prototype stays Object.prototype", () => {
    const bench = Benchmark.parse(text);
    const custom = bench.getQuestion("q1").custom_metadata as Record<string, unknown>;
    expect(Object.getPrototypeOf(custom)).toBe(Object.prototype);
    expect(Object.keys(custom)).toEqual(names);
    expect((custom as { polluted?: unknown }).polluted).toBeUndefined();
    expect(bench.getQuestionCustomProperty("q1", "__proto__")).toEqual({ polluted: true });
    expect(bench.getQuestionCustomProperty("q1", "constructor")).toBe("a builder");
    expect(bench.getQuestionCustomProperty("q1", "toString")).toBeNull();
    expect(Object.keys(bench.getAllCustomProperties())).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(bench.getAllCustomProperties())).toBe(Object.prototype);
  });

  test("set through the API they are kept too, and so in the Question object", () => {
    const bench = Benchmark.create({ name: "api" });
    const id = bench.addQuestion("What is 2+2?", "4");
    bench.setQuestionCustomProperty(id, "__proto__", { polluted: true });
    bench.setQuestionCustomProperty(id, "constructor", "a builder");
    const custom = bench.getQuestion(id).custom_metadata as Record<string, unknown>;
    expect(Object.getPrototypeOf(custom)).toBe(Object.prototype);
    expect(Object.keys(custom)).toEqual(["__proto__", "constructor"]);
    const question = bench.getQuestionAsObject(id);
    expect(Object.keys(question.custom_metadata ?? {})).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(question.custom_metadata)).toBe(Object.prototype);
  });

  test("queries read only own keys: a question without `constructor` does not match Object's", () => {
    const bench = Benchmark.create({ name: "queries" });
    const plain = bench.addQuestion("Plain?", "yes", { customMetadata: { category: "constructor" } });
    const named = bench.addQuestion("Named?", "yes", { customMetadata: { constructor: "x" } });
    expect(bench.filterByMetadata("custom_metadata.constructor", "x").map((q) => q.id)).toEqual([named]);
    expect(bench.filterByCustomMetadata({ constructor: "x" }).map((q) => q.id)).toEqual([named]);
    expect(bench.countByField("custom_metadata.constructor")).toEqual({ x: 1, null: 1 });
    expect(bench.countByField("custom_metadata.category")).toEqual({ constructor: 1, null: 1 });
    bench.setQuestionCustomProperty(plain, "category", "__proto__");
    const counts = bench.countByField("custom_metadata.category");
    expect(Object.keys(counts)).toEqual(["__proto__", "null"]);
    expect(Object.getPrototypeOf(counts)).toBe(Object.prototype);
  });
});

describe("trait names that are also Object.prototype names", () => {
  test("a trait named __proto__ is refused at load with the file and the rating's path", () => {
    const text = hostileCheckpointText({ questionRatings: [regexRatingJson("__proto__")] });
    let error: unknown;
    try {
      Benchmark.parse(text, { file: "trait.jsonld" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as Error).message).toMatch(
      /^trait\.jsonld: \$\.dataFeedElement\[0\]\.item\.rating\[0\]\.name: .*"__proto__" cannot be a trait name/,
    );
  });

  test("a trait named __proto__ is refused through the API as well", () => {
    const bench = Benchmark.create({ name: "api" });
    expect(() => bench.setGlobalRubric([{ type: "regex", name: "__proto__", pattern: "x" }])).toThrow(
      RubricError,
    );
  });

  test("a trait named constructor loads and its score appears in the rubric results", () => {
    const bench = Benchmark.parse(
      hostileCheckpointText({ questionRatings: [regexRatingJson("constructor")] }),
    );
    const rubric = bench.getQuestion("q1").question_rubric;
    expect(rubric?.regex_traits.map((trait) => trait.name)).toEqual(["constructor"]);
    const block = buildRubricResult({
      rubric: rubric as NonNullable<typeof rubric>,
      scores: { constructor: true },
    });
    expect(block.regex_trait_scores).toEqual({ constructor: true });
  });
});
