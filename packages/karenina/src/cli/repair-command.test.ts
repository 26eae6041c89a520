/**
 * `karenina repair` against runs made on the scripted OpenAI server (hand-written replies, no model output):
 * a run whose judge cannot parse one question's answer, repaired with a judge that can. The answering model
 * is on a server of its own, so the requests it receives during a repair are counted exactly.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { VerificationResult } from "../results/index.js";
import {
  dirPerTest,
  drugBenchmark,
  runKarenina,
  savePreset,
  scriptedVerifyArgs,
} from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";

let answerer: OpenAiTestServer;
let brokenJudge: OpenAiTestServer;
let judge: OpenAiTestServer;

beforeAll(async () => {
  answerer = await startOpenAiServer([
    {
      match: { model: "answerer", lastUserIncludes: "(1)" },
      reply: { text: "Venetoclax, I think." },
      repeat: true,
    },
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
  ]);
  // The judge of the first run rejects the request for q1's answer ("..., I think."): a parsing failure.
  brokenJudge = await startOpenAiServer([
    {
      match: { model: "judge", lastUserIncludes: "I think" },
      reply: { status: 400, message: "bad judge" },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
  judge = await startOpenAiServer([
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});

afterAll(async () => {
  await Promise.all([answerer.close(), brokenJudge.close(), judge.close()]);
});

const dir = dirPerTest("karenina-repair-");

interface Run {
  bench: string;
  results: string;
  preset: string;
  original: string;
}

/** A 3-question run with a parsing failure on q1, and a preset of the same models with the working judge. */
async function failedRun(): Promise<Run> {
  const bench = join(dir(), "bench.jsonld");
  await drugBenchmark(3).save(bench);
  const results = join(dir(), "run.json");
  const made = await runKarenina(
    ...scriptedVerifyArgs({ answerer: answerer.baseURL, judge: brokenJudge.baseURL }, bench, "-o", results),
  );
  expect(made.err).toMatch(/3\/3 done/);
  const presets = join(dir(), "presets");
  const saved = await savePreset(
    "fixed",
    presets,
    `openai_endpoint:answerer@${answerer.baseURL}`,
    `openai_endpoint:judge@${judge.baseURL}`,
  );
  expect(saved.code, saved.err).toBe(EXIT.ok);
  return { bench, results, preset: join(presets, "fixed.json"), original: await readFile(results, "utf8") };
}

/** The row lines of a v2.2 export (one row per line), without the separating commas. */
function rowLines(text: string): string[] {
  const lines = text.split("\n");
  const end =
    lines.indexOf("]}") === -1 ? lines.findIndex((line) => line.startsWith("]")) : lines.indexOf("]}");
  return lines.slice(1, end).map((line) => line.replace(/,$/, ""));
}

const rowOf = (line: string) => JSON.parse(line) as VerificationResult;

const requestCounts = () => ({
  answerer: answerer.requests.length,
  brokenJudge: brokenJudge.requests.length,
  judge: judge.requests.length,
});

