import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import {
  assistantMessage,
  ManualTraceError,
  ManualTraces,
  parseManualTraces,
  questionHash,
  readManualTracesFile,
  systemMessage,
  toolResultMessage,
  userMessage,
} from "../index.js";

const QUESTION = "Which gene does venetoclax target?";
const HASH = questionHash(QUESTION);

describe("registering traces", () => {
  test("a trace registered by hash is found by the question's text", () => {
    const traces = new ManualTraces();
    traces.registerTrace(HASH, "--- AI Message ---\nBCL2");
    expect(traces.forQuestion(QUESTION)).toEqual({
      trace: "--- AI Message ---\nBCL2",
      messages: null,
      agentMetrics: null,
    });
    expect(HASH).toMatch(/^[0-9a-f]{32}$/);
  });

  test("an upper-case hash is accepted and stored lower-case", () => {
    const traces = new ManualTraces();
    expect(traces.registerTrace(HASH.toUpperCase(), "x")).toBe(HASH);
    expect(traces.has(HASH)).toBe(true);
  });

  test("mapToId registers by the exact question text of a benchmark question", () => {
    const traces = new ManualTraces({ questions: [{ text: QUESTION }] });
    expect(traces.registerTrace(QUESTION, "BCL2", { mapToId: true })).toBe(HASH);
    const error = thrown(ManualTraceError, () =>
      traces.registerTrace(QUESTION.toLowerCase(), "BCL2", { mapToId: true }),
    );
    expect(error.message).toMatch(/no benchmark question has the text .* exact text, case and whitespace/);
  });

  test("a key that is not an MD5 is refused, naming the key", () => {
    const error = thrown(ManualTraceError, () => new ManualTraces().registerTrace("q1", "BCL2"));
    expect(error.key).toBe("q1");
    expect(error.message).toMatch(/"q1" is not a 32-character hexadecimal MD5/);
  });

  test("a message trace is rendered without the question and counted into agent metrics", () => {
    const traces = new ManualTraces();
    traces.registerTrace(HASH, [
      systemMessage("You are an expert."),
      userMessage(QUESTION),
      assistantMessage("Let me look it up.", [{ id: "1", name: "search", input: { query: "venetoclax" } }]),
      toolResultMessage("1", "HTTP 404 not found", false),
      assistantMessage("BCL2"),
    ]);
    const record = traces.get(HASH);
    expect(record?.trace).toBe(
      [
        "--- AI Message ---\nLet me look it up.\nTool Calls:\n  search (call_1)\n   Call ID: 1\n   Args: {'query': 'venetoclax'}",
        "--- Tool Message (call_id: 1) ---\nHTTP 404 not found",
        "--- AI Message ---\nBCL2",
      ].join("\n\n"),
    );
    expect(record?.agentMetrics).toEqual({
      iterations: 2,
      tool_calls: 1,
      tools_used: ["search"],
      tool_call_counts: { search: 1 },
      suspect_failed_tool_calls: 1,
      suspect_failed_tools: ["search"],
      limit_reached: false,
    });
  });
});

describe("the manual-traces file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "karenina-manual-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test("a file of {md5: trace} loads every trace", async () => {
    const path = join(dir, "traces.json");
    await writeFile(path, JSON.stringify({ [HASH]: "--- AI Message ---\nBCL2" }));
    const traces = await readManualTracesFile(path);
    expect(traces.hashes()).toEqual([HASH]);
  });

  test("errors name the file and the key", async () => {
    const cases: [string, RegExp][] = [
      ["[1, 2]", /traces\.json: expected an object \{md5 of question text: trace\}, found an array of 2/],
      ['{"not-a-hash": "x"}', /traces\.json: key "not-a-hash" is not a 32-character hexadecimal MD5/],
      [
        `{"${HASH}": ""}`,
        new RegExp(`traces\\.json: ${HASH}: expected a non-empty trace string, found a string ""`),
      ],
      [`{"${HASH}": 3}`, /expected a non-empty trace string, found the number 3/],
      ["{oops", /traces\.json: not valid JSON/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseManualTraces(text, "traces.json")).toThrow(message);
    }
    const missing = await readManualTracesFile(join(dir, "absent.json")).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ManualTraceError);
    expect((missing as ManualTraceError).message).toMatch(
      /absent\.json: cannot read the manual traces \(ENOENT\)/,
    );
  });
});
