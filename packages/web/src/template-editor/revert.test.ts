import { describe, expect, test } from "vitest";
import { minimalChange } from "./code/codemirror.js";
import { revertActions, startingBaseline } from "./revert.js";

describe("revert and diff baseline (spec 07 §1.3.7)", () => {
  test("nothing to revert when the text is both the saved and the original one", () => {
    expect(revertActions("a", "a", "a")).toEqual([]);
  });

  test("one Revert when only the saved text differs, or both equal ones", () => {
    expect(revertActions("b", "a", "b")).toEqual([{ label: "Revert", text: "a" }]);
    expect(revertActions("c", "a", "a")).toEqual([{ label: "Revert", text: "a" }]);
    expect(revertActions("b", "b", "a")).toEqual([{ label: "Revert", text: "a" }]);
  });

  test("Revert to Original and Revert to Saved when the text differs from two different texts", () => {
    expect(revertActions("c", "b", "a")).toEqual([
      { label: "Revert to Original", text: "a" },
      { label: "Revert to Saved", text: "b" },
    ]);
  });

  test("the diff starts on Saved when the text differs from it, else on Original", () => {
    expect(startingBaseline("c", "b")).toBe("saved");
    expect(startingBaseline("b", "b")).toBe("original");
  });
});

describe("bringing the code view to a new value", () => {
  test("replaces only what differs, so a cursor outside the change keeps its place", () => {
    expect(minimalChange("class A:\n    x = 1\n", "class A:\n    x = 42\n")).toEqual({
      from: 17,
      to: 18,
      insert: "42",
    });
    expect(minimalChange("abc", "abc")).toBeNull();
    expect(minimalChange("aaa", "aaaa")).toEqual({ from: 3, to: 3, insert: "a" });
    expect(minimalChange("abcd", "")).toEqual({ from: 0, to: 4, insert: "" });
  });
});
