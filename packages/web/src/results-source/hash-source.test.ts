import { describe, expect, test } from "vitest";
import { hashOfSource, sourceOfHash } from "./hash-source.js";

describe("sourceOfHash", () => {
  test("reads the run, database and label of the address `karenina view` prints", () => {
    expect(sourceOfHash("#/benchmark?run=r-1&label=Run%20nightly")).toEqual({
      db: null,
      runIds: ["r-1"],
      label: "Run nightly",
    });
    expect(sourceOfHash("#/benchmark?db=lab&run=a&run=b")).toEqual({
      db: "lab",
      runIds: ["a", "b"],
      label: "2 runs",
    });
    expect(sourceOfHash("#/benchmark?run=x")?.label).toBe("Run x");
  });

  test("names no source for a plain tab route, another tab or a hash without a run", () => {
    expect(sourceOfHash("#/benchmark")).toBeUndefined();
    expect(sourceOfHash("#/curate?run=x")).toBeUndefined();
    expect(sourceOfHash("#/benchmark?db=lab&run=")).toBeUndefined();
    expect(sourceOfHash("")).toBeUndefined();
  });

  test("round-trips what hashOfSource writes, odd characters included", () => {
    const source = { db: "my db&co", runIds: ["r/1", "r#2"], label: "Runs = ?" };
    expect(sourceOfHash(hashOfSource(source))).toEqual(source);
  });
});