describe("karenina repair (replay mode)", () => {
  let run: Run;
  beforeEach(async () => {
    run = await failedRun();
  });

  test("replaces the failed row from its saved answer: zero answering calls, other rows byte for byte", async () => {
    const before = rowLines(run.original);
    expect(before.map((line) => rowOf(line).metadata.failure?.category ?? null)).toEqual([
      null,
      "parsing",
      null,
    ]);
    const calls = requestCounts();
    const { code, out, err } = await runKarenina(
      "repair",
      run.results,
      "--benchmark",
      run.bench,
      "--preset",
      run.preset,
      "--failure-category",
      "parsing",
    );
    expect(code, err).toBe(EXIT.ok);
    expect(out).toContain("repaired 1 of 1 selected row(s) (replay mode)");
    expect(answerer.requests.length, "requests to the answering model").toBe(calls.answerer);
    expect(brokenJudge.requests.length).toBe(calls.brokenJudge);
    expect(judge.requests.length).toBeGreaterThan(calls.judge);

    const after = rowLines(await readFile(run.results, "utf8"));
    expect(after).toHaveLength(3);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    const repaired = rowOf(after[1] as string);
    expect(repaired.metadata.question_id).toBe("q1");
    expect(repaired.metadata.failure).toBeNull();
    expect(repaired.template?.verify_result).toBe(true);
    expect(repaired.template?.raw_llm_response).toBe(rowOf(before[1] as string).template?.raw_llm_response);
    expect(repaired.metadata.run_name).toBe(rowOf(before[1] as string).metadata.run_name);

    const files = await readdir(dir());
    const backup = files.find((name) => /^run\.json\.backup_\d{8}T\d{6}Z$/.test(name));
    const provenance = files.find((name) => /^run\.json\.repair_\d{8}T\d{6}Z\.json$/.test(name));
    expect(backup, files.join(", ")).toBeDefined();
    expect(provenance, files.join(", ")).toBeDefined();
    expect(await readFile(join(dir(), backup as string), "utf8")).toBe(run.original);
    const record = JSON.parse(await readFile(join(dir(), provenance as string), "utf8"));
    expect(record).toMatchObject({
      schema_version: "1.0",
      mode: "replay",
      source_sha256: createHash("sha256").update(run.original).digest("hex"),
      selected_count: 1,
      replaced_count: 1,
    });
    expect(record.selected_keys).toEqual([
      `q1|openai_endpoint:answerer:|openai_endpoint:judge:|none|${rowOf(before[1] as string).metadata.run_name}`,
    ]);
  });

  test("--dry-run lists the selected rows and writes nothing, calls nothing", async () => {
    const files = await readdir(dir());
    const calls = requestCounts();
    const { code, out, err } = await runKarenina(
      "repair",
      run.results,
      "--benchmark",
      run.bench,
      "--preset",
      run.preset,
      "--failure-group",
      "system",
      "--dry-run",
      "--json",
    );
    expect(code, err).toBe(EXIT.ok);
    const outcome = JSON.parse(out);
    expect(outcome).toMatchObject({ dry_run: true, selected_count: 1, replaced_count: 0, backup_path: null });
    expect(outcome.selected_keys[0]).toMatch(/^q1\|/);
    expect(await readdir(dir())).toEqual(files);
    expect(await readFile(run.results, "utf8")).toBe(run.original);
    expect(requestCounts()).toEqual(calls);
  });

  test("--output writes elsewhere: the source is untouched and no backup is made", async () => {
    const output = join(dir(), "repaired.json");
    const { code, err } = await runKarenina(
      "repair",
      run.results,
      "--benchmark",
      run.bench,
      "--preset",
      run.preset,
      "--question-id",
      "q1",
      "--output",
      output,
    );
    expect(code, err).toBe(EXIT.ok);
    expect(await readFile(run.results, "utf8")).toBe(run.original);
    const files = await readdir(dir());
    expect(files.some((name) => name.includes(".backup_"))).toBe(false);
    expect(files.some((name) => /^repaired\.json\.repair_.*\.json$/.test(name))).toBe(true);
    expect(rowLines(await readFile(output, "utf8")).map((line) => rowOf(line).metadata.failure)).toEqual([
      null,
      null,
      null,
    ]);
  });

  test("live mode asks the answering model again for the selected rows only", async () => {
    const calls = requestCounts();
    const { code, err } = await runKarenina(
      "repair",
      run.results,
      "--benchmark",
      run.bench,
      "--preset",
      run.preset,
      "--question-id",
      "q1",
      "--mode",
      "live",
    );
    expect(code, err).toBe(EXIT.ok);
    const asked = answerer.requests.slice(calls.answerer);
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0]?.body)).toContain("(1)");
  });
});

describe("karenina repair refuses", () => {
  test("without a filter, or with an unknown mode: usage (exit 2)", async () => {
    const none = await runKarenina("repair", "run.json", "--benchmark", "b.jsonld", "--preset", "p.json");
    expect(none.code).toBe(EXIT.usage);
    expect(none.err).toMatch(/at least one filter .* or --all/);
    const mode = await runKarenina(
      "repair",
      "run.json",
      "--benchmark",
      "b.jsonld",
      "--preset",
      "p",
      "--all",
      "--mode",
      "x",
    );
    expect(mode.code).toBe(EXIT.usage);
    expect(mode.err).toContain("--mode: expected replay or live");
  });

  test("a selection that matches nothing, or a preset without the rows' judge: exit 1, nothing written", async () => {
    const run = await failedRun();
    const files = await readdir(dir());
    const nothing = await runKarenina(
      "repair",
      run.results,
      "--benchmark",
      run.bench,
      "--preset",
      run.preset,
      "--question-id",
      "q9",
    );
    expect(nothing.code).toBe(EXIT.checkFailed);
    expect(nothing.err).toMatch(/no row of the 3 matches the filters/);
    const other = await savePreset(
      "other",
      join(dir(), "presets"),
      `openai_endpoint:answerer@${answerer.baseURL}`,
      `openai_endpoint:referee@${judge.baseURL}`,
    );
    expect(other.code, other.err).toBe(EXIT.ok);
    const missing = await runKarenina(
      "repair",
      run.results,
      "--benchmark",
      run.bench,
      "--preset",
      join(dir(), "presets", "other.json"),
      "--all",
    );
    expect(missing.code).toBe(EXIT.checkFailed);
    expect(missing.err).toContain("the preset has no parsing model openai_endpoint:judge:");
    expect(await readdir(dir())).toEqual(files);
    expect(await readFile(run.results, "utf8")).toBe(run.original);
  });

  test("a CSV source (no traces to replay): exit 1", async () => {
    const csv = join(dir(), "run.csv");
    await writeFile(csv, "question_id\n");
    const { code, err } = await runKarenina(
      "repair",
      csv,
      "--benchmark",
      "b.jsonld",
      "--preset",
      "p",
      "--all",
    );
    expect(code).toBe(EXIT.checkFailed);
    expect(err).toContain("a CSV export keeps no traces to replay");
  });
});
