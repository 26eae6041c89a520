import { describe, expect, test } from "vitest";
import { attributeTypeText, groundTruthProblem, parseAttributeType } from "./attribute-type.js";

describe("parseAttributeType", () => {
  test("reads the simple types and both spellings of a list of strings", () => {
    for (const [text, kind] of [
      ["bool", "bool"],
      [" int ", "int"],
      ["float", "float"],
      ["str", "str"],
      ["List[str]", "list_str"],
      ["list[ str ]", "list_str"],
      ["typing.List[str]", "list_str"],
    ] as const) {
      expect(parseAttributeType(text)).toEqual({ ok: true, type: { kind } });
    }
  });

  test("reads Literal options quoted either way, escapes included", () => {
    expect(parseAttributeType(`Literal["yes", 'no', 'it\\'s']`)).toEqual({
      ok: true,
      type: { kind: "literal", values: ["yes", "no", "it's"] },
    });
  });

  test("refuses Dict types by name, in any spelling", () => {
    for (const text of ["Dict[str, str]", "dict[str, int]", "Dict"]) {
      const read = parseAttributeType(text);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.problem).toMatch(/^Dict types are not allowed/);
    }
  });

  test("refuses other types and malformed Literals, saying what is allowed", () => {
    expect(parseAttributeType("Optional[int]")).toEqual({
      ok: false,
      problem: `expected one of bool, int, float, str, List[str] or Literal['a', 'b', ...], found "Optional[int]"`,
    });
    expect(parseAttributeType("Literal[yes, no]").ok).toBe(false);
    expect(parseAttributeType("Literal['a', 'a']").ok).toBe(false);
    expect(parseAttributeType("Literal[]").ok).toBe(false);
  });

  test("writes Literal options in Python quoting", () => {
    expect(attributeTypeText({ kind: "literal", values: ["I", "it's"] })).toBe(`Literal['I', "it's"]`);
  });
});

describe("groundTruthProblem", () => {
  test("accepts a value of the type and names what the type needs otherwise", () => {
    expect(groundTruthProblem({ kind: "int" }, 400)).toBeNull();
    expect(groundTruthProblem({ kind: "int" }, 4.5)).toBe("an integer");
    expect(groundTruthProblem({ kind: "bool" }, "yes")).toBe("true or false");
    expect(groundTruthProblem({ kind: "str" }, "  ")).toBe("a non-empty string");
    expect(groundTruthProblem({ kind: "list_str" }, ["a", 1])).toBe("a non-empty list of strings");
    expect(groundTruthProblem({ kind: "literal", values: ["I", "II"] }, "III")).toBe('one of "I", "II"');
  });
});
