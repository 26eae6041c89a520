import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  deepArrayJson,
  deepObjectJson,
  hostileCheckpointText,
  literalRatingJson,
  propertyJson,
  regexRatingJson,
} from "../test-support/hostile-checkpoints.js";
import { CheckpointError, CheckpointNestingError } from "./errors.js";
import { checkNesting, MAX_CHECKPOINT_NESTING, measureNesting } from "./nesting.js";
import { readQuestion } from "./question-record.js";
import { parseCheckpoint, readCheckpointFile } from "./read.js";
import { serializeCheckpoint } from "./write.js";

/** The error a call throws (failing the test when it throws none). */
function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  expect.unreachable("expected an error");
}

/** Levels above a question property's value: root, dataFeedElement, item, question, additionalProperty, property. */
const ABOVE_PROPERTY_VALUE = 6;

describe("nesting is measured without recursion", () => {
  test("depth counts objects and arrays on the longest chain, and the path follows it", () => {
    expect(measureNesting(1)).toEqual({ depth: 0, path: [], circular: false });
    expect(measureNesting({ a: [[1]], b: {} })).toEqual({ depth: 3, path: ["a", 0], circular: false });
  });

  test("a structure 100,000 levels deep is measured, not a stack overflow", () => {
    const deep = JSON.parse(deepArrayJson(100_000));
    expect(measureNesting(deep).depth).toBe(100_000);
  });

  test("an object that contains itself is reported as circular", () => {
    const loop: Record<string, unknown> = { a: { b: [] } };
    ((loop.a as Record<string, unknown>).b as unknown[]).push(loop);
    const nesting = measureNesting(loop);
    expect(nesting.circular).toBe(true);
    expect(nesting.path).toEqual(["a", "b", 0]);
  });

  test("a structure shared in many places is measured once per object", () => {
    let shared: unknown = [];
    for (let level = 0; level < 64; level++) shared = [shared, shared]; // 2^64 paths, 65 distinct arrays
    expect(measureNesting(shared).depth).toBe(65);
  });
});

describe("a deeply nested checkpoint is refused on load with a CheckpointError, not a RangeError", () => {
  test.each([
    ["[[[…]]]", deepArrayJson(10_000)],
    ['{"a":{"a":…}}', deepObjectJson(10_000)],
  ])("a custom property holding %s 10,000 levels deep", async (_shape, deep) => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-deep-"));
    const file = join(dir, "deep.jsonld");
    await writeFile(file, hostileCheckpointText({ questionProperties: [propertyJson("custom_deep", deep)] }));
    const error = await readCheckpointFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointNestingError);
    const nesting = error as CheckpointNestingError;
    expect(nesting.depth).toBe(10_000 + ABOVE_PROPERTY_VALUE);
    expect(nesting.limit).toBe(MAX_CHECKPOINT_NESTING);
    expect(nesting.message).toContain(`${file}: $.dataFeedElement[0].item.additionalProperty[1].value`);
    expect(nesting.message).toContain("cannot load: objects and arrays nested 10,006 levels deep");
    expect(nesting.message).toContain(`at most ${MAX_CHECKPOINT_NESTING} levels`);
  });

  test("the limit is exact: a document nested 200 levels loads, 201 does not", () => {
    const at = (depth: number) =>
      hostileCheckpointText({
        questionProperties: [propertyJson("custom_deep", deepArrayJson(depth - ABOVE_PROPERTY_VALUE))],
      });
    expect(parseCheckpoint(at(MAX_CHECKPOINT_NESTING), "ok.jsonld").dataFeedElement).toHaveLength(1);
    expect(() => parseCheckpoint(at(MAX_CHECKPOINT_NESTING + 1), "deep.jsonld")).toThrow(
      CheckpointNestingError,
    );
  });

  test("deep JSON text in `author` is held to the same limit when it is decoded", () => {
    const text = hostileCheckpointText({
      questionProperties: [propertyJson("author", JSON.stringify(deepArrayJson(10_000)))],
    });
    const doc = parseCheckpoint(text, "author.jsonld");
    const element = doc.dataFeedElement[0] as (typeof doc.dataFeedElement)[number];
    const error = thrown(() =>
      readQuestion("q1", element, { file: "author.jsonld", path: "$.dataFeedElement[0]" }),
    );
    expect(error).toBeInstanceOf(CheckpointNestingError);
    expect(error.message).toMatch(
      /^author\.jsonld: \$\.dataFeedElement\[0\]\.item\.additionalProperty\[1\]\.value\[0\]\[0\].*: cannot load: objects and arrays nested 10,000 levels deep/,
    );
  });
});

