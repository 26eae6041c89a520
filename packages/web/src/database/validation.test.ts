import { describe, expect, test } from "vitest";
import {
  benchmarkNameProblem,
  connectionNameProblem,
  databaseNameProblem,
  resultsFileKind,
  runNameProblem,
} from "./validation.js";

describe("the database dialog's validation", () => {
  test("connection names follow the server's rule", () => {
    expect(connectionNameProblem("lab_2-b")).toBeUndefined();
    expect(connectionNameProblem("")).toBe("Give the connection a name.");
    expect(connectionNameProblem("has space")).toMatch(/letters, digits/);
    expect(connectionNameProblem("x".repeat(65))).toMatch(/1 to 64/);
  });

  test("database names are plain file names not taken", () => {
    expect(databaseNameProblem("results")).toBeUndefined();
    expect(databaseNameProblem("  ")).toBe("Give the database a name.");
    expect(databaseNameProblem("../etc/x")).toMatch(/plain file name/);
    expect(databaseNameProblem(".hidden")).toMatch(/plain file name/);
    expect(databaseNameProblem("a\\b")).toMatch(/plain file name/);
    expect(databaseNameProblem("x".repeat(101))).toMatch(/100/);
    expect(databaseNameProblem("lab", ["lab.db"])).toBe("lab.db exists already.");
    expect(databaseNameProblem("lab.db", ["lab.db"])).toBe("lab.db exists already.");
  });

  test("benchmark names are required, bounded and unique in the database", () => {
    expect(benchmarkNameProblem("Pharma")).toBeUndefined();
    expect(benchmarkNameProblem("")).toBe("Give the benchmark a name.");
    expect(benchmarkNameProblem("x".repeat(201))).toMatch(/200/);
    expect(benchmarkNameProblem(" Pharma ", ["Pharma"])).toMatch(/exists already/);
  });

  test("run names are optional and bounded; results files are .jsonl or .json", () => {
    expect(runNameProblem("")).toBeUndefined();
    expect(runNameProblem("x".repeat(201))).toMatch(/200/);
    expect(resultsFileKind("run.JSONL")).toBe("jsonl");
    expect(resultsFileKind("export.json")).toBe("json");
    expect(resultsFileKind("export.csv")).toBeUndefined();
  });
});
