import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  DRUG_REPLIES,
  dirPerTest,
  drugBenchmark,
  runKarenina,
  scriptedVerifyArgs,
} from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";
import { parseQuestionIndexes, QuestionRangeError } from "./question-ranges.js";

describe("parseQuestionIndexes", () => {
  test("reads single indexes, inclusive ranges and mixes, sorted and each once", () => {
    expect(parseQuestionIndexes("0,1,2", 5)).toEqual([0, 1, 2]);
    expect(parseQuestionIndexes("1-3", 5)).toEqual([1, 2, 3]);
    expect(parseQuestionIndexes(" 4, 0-1 ,1", 5)).toEqual([0, 1, 4]);
    expect(parseQuestionIndexes("2-2", 5)).toEqual([2]);
  });

  test.each([
    ["-1", "negative indexes are not allowed"],
    ["0--2", "negative indexes are not allowed"],
    ["5", "index 5 is out of range: valid indexes are 0 to 4"],
    ["3-9", "index 9 is out of range"],
    ["3-1", 'range "3-1" starts after it ends'],
    ["one", "is not an index or a range"],
    ["1.5", "is not an index or a range"],
    [",", "give at least one index"],
  ])("refuses %j with a message that says why", (text, message) => {
    expect(() => parseQuestionIndexes(text, 5)).toThrow(QuestionRangeError);
    expect(() => parseQuestionIndexes(text, 5)).toThrow(message);
  });
});

const server = serverPerTest(() => startOpenAiServer(DRUG_REPLIES));
const dir = dirPerTest("karenina-question-ranges-");

/** A checkpoint of q0..q4 where q1 is a draft: the finished questions are q0, q2, q3, q4. */
async function checkpointWithDraft(): Promise<string> {
  const bench = drugBenchmark(5, "ranges");
  bench.markUnfinished("q1");
  const file = join(dir(), "bench.jsonld");
  await bench.save(file);
  return file;
}

async function verifiedIds(file: string, ...extra: string[]): Promise<string[]> {
  const output = join(dir(), `run-${Math.random().toString(36).slice(2)}.jsonl`);
  const { code, err } = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, file, "-o", output, ...extra),
  );
  expect(code, err).toBe(EXIT.ok);
  const rows = (await readFile(output, "utf8")).trim().split("\n");
  return rows.map((line) => JSON.parse(line).metadata.question_id).sort();
}

describe("verify --questions / --question-ids", () => {
  test("--questions indexes the finished questions: a draft takes no index", async () => {
    const file = await checkpointWithDraft();
    expect(await verifiedIds(file, "--questions", "1")).toEqual(["q2"]);
    expect(await verifiedIds(file, "--questions", "0-1,3")).toEqual(["q0", "q2", "q4"]);
  });

  test("--question-ids picks ids; --questions then indexes what they kept (the original's order)", async () => {
    const file = await checkpointWithDraft();
    expect(await verifiedIds(file, "--question-ids", "q3,q0")).toEqual(["q0", "q3"]);
    expect(await verifiedIds(file, "--question-ids", "q3,q4,q0", "--questions", "1-2")).toEqual(["q3", "q4"]);
  });

  test("bad indexes, unknown or unfinished ids and a mix with -q stop before any call, exit 2", async () => {
    const file = await checkpointWithDraft();
    const cases: [string[], string][] = [
      [["--questions", "4"], "--questions: index 4 is out of range: valid indexes are 0 to 3"],
      [["--questions", "-1"], "negative indexes are not allowed"],
      [["--questions", "2-0"], "starts after it ends"],
      [["--question-ids", "q9"], 'has no question "q9"'],
      [["--question-ids", "q1"], 'question "q1" of'],
      [["--questions", "0", "-q", "q0"], "choose questions one way"],
    ];
    for (const [extra, message] of cases) {
      const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, ...extra));
      expect(code, extra.join(" ")).toBe(EXIT.usage);
      expect(err).toContain(message);
    }
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(dir(), "run.jsonl"))).toBe(false);
  });

  test("with --include-drafts the indexes count every question", async () => {
    const file = await checkpointWithDraft();
    expect(await verifiedIds(file, "--include-drafts", "--questions", "1")).toEqual(["q1"]);
  });
});
