import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { RunQuestion } from "./checkpoint-questions.js";
import {
  MAX_TRACE_FILE_BYTES,
  manualTraceProblems,
  questionsWithoutTrace,
  traceCsvMapper,
  traceTemplate,
} from "./manual-traces.js";
import { md5Hex } from "./md5.js";

const nodeMd5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

test("md5Hex matches Node's MD5 on empty, ASCII, Unicode and block-boundary texts", () => {
  const texts = [
    "",
    "a",
    "Which drug inhibits BCL2? (0)",
    "ÅÄÖ — 日本語 🧪",
    "x".repeat(55),
    "y".repeat(56),
    "z".repeat(64),
    "w".repeat(1000),
  ];
  for (const text of texts) expect(md5Hex(text)).toBe(nodeMd5(text));
});

const question = (id: string, text: string, finished = true): RunQuestion => ({
  id,
  text,
  answer: "",
  finished,
  lastModified: null,
  hash: md5Hex(text),
  fewShotExamples: [],
});

describe("manual trace file checks (spec 07 §1.5)", () => {
  const key = nodeMd5("Q1");
  test("a string trace and a message-list trace keyed by MD5 pass", () => {
    const file = JSON.stringify({
      [key]: "Venetoclax.",
      [nodeMd5("Q2")]: [{ role: "assistant", content: "x" }],
    });
    expect(manualTraceProblems(file, file.length)).toEqual([]);
  });
  test("a file over 50 MB is refused before it is read", () => {
    expect(manualTraceProblems("{}", MAX_TRACE_FILE_BYTES + 1)[0]).toMatch(/limit is 50 MB/);
  });
  test("not JSON, not an object, a key that is not 32 hex characters, a value that is not a trace", () => {
    expect(manualTraceProblems("{", 1)[0]).toMatch(/not JSON/);
    expect(manualTraceProblems("[]", 2)[0]).toMatch(/JSON object/);
    expect(manualTraceProblems(JSON.stringify({ "urn:q1": "x" }), 10)[0]).toMatch(/not 32 hex/);
    expect(manualTraceProblems(JSON.stringify({ [key]: 42 }), 10)[0]).toMatch(/neither a string nor a list/);
    expect(manualTraceProblems("{}", 2)[0]).toMatch(/no trace/);
  });
});

test("template and CSV mapper list the finished questions by the MD5 of their text", () => {
  const questions = [question("q1", 'Says "hi", then, more'), question("q2", "Not finished", false)];
  expect(JSON.parse(traceTemplate(questions))).toEqual({ [nodeMd5('Says "hi", then, more')]: "" });
  expect(traceCsvMapper(questions)).toBe(
    `Question Hash,Raw Question\n${nodeMd5('Says "hi", then, more')},"Says ""hi"", then, more"\n`,
  );
  expect(questionsWithoutTrace(questions, {}).map((q) => q.id)).toEqual(["q1"]);
  expect(questionsWithoutTrace(questions, { [nodeMd5('Says "hi", then, more')]: "x" })).toEqual([]);
});
