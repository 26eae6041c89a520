/**
 * A template-kind trait's schema is walked with its `$ref`s expanded (the lax coercion of the judge's reply
 * tries each `anyOf` branch): a checkpoint whose trait schema would not stay small once expanded is refused
 * where the trait is read, naming the file and the JSON path.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { hostileCheckpointText, templateRatingJson } from "../test-support/hostile-checkpoints.js";
import { billionLaughsSchema, cyclicSchema, nestedSchemaJson } from "../test-support/hostile-schemas.js";
import { thrown } from "../test-support/thrown.js";
import { CheckpointError, CheckpointNestingError } from "./errors.js";
import { readQuestion } from "./question-record.js";
import { parseCheckpoint, readCheckpointFile } from "./read.js";

const FILE = "bench.jsonld";
const KIND_PATH = "$.dataFeedElement[0].item.rating[0].additionalProperty[0].value";

/** Reads the question of a checkpoint whose one trait is template-kind with the given schema (JSON text). */
function readWithTraitSchema(schemaJson: string): unknown {
  const text = hostileCheckpointText({ questionRatings: [templateRatingJson("steps", schemaJson)] });
  const element = parseCheckpoint(text, FILE).dataFeedElement[0];
  return readQuestion("q1", element as NonNullable<typeof element>, {
    file: FILE,
    path: "$.dataFeedElement[0]",
  });
}

const refusal = (schemaJson: string): CheckpointError =>
  thrown(CheckpointError, () => readWithTraitSchema(schemaJson));

describe("a template-kind trait whose schema would not stay small once expanded is refused at load", () => {
  test.each([
    ["a property of its own definition", "property", "schema.properties.head.properties.next"],
    ["a branch of its own anyOf", "anyOf", "schema.properties.head.anyOf[0]"],
  ] as const)("a $ref leading back to itself through %s", (_where, where, schemaPath) => {
    const error = refusal(JSON.stringify(cyclicSchema(where)));
    expect(error.jsonPath).toBe(KIND_PATH);
    expect(error.message).toBe(
      `${FILE}: ${KIND_PATH}: llm trait "steps": field "kind": ${schemaPath}: the template trait schema refers to itself through $ref (#/$defs/A → #/$defs/A); a recursive schema cannot be expanded for the judge: refused`,
    );
  });

  test("a billion laughs of $defs (30 levels, 2^30 leaves) is refused after 10,000 nodes", () => {
    const error = refusal(JSON.stringify(billionLaughsSchema(30)));
    expect(error.jsonPath).toBe(KIND_PATH);
    expect(error.message).toMatch(
      /: schema\.properties\.x\.properties\..+: the template trait schema expands to more than 10000 nodes through \$ref \(#\/\$defs\/L30 → .+\): refused$/,
    );
  });

  test("nesting of 60 levels, within what a checkpoint may nest, is refused at 64 levels of the schema", () => {
    const error = refusal(nestedSchemaJson(60));
    expect(error.jsonPath).toBe(KIND_PATH);
    expect(error.message).toBe(
      `${FILE}: ${KIND_PATH}: llm trait "steps": field "kind": schema.properties.a.properties.a.properties…(53 more)….properties.a.properties.a.properties.a: the template trait schema nests deeper than 64 levels: refused`,
    );
  });

  test("nesting of 10,000 levels is refused as the file is read, naming the path", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "karenina-trait-schema-")), FILE);
    const text = hostileCheckpointText({
      questionRatings: [templateRatingJson("steps", nestedSchemaJson(10_000))],
    });
    await writeFile(file, text);
    const error = await readCheckpointFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointNestingError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${file}: \\$\\.dataFeedElement\\[0\\]\\.item\\.rating\\[0\\]\\.additionalProperty\\[0\\]\\.value\\.schema\\.properties\\.a.*: cannot load: objects and arrays nested 20,010 levels deep`,
      ),
    );
  });

  test("an ordinary schema with a definition used twice loads", () => {
    const citation = { type: "object", properties: { doc: { type: "string" } } };
    const schema = {
      type: "object",
      properties: {
        main: { $ref: "#/$defs/Citation" },
        others: { type: "array", items: { $ref: "#/$defs/Citation" } },
      },
      $defs: { Citation: citation },
    };
    expect(() => readWithTraitSchema(JSON.stringify(schema))).not.toThrow();
  });
});
