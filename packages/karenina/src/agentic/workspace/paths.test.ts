import { describe, expect, test } from "vitest";
import {
  candidateName,
  isInside,
  lexicalEscape,
  normaliseWorkspacePath,
  questionDirStem,
  runSuffix,
  runTimestamp,
  safePathComponent,
} from "./paths.js";

describe("working directory names", () => {
  test("the timestamp is local time as YYYYMMDDTHHMMSS, zero-padded", () => {
    expect(runTimestamp(new Date(2025, 11, 31, 23, 5, 9))).toBe("20251231T230509");
    expect(runTimestamp(new Date(2025, 0, 2, 3, 4, 5))).toBe("20250102T030405");
  });

  test("the suffix is run_<timestamp>_pid<pid>, with _rep<N> only for replicates", () => {
    const at = new Date(2025, 0, 2, 3, 4, 5);
    expect(runSuffix(at, 77, null)).toBe("run_20250102T030405_pid77");
    expect(runSuffix(at, 77, 1)).toBe("run_20250102T030405_pid77_rep1");
  });

  test("a taken name is retried with _2, _3, ...", () => {
    expect([1, 2, 3].map((n) => candidateName("t_run", n))).toEqual(["t_run", "t_run_2", "t_run_3"]);
  });

  test("a question id is kept as it is when it can be one directory name", () => {
    expect(questionDirStem("urn:uuid:question-what-is-bcl2-1a2b3c4d")).toBe(
      "urn:uuid:question-what-is-bcl2-1a2b3c4d",
    );
    expect(questionDirStem("a/b")).toBe("a_b");
    expect(questionDirStem("..")).toBe("unknown");
    expect(questionDirStem("a\\b")).toBe("a_b");
  });

  test("the path-component sanitiser keeps letters, digits and -_. and trims ._ at the ends", () => {
    expect(safePathComponent("._ résumé v2.0 _.")).toBe("r_sum__v2.0");
    expect(safePathComponent("___")).toBe("unknown");
  });

  test("a workspace_path is normalised; empty means none", () => {
    expect(normaliseWorkspacePath("./tasks//task_01/")).toBe("tasks/task_01");
    expect(normaliseWorkspacePath("")).toBeNull();
    expect(normaliseWorkspacePath(null)).toBeNull();
    expect(normaliseWorkspacePath("./")).toBe(".");
  });
});

describe("lexical containment", () => {
  test("a directory contains itself and what lies below it, not its siblings or parent", () => {
    expect(isInside("/w", "/w")).toBe(true);
    expect(isInside("/w", "/w/a/b")).toBe(true);
    expect(isInside("/w", "/w/..a")).toBe(true);
    expect(isInside("/w", "/wx")).toBe(false);
    expect(isInside("/w", "/")).toBe(false);
  });

  test("an escape says how the path leaves", () => {
    expect(lexicalEscape("/w", "a/../b")).toBeNull();
    expect(lexicalEscape("/w", "/w/a")).toBeNull();
    expect(lexicalEscape("/w", "a/../../b")).toBe("it climbs out with `..`");
    expect(lexicalEscape("/w", "/etc/passwd")).toBe("it is an absolute path outside it");
  });
});
