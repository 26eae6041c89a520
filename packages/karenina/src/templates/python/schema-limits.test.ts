/**
 * A Python template's schemas come from its own code and the host walks them, `$defs` expanded, to coerce every
 * judge's answer: a template whose schema would not stay small once expanded is refused at load. Templates are
 * written for the tests.
 */
import { describe, expect, test } from "vitest";
import { sandboxForTheseTests } from "../../test-support/python-sandbox-for-tests.js";
import { TemplateError } from "../answer-template.js";
import { loadTemplate } from "../load-template.js";
import { loadPythonTemplate } from "./index.js";

const sandbox = sandboxForTheseTests();

const lines = (...text: string[]) => text.join("\n");
const VERIFY = "    def verify(self):\n        return True";

/** The message of the TemplateError a load fails with. */
async function refusal(code: string): Promise<string> {
  const error = await loadPythonTemplate(code, { sandbox }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return (error as TemplateError).message;
}

/** Models M1..Mn, each holding `fields` of the one before (M0 is a string), and an Answer holding Mn. */
function nestedModels(levels: number, fields: readonly string[]): string {
  const models = ["from pydantic import BaseModel", "class M0(BaseModel):", "    text: str"];
  for (let level = 1; level <= levels; level++) {
    models.push(`class M${level}(BaseModel):`, ...fields.map((name) => `    ${name}: M${level - 1}`));
  }
  return lines(...models, "class Answer(BaseAnswer):", `    top: M${levels}`, VERIFY);
}

/** An Answer whose class hands the bridge the given schema as its JSON Schema. */
function claimedSchema(schema: unknown): string {
  return lines(
    "class Answer(BaseAnswer):",
    "    x: int",
    "    @classmethod",
    "    def model_json_schema(cls):",
    "        import json",
    `        return json.loads(${JSON.stringify(JSON.stringify(schema))})`,
    VERIFY,
  );
}

describe("a Python template whose schema would not stay small once expanded is refused at load", () => {
  test("models nested 30 deep are refused for the depth of the judge schema, naming the path and the $refs", async () => {
    expect(await refusal(nestedModels(30, ["inner"]))).toMatch(
      /^judgeSchema\.\$defs\.M\d+\.properties\.inner\.properties….+\.properties\.text: the judge schema nests deeper than 64 levels through \$ref \(#\/\$defs\/M\d+ → .+ → #\/\$defs\/M1 → #\/\$defs\/M0\): refused$/,
    );
  });

  test("a billion laughs of models (each holding the one before twice, 2^30 leaves) is refused for its size", async () => {
    expect(await refusal(nestedModels(30, ["a", "b"]))).toMatch(
      /^judgeSchema\..+: the judge schema expands to more than 10000 nodes through \$ref \(#\/\$defs\/M\d+ → .+\): refused$/,
    );
  });

  test("a class claiming a schema whose $ref leads back to itself through an anyOf is refused as recursive", async () => {
    const schema = {
      type: "object",
      properties: { x: { $ref: "#/$defs/A" } },
      $defs: { A: { anyOf: [{ $ref: "#/$defs/A" }, { type: "integer" }] } },
    };
    expect(await refusal(claimedSchema(schema))).toBe(
      "judgeSchema.properties.x.anyOf[0]: the judge schema refers to itself through $ref (#/$defs/A → #/$defs/A); a recursive schema cannot be expanded for the judge: refused",
    );
  });

  test("through loadTemplate the refusal reads as an invalid template", async () => {
    await expect(
      loadTemplate(nestedModels(30, ["inner"]), "Python", { pythonSandbox: sandbox }),
    ).rejects.toThrow(/^Invalid template: judgeSchema\..+: the judge schema nests deeper than 64 levels/);
  });

  test("models nested a few levels deep load as before", async () => {
    const template = await loadPythonTemplate(nestedModels(4, ["inner"]), { sandbox });
    expect(Object.keys(template.judgeSchema.$defs as object)).toEqual(["M0", "M1", "M2", "M3", "M4"]);
  });
});
