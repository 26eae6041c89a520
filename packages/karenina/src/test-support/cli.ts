/**
 * CLI test helpers: running `karenina` in-process with its output captured, a small benchmark of drug
 * questions (hand-written test data) whose template is the pipeline tests' drug template, its manual traces,
 * the arguments of a `verify` against the scripted server, presets, and an endpoint nothing listens on.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { runCli } from "../cli/program.js";
import { readRunLog } from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import type { ScriptRule } from "./openai-server/index.js";
import { DRUG_TEMPLATE } from "./pipeline-context.js";

/** Runs `karenina ARGS` in-process and returns its exit code, stdout and stderr. */
export async function runKarenina(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** The text of question `q${i}` of {@link drugBenchmark}. */
const drugQuestion = (i: number) => `Which drug inhibits BCL2? (${i})`;

/** A benchmark of `questions` finished questions `q0`, `q1`, ... "Which drug inhibits BCL2? (i)". */
export function drugBenchmark(questions: number, name = "cli-test"): Benchmark {
  const bench = Benchmark.create({ name });
  for (let i = 0; i < questions; i++) {
    bench.addQuestion(drugQuestion(i), "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: DRUG_TEMPLATE,
    });
  }
  return bench;
}

/**
 * Writes to `path` a `--manual-traces` file that answers "Venetoclax." to the first `questions` questions of
 * {@link drugBenchmark}, keyed by the MD5 of each question's text.
 */
export async function writeDrugTraces(path: string, questions: number): Promise<void> {
  const md5 = (text: string) => createHash("md5").update(text).digest("hex");
  const traces: Record<string, string> = {};
  for (let i = 0; i < questions; i++) traces[md5(drugQuestion(i))] = "--- AI Message ---\nVenetoclax.";
  await writeFile(path, JSON.stringify(traces));
}

/** Where the scripted models are served: one base URL for both, or one for each. */
export type ScriptedModelURLs = string | { answerer: string; judge: string };

/**
 * `verify FILE` with the scripted server's models "answerer" and "judge" (`openai_endpoint`) at `baseURL` (one
 * URL for both, or one each), `extra` options, and no progress bar.
 */
export function scriptedVerifyArgs(baseURL: ScriptedModelURLs, file: string, ...extra: string[]): string[] {
  const { answerer, judge } = typeof baseURL === "string" ? { answerer: baseURL, judge: baseURL } : baseURL;
  return [
    "verify",
    file,
    "-a",
    `openai_endpoint:answerer@${answerer}`,
    "-p",
    `openai_endpoint:judge@${judge}`,
    ...extra,
    "--no-progress",
  ];
}

/** `karenina preset save NAME --dir DIR` of the answering model `answering` and the parsing model `parsing`. */
export function savePreset(name: string, dir: string, answering: string, parsing = answering) {
  return runKarenina("preset", "save", name, "--dir", dir, "-a", answering, "-p", parsing);
}

/** The `/v1` base URL of a port on 127.0.0.1 that was just free: connecting to it is refused. */
export async function deadEndpoint(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("the probe has no TCP port");
  return `http://127.0.0.1:${address.port}/v1`;
}

/**
 * Replies of the scripted server for {@link drugBenchmark} runs, hand-written test data: the model "answerer"
 * answers "Venetoclax.", the judge "judge" parses it as venetoclax.
 */
export const DRUG_REPLIES: ScriptRule[] = [
  { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
  { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
];

/**
 * A fresh scratch directory for every test of a file, made before it and removed after it; the function
 * returns the current test's (`const dir = dirPerTest("karenina-x-")` at the top, `join(dir(), "a")` in a test).
 */
export function dirPerTest(prefix: string): () => string {
  let current: string | undefined;
  beforeEach(async () => {
    current = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    if (current !== undefined) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error("the scratch directory exists only inside a test");
    return current;
  };
}

/**
 * Runs every test of a file in one fresh scratch directory as the working directory (made and entered before
 * the first test, left and removed after the last); the function returns its path. For commands that write
 * into the current directory (`karenina demo`).
 */
export function scratchWorkingDir(prefix: string): () => string {
  let home = "";
  let current = "";
  beforeAll(async () => {
    home = process.cwd();
    current = await mkdtemp(join(tmpdir(), prefix));
    process.chdir(current);
  });
  afterAll(async () => {
    process.chdir(home);
    await rm(current, { recursive: true, force: true });
  });
  return () => current;
}

/** No provider key in the environment, whatever the machine running the tests has (`vi.unstubAllEnvs` undoes it). */
export function withoutProviderKeys(): void {
  vi.stubEnv("OPENAI_API_KEY", "");
  vi.stubEnv("ANTHROPIC_API_KEY", "");
}

/** The results of a run log (JSONL) written by a command. */
export async function runLogResults(file: string): Promise<VerificationResult[]> {
  return (await readRunLog<VerificationResult>(file)).results;
}
