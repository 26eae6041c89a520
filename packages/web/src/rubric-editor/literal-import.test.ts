import { describe, expect, test } from "vitest";
import { RubricSchema } from "../../../karenina/src/model/index.js";
import { parseLiteralImport } from "./literal-import.js";

const file = (data: unknown) => JSON.stringify(data);

describe("Import literal trait (spec 07 §1.4)", () => {
  test("a file with a name and classes becomes a literal trait the library accepts, classes in file order", () => {
    const outcome = parseLiteralImport(
      file({
        trait_name: "tone",
        description: "The tone",
        classes: { rude: "Rude", kind: "Kind" },
        higher_is_better: false,
      }),
      ["other"],
    );
    if (!("trait" in outcome)) throw new Error(outcome.error);
    expect(outcome.trait).toMatchObject({
      kind: "literal",
      min_score: 0,
      max_score: 1,
      higher_is_better: false,
    });
    expect(Object.keys(outcome.trait.classes ?? {})).toEqual(["rude", "kind"]);
    const rubric = { llm_traits: [outcome.trait] };
    expect(RubricSchema.parse(rubric)).toMatchObject(rubric);
  });

  test.each([
    ["{not json", "The file is not readable JSON"],
    [file([1, 2]), "The file must hold one JSON object"],
    [file({ classes: { a: "A", b: "B" } }), '"trait_name" is required'],
    [file({ trait_name: "t" }), '"classes" must be an object of class name → description'],
    [
      file({ trait_name: "t", classes: ["a", "b"] }),
      '"classes" must be an object of class name → description',
    ],
    [file({ trait_name: "t", classes: { a: "A" } }), "Literal trait must have at least 2 classes"],
    [
      file({
        trait_name: "t",
        classes: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, "d"])),
      }),
      "Literal trait cannot have more than 20 classes",
    ],
    [file({ trait_name: "t", classes: { "": "A", b: "B" } }), "Class names cannot be empty"],
    [file({ trait_name: "t", classes: { a: "", b: "B" } }), "Description for class 'a' cannot be empty"],
    [file({ trait_name: "t", classes: { a: "A", A: "B" } }), "Duplicate class name (case-insensitive): 'A'"],
    [file({ trait_name: "t", classes: { a: 1, b: "B" } }), "The description of class 'a' must be text"],
    [
      file({ trait_name: "Other", classes: { a: "A", b: "B" } }),
      "This rubric already has a trait named 'Other'",
    ],
  ])("%s is refused: %s", (text, error) => {
    expect(parseLiteralImport(text, ["other"])).toEqual({ error });
  });
});
