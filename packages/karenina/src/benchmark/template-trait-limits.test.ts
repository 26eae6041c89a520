/**
 * The Benchmark API refuses a template-kind trait whose schema would not stay small once its `$ref`s are
 * expanded, whether it comes from a checkpoint file or is added through the API.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CheckpointError } from "../checkpoint/index.js";
import { RubricError } from "../model/index.js";
import { hostileCheckpointText, templateRatingJson } from "../test-support/hostile-checkpoints.js";
import { billionLaughsSchema, cyclicSchema, nestedSchemaJson } from "../test-support/hostile-schemas.js";
import { thrown } from "../test-support/thrown.js";
import { Benchmark } from "./index.js";

const KIND_PATH = "$.dataFeedElement[0].item.rating[0].additionalProperty[0].value";

async function checkpointWithTraitSchema(schemaJson: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "karenina-trait-schema-")), "bench.jsonld");
  await writeFile(
    file,
    hostileCheckpointText({ questionRatings: [templateRatingJson("steps", schemaJson)] }),
  );
  return file;
}

const templateTrait = (schema: Record<string, unknown>) => ({
  type: "llm" as const,
  name: "steps",
  kind: { type: "template" as const, schema },
  higher_is_better: null,
});

describe("a template-kind trait whose schema would not stay small once expanded, through the Benchmark API", () => {
  test.each([
    ["a cyclic $ref", JSON.stringify(cyclicSchema("anyOf")), "refers to itself through $ref"],
    [
      "a billion laughs of $defs",
      JSON.stringify(billionLaughsSchema(30)),
      "expands to more than 10000 nodes",
    ],
    ["60 levels of nesting", nestedSchemaJson(60), "nests deeper than 64 levels"],
  ])("Benchmark.load refuses %s with the file and the JSON path", async (_what, schemaJson, problem) => {
    const file = await checkpointWithTraitSchema(schemaJson);
    const error = await Benchmark.load(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckpointError);
    expect((error as CheckpointError).jsonPath).toBe(KIND_PATH);
    const message = (error as Error).message;
    expect(message.startsWith(`${file}: ${KIND_PATH}: llm trait "steps": field "kind": schema.`)).toBe(true);
    expect(message).toContain(`the template trait schema ${problem}`);
  });

  test("Benchmark.load refuses 10,000 levels of nesting with the file and the JSON path", async () => {
    const file = await checkpointWithTraitSchema(nestedSchemaJson(10_000));
    await expect(Benchmark.load(file)).rejects.toThrow(
      new RegExp(
        `^${file}: \\$\\.dataFeedElement\\[0\\]\\.item\\.rating\\[0\\]\\.additionalProperty\\[0\\]\\.value\\.schema\\..*: cannot load: objects and arrays nested 20,010 levels deep`,
      ),
    );
  });

  test.each([
    ["a cyclic $ref", cyclicSchema("property"), "refers to itself through $ref (#/$defs/A → #/$defs/A)"],
    ["a billion laughs of $defs", billionLaughsSchema(30), "expands to more than 10000 nodes"],
    ["10,000 levels of nesting", JSON.parse(nestedSchemaJson(10_000)), "nests deeper than 64 levels"],
  ])(
    "addGlobalRubricTrait and addQuestionRubricTrait refuse %s, leaving the rubric as it was",
    (_what, schema, problem) => {
      const bench = Benchmark.create({ name: "limits" });
      const id = bench.addQuestion("What is 2+2?", "4");
      const adds = [
        () => bench.addGlobalRubricTrait(templateTrait(schema)),
        () => bench.addQuestionRubricTrait(id, templateTrait(schema)),
      ];
      for (const add of adds) {
        const error = thrown(RubricError, add);
        expect(error.message).toContain(`llm trait "steps": field "kind": schema.`);
        expect(error.message).toContain(`the template trait schema ${problem}`);
      }
      expect(bench.getGlobalRubric()).toBeNull();
      expect(bench.getQuestionRubric(id)).toBeNull();
    },
  );
});
