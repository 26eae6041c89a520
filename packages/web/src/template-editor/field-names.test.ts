import { describe, expect, test } from "vitest";
import { checkFieldName } from "./field-names.js";

describe("field name rules (spec 07 §1.3.6)", () => {
  test("a snake_case identifier is fine", () => {
    expect(checkFieldName("target_gene", ["dose"])).toEqual({ errors: [], warnings: [] });
  });

  test.each([
    ["", "The name is empty"],
    ["   ", "The name is empty"],
    ["2nd_gene", "The name starts with a digit"],
    ["gene-name", "The name is not a Python identifier (letters, digits and _ only)"],
    ["class", '"class" is a Python keyword'],
    ["model_name", '"model_name" is reserved by Pydantic (names starting with model_ included)'],
    ["schema", '"schema" is reserved by Pydantic (names starting with model_ included)'],
    ["correct", '"correct" is reserved by the answer base class'],
    ["id", '"id" is reserved by the answer base class'],
    ["verify", '"verify" is reserved by the answer base class'],
    ["_hidden", "The name starts with _ (private names are not fields)"],
    ["dose", 'Another field is named "dose"'],
  ])("%j is an error: %s", (name, error) => {
    expect(checkFieldName(name, ["dose"]).errors).toContain(error);
  });

  test.each([
    ["list", '"list" shadows a Python builtin'],
    ["gene__name", "The name contains a double underscore"],
    ["targetGene", "The name is not snake_case"],
    ["a".repeat(41), "The name is long (over 40 characters)"],
    ["x", "The name is a single character"],
  ])("%j is a warning: %s", (name, warning) => {
    const check = checkFieldName(name, []);
    expect(check.errors).toEqual([]);
    expect(check.warnings).toContain(warning);
  });

  test("an erroneous name gets no warnings on top of its errors", () => {
    expect(checkFieldName("9", [])).toEqual({ errors: ["The name starts with a digit"], warnings: [] });
  });
});
