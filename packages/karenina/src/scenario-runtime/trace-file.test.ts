import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Message } from "../llm/index.js";
import { ScenarioRuntimeError } from "./errors.js";
import { materializeTrace, scenarioTraceFileName, traceOffloadThreshold } from "./trace-file.js";

describe("traceOffloadThreshold (spec 08 §2.1)", () => {
  test("2000 without the variable; an integer as Python reads one otherwise", () => {
    expect(traceOffloadThreshold({})).toBe(2000);
    expect(traceOffloadThreshold({ KARENINA_TRACE_TRUNCATION_THRESHOLD: "40" })).toBe(40);
    expect(traceOffloadThreshold({ KARENINA_TRACE_TRUNCATION_THRESHOLD: " +1_000\n" })).toBe(1000);
    expect(traceOffloadThreshold({ KARENINA_TRACE_TRUNCATION_THRESHOLD: "-1" })).toBe(-1);
  });

  test("a value that is not an integer gives a warning and the default", () => {
    for (const value of ["abc", "40.5", "", "1__0", "_1"]) {
      const warnings: string[] = [];
      expect(
        traceOffloadThreshold({ KARENINA_TRACE_TRUNCATION_THRESHOLD: value }, (m) => warnings.push(m)),
      ).toBe(2000);
      expect(warnings).toEqual([
        `Invalid KARENINA_TRACE_TRUNCATION_THRESHOLD=${value}: not an integer; using the default 2000`,
      ]);
    }
  });
});

describe("scenarioTraceFileName", () => {
  test("characters outside [A-Za-z0-9_-] become _, one per character; the turn is optional", () => {
    expect(scenarioTraceFileName("judge_e875a6f1c9_handover", 2)).toBe(
      "judge_e875a6f1c9_handover_turn2_trace.txt",
    );
    expect(scenarioTraceFileName("urn:uuid:q-1", null)).toBe("urn_uuid_q-1_trace.txt");
    expect(scenarioTraceFileName("a 😀/b", 0)).toBe("a___b_turn0_trace.txt");
  });
});

describe("materializeTrace (spec 08 §4.10.4)", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-trace-file-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("a banner, the question context and the history of messages, under <dir>/traces/", async () => {
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "Q" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "A" },
          { type: "tool_use", id: "c", name: "f", input: {} },
          { type: "text", text: "B" },
        ],
      },
    ];
    const path = await materializeTrace("Plain question", history, dir, "q:1", 3);
    expect(path).toBe(join(dir, "traces", "q_1_turn3_trace.txt"));
    const text = await readFile(path, "utf8");
    const banner = text.slice(0, text.indexOf("\n\n") + 2);
    expect(
      banner
        .split("\n")
        .slice(0, -2)
        .every((line) => line.startsWith("#")),
    ).toBe(true);
    expect(banner).toContain("KARENINA CONVERSATION TRACE");
    expect(text.slice(banner.length)).toBe(
      "# QUESTION CONTEXT\n# =================\nPlain question\n\n" +
        `# CONVERSATION HISTORY (prior scenario turns)\n# ${"=".repeat(44)}\n` +
        "--- User Message ---\nQ\n\n--- Assistant Message ---\nA\nB\n\n",
    );
  });

  test("without history there is no history section; an existing file is replaced; no temporary file is left", async () => {
    await materializeTrace("first", [], dir, "q", null);
    const path = await materializeTrace("second", [], dir, "q", null);
    const text = await readFile(path, "utf8");
    expect(text).toContain("# QUESTION CONTEXT\n# =================\nsecond\n\n");
    expect(text).not.toContain("first");
    expect(text).not.toContain("# CONVERSATION HISTORY (prior scenario turns)");
    expect(await readdir(join(dir, "traces"))).toEqual(["q_trace.txt"]);
  });

  test("without a directory: a fresh karenina_traces_* temporary directory and no offloading", async () => {
    const transcript = `[__user__] Q\n[a:assistant:text] ${"x".repeat(100)}\n\n---\n\n`;
    const path = await materializeTrace(transcript, [], null, "q", 1, { threshold: 10 });
    try {
      expect(basename(dirname(path)).startsWith("karenina_traces_")).toBe(true);
      expect(dirname(dirname(path))).toBe(tmpdir());
      const text = await readFile(path, "utf8");
      expect(text).toContain(`    <text>\n      ${"x".repeat(100)}\n    </text>`);
      expect(await readdir(dirname(path))).toEqual(["q_turn1_trace.txt"]);
    } finally {
      await rm(dirname(path), { recursive: true, force: true });
    }
  });

  test("a directory that cannot be created is a ScenarioRuntimeError naming the file", async () => {
    const blocker = join(dir, "a-file");
    await writeFile(blocker, "");
    const failure = materializeTrace("Q", [], blocker, "q", 0);
    await expect(failure).rejects.toBeInstanceOf(ScenarioRuntimeError);
    await expect(failure).rejects.toThrow(`${join(blocker, "traces", "q_turn0_trace.txt")} (ENOTDIR)`);
  });
});
