import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CheckpointError, CheckpointFileError, CheckpointSyntaxError } from "./errors.js";
import { parseCheckpoint, readCheckpointFile } from "./read.js";

function feed(overrides: Record<string, unknown> = {}, items: unknown[] = [item()]): string {
  return JSON.stringify({
    "@context": {},
    "@type": "DataFeed",
    name: "bench",
    dateCreated: "2025-01-01T00:00:00",
    dateModified: "2025-01-01T00:00:00",
    dataFeedElement: items,
    ...overrides,
  });
}

function item(overrides: Record<string, unknown> = {}, question: Record<string, unknown> = {}): unknown {
  return {
    "@type": "DataFeedItem",
    "@id": "q1",
    dateCreated: "2025-01-01T00:00:00",
    dateModified: "2025-01-01T00:00:00",
    item: {
      "@type": "Question",
      text: "What is 2+2?",
      acceptedAnswer: { "@type": "Answer", text: "4" },
      hasPart: {
        "@type": "SoftwareSourceCode",
        name: "t",
        text: "class Answer: pass",
        programmingLanguage: "Python",
      },
      ...question,
    },
    ...overrides,
  };
}

describe("bad checkpoints get errors naming the file, the JSON path and what was expected", () => {
  test("text that is not JSON: line and column", () => {
    const text = '{\n  "name": "x",\n  oops\n}';
    try {
      parseCheckpoint(text, "bench.jsonld");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CheckpointSyntaxError);
      const syntax = error as CheckpointSyntaxError;
      expect(syntax.line).toBe(3);
      expect(syntax.column).toBe(3);
      expect(syntax.message).toMatch(/^bench\.jsonld: \$: not valid JSON at line 3, column 3/);
    }
  });

  test("JSON that is not a DataFeed", () => {
    expect(() => parseCheckpoint("[1, 2]", "b.jsonld")).toThrow(
      "b.jsonld: $: expected a JSON-LD DataFeed object, found an array of 2",
    );
    expect(() => parseCheckpoint(feed({ "@type": "Dataset" }), "b.jsonld")).toThrow(
      'b.jsonld: $["@type"]: expected "DataFeed" (is this a karenina checkpoint?), found a string "Dataset"',
    );
  });

  test("a question without text", () => {
    expect(() => parseCheckpoint(feed({}, [item({}, { text: "" })]), "b.jsonld")).toThrow(
      'b.jsonld: $.dataFeedElement[0].item.text: expected a non-empty question text, found a string ""',
    );
    const missing = item() as { item: Record<string, unknown> };
    delete missing.item.text;
    expect(() => parseCheckpoint(feed({}, [missing]), "b.jsonld")).toThrow(
      "b.jsonld: $.dataFeedElement[0].item.text: missing required field (expected string)",
    );
  });

  test("duplicate question ids", () => {
    expect(() => parseCheckpoint(feed({}, [item(), item()]), "b.jsonld")).toThrow(
      'b.jsonld: $.dataFeedElement[1]["@id"]: expected a unique question id (already used by $.dataFeedElement[0]), found a string "q1"',
    );
  });

  test("an unknown trait type", () => {
    const rating = {
      "@type": "Rating",
      name: "r",
      bestRating: 1,
      worstRating: 0,
      additionalType: "karenina:MysteryTrait",
    };
    expect(() => parseCheckpoint(feed({}, [item({}, { rating: [rating] })]), "b.jsonld")).toThrow(
      /b\.jsonld: \$\.dataFeedElement\[0\]\.item\.rating\[0\]\.additionalType: .*karenina:GlobalRubricTrait.*found a string "karenina:MysteryTrait"/,
    );
  });

  test("a value of the wrong type", () => {
    expect(() => parseCheckpoint(feed({ name: 42 }), "b.jsonld")).toThrow(
      "b.jsonld: $.name: expected string, found the number 42",
    );
    expect(() => parseCheckpoint(feed({}, [item({}, { keywords: "math" })]), "b.jsonld")).toThrow(
      'b.jsonld: $.dataFeedElement[0].item.keywords: expected array, found a string "math"',
    );
  });

  test("a question-level trait type at the benchmark level", () => {
    const rating = {
      "@type": "Rating",
      name: "r",
      bestRating: 1,
      worstRating: 0,
      additionalType: "QuestionSpecificRegexTrait",
    };
    expect(() => parseCheckpoint(feed({ rating: [rating] }), "b.jsonld")).toThrow(
      'b.jsonld: $.rating[0].additionalType: expected a global trait type (karenina:Global...) at the benchmark level, found a string "karenina:QuestionSpecificRegexTrait"',
    );
  });

  test("a file that does not exist", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-"));
    await expect(readCheckpointFile(join(dir, "nope.jsonld"))).rejects.toThrow(CheckpointFileError);
    await expect(readCheckpointFile(join(dir, "nope.jsonld"))).rejects.toThrow(
      /nope\.jsonld: cannot read the checkpoint: no such file/,
    );
  });

  test("errors are CheckpointErrors carrying file and path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-"));
    const file = join(dir, "b.jsonld");
    await writeFile(file, feed({ name: "" }));
    const error = await readCheckpointFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).file).toBe(file);
    expect((error as CheckpointError).jsonPath).toBe("$.name");
  });
});

test("additionalType without the karenina: prefix is read with it", () => {
  const rating = {
    "@type": "Rating",
    name: "r",
    bestRating: 1,
    worstRating: 0,
    additionalType: "GlobalRegexTrait",
  };
  const doc = parseCheckpoint(feed({ rating: [rating] }));
  expect(doc.rating?.[0]?.additionalType).toBe("karenina:GlobalRegexTrait");
});
