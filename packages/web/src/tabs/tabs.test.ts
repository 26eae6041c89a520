import { describe, expect, test } from "vitest";
import { hashOf, TABS, tabIndexAfterKey, tabOfHash } from "./tabs.js";

describe("the tabs' hash routes", () => {
  test("each tab round-trips through its hash", () => {
    for (const tab of TABS) expect(tabOfHash(hashOf(tab.id))).toBe(tab.id);
    expect(TABS.map((tab) => hashOf(tab.id))).toEqual(["#/generate", "#/curate", "#/benchmark", "#/docs"]);
  });

  test("a deeper route still names its tab; an unknown or empty hash names none", () => {
    expect(tabOfHash("#/benchmark/results")).toBe("benchmark");
    for (const hash of ["", "#", "#/", "#/nothing", "#benchmark", "#/constructor", "#/__proto__"]) {
      expect(tabOfHash(hash)).toBeUndefined();
    }
  });
});

describe("moving between tabs by keyboard", () => {
  test("arrows wrap around; Home and End jump; other keys do not move", () => {
    expect(tabIndexAfterKey(0, "ArrowRight", 4)).toBe(1);
    expect(tabIndexAfterKey(3, "ArrowRight", 4)).toBe(0);
    expect(tabIndexAfterKey(0, "ArrowLeft", 4)).toBe(3);
    expect(tabIndexAfterKey(2, "Home", 4)).toBe(0);
    expect(tabIndexAfterKey(1, "End", 4)).toBe(3);
    expect(tabIndexAfterKey(1, "Enter", 4)).toBeUndefined();
    expect(tabIndexAfterKey(1, "ArrowDown", 4)).toBeUndefined();
  });
});