describe("a deeply nested document built in memory is refused on save", () => {
  test("serializeCheckpoint names the file and the depth instead of overflowing the stack", () => {
    const doc = parseCheckpoint(hostileCheckpointText(), "ok.jsonld");
    doc.additionalProperty = [
      { "@type": "PropertyValue", name: "deep", value: JSON.parse(deepArrayJson(10_000)) },
    ];
    const error = thrown(() => serializeCheckpoint(doc, "out.jsonld"));
    expect(error).toBeInstanceOf(CheckpointNestingError);
    expect(error.message).toMatch(
      /^out\.jsonld: \$\.additionalProperty\[0\]\.value\[0\]\[0\].*: cannot save: objects and arrays nested 10,003 levels deep; a checkpoint may nest at most 200 levels/,
    );
  });

  test("a value that contains itself is refused with a message saying so", () => {
    const doc = parseCheckpoint(hostileCheckpointText(), "ok.jsonld");
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    doc.additionalProperty = [{ "@type": "PropertyValue", name: "loop", value: loop }];
    expect(() => serializeCheckpoint(doc, "out.jsonld")).toThrow(
      "out.jsonld: $.additionalProperty[0].value.self: cannot save: this object contains itself",
    );
  });

  test("checkNesting measures decoded text from where it sits", () => {
    expect(() => checkNesting(JSON.parse(deepArrayJson(300)), "f.jsonld", "load", "$.x")).toThrow(
      /^f\.jsonld: \$\.x\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]\[0\]…: cannot load/,
    );
  });
});

describe("keys named __proto__ never vanish or alter objects", () => {
  test("outside property values such a key is refused, naming the path", () => {
    const text = hostileCheckpointText({ questionExtra: '"__proto__": {"text": "injected"}' });
    const error = thrown(() => parseCheckpoint(text, "proto.jsonld"));
    expect(error).toBeInstanceOf(CheckpointError);
    expect(error.message).toBe(
      'proto.jsonld: $.dataFeedElement[0].item.__proto__: a key named "__proto__" is not allowed here (only inside property values); rename or remove it',
    );
  });

  test("a rating's classes object with a __proto__ class is refused (it would shift every class index)", () => {
    const text = hostileCheckpointText({
      questionRatings: [literalRatingJson("tone", '{"__proto__": "x", "formal": "F", "casual": "C"}')],
    });
    expect(() => parseCheckpoint(text, "classes.jsonld")).toThrow(
      'classes.jsonld: $.dataFeedElement[0].item.rating[0].additionalProperty[1].value.__proto__: a key named "__proto__" is not allowed here',
    );
  });

  test("classes stored as JSON text with a __proto__ class are refused too, naming the property", () => {
    const classes = JSON.stringify('{"__proto__": "x", "formal": "F", "casual": "C"}');
    const text = hostileCheckpointText({ questionRatings: [literalRatingJson("tone", classes)] });
    const doc = parseCheckpoint(text, "classes.jsonld");
    const element = doc.dataFeedElement[0] as (typeof doc.dataFeedElement)[number];
    expect(() =>
      readQuestion("q1", element, { file: "classes.jsonld", path: "$.dataFeedElement[0]" }),
    ).toThrow(
      /^classes\.jsonld: \$\.dataFeedElement\[0\]\.item\.rating\[0\]\.additionalProperty\[1\]\.value: .*"__proto__" cannot be a class name/,
    );
  });

  test("a trait named __proto__ is refused on load, naming the rating", () => {
    const text = hostileCheckpointText({ questionRatings: [regexRatingJson("__proto__")] });
    const doc = parseCheckpoint(text, "trait.jsonld");
    const element = doc.dataFeedElement[0] as (typeof doc.dataFeedElement)[number];
    expect(() => readQuestion("q1", element, { file: "trait.jsonld", path: "$.dataFeedElement[0]" })).toThrow(
      /^trait\.jsonld: \$\.dataFeedElement\[0\]\.item\.rating\[0\]\.name: .*"__proto__" cannot be a trait name/,
    );
  });

  test("custom properties named __proto__, constructor and prototype are plain keys of custom_metadata", () => {
    const text = hostileCheckpointText({
      questionProperties: [
        propertyJson("custom___proto__", '{"polluted": true}'),
        propertyJson("custom_constructor", '"a builder"'),
        propertyJson("custom_prototype", '{"__proto__": {"nested": 1}}'),
      ],
    });
    const doc = parseCheckpoint(text, "custom.jsonld");
    const element = doc.dataFeedElement[0] as (typeof doc.dataFeedElement)[number];
    const { record } = readQuestion("q1", element, { file: "custom.jsonld", path: "$.dataFeedElement[0]" });
    const custom = record.custom_metadata as Record<string, unknown>;
    expect(Object.getPrototypeOf(custom)).toBe(Object.prototype);
    expect(Object.keys(custom)).toEqual(["__proto__", "constructor", "prototype"]);
    expect(Object.getOwnPropertyDescriptor(custom, "__proto__")?.value).toEqual({ polluted: true });
    expect((custom as { polluted?: unknown }).polluted).toBeUndefined();
    expect(custom.constructor).toBe("a builder");
    expect(Object.keys(custom.prototype as object)).toEqual(["__proto__"]);
  });

  test("a benchmark property named constructor holding a JSON list loads (it is not a legacy trait list)", () => {
    const text = hostileCheckpointText({
      rootProperties: [propertyJson("constructor", JSON.stringify("[{}]"))],
    });
    const doc = parseCheckpoint(text, "root.jsonld");
    expect(serializeCheckpoint(doc)).toContain('"name": "constructor"');
  });

  test("a string that looks like the writer's float marker stays a string on save", () => {
    const marker = JSON.stringify("\u0000karenina-float\u00005");
    const doc = parseCheckpoint(
      hostileCheckpointText({ questionProperties: [propertyJson("custom_tag", marker)] }),
      "marker.jsonld",
    );
    expect(serializeCheckpoint(doc)).toContain('"value": "\\u0000karenina-float\\u00005"');
  });
});
