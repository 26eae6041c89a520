import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  drugBenchmark,
  runKarenina,
  savePreset,
  scriptedVerifyArgs,
  writeDrugTraces,
} from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";
import { modelFromSpec } from "./verify-command.js";

const run = runKarenina;

let server: OpenAiTestServer;
let dir: string;

async function checkpoint(questions: number): Promise<string> {
  const file = join(dir, "bench.jsonld");
  await drugBenchmark(questions, "cli-verify").save(file);
  return file;
}

/** `verify` of `file` with the scripted server's answerer and judge, no progress bar, and `extra` options. */
const verifyArgs = (file: string, ...extra: string[]) => scriptedVerifyArgs(server.baseURL, file, ...extra);

/** `verify` of `file`, one task at a time, results to `output`. */
const serialRunArgs = (file: string, output: string) => verifyArgs(file, "-o", output, "--concurrency", "1");

/** The CLI in a child process, from its sources (through tsx), with stderr ignored or piped. */
function spawnCli(args: readonly string[], stderr: "ignore" | "pipe") {
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  return spawn(process.execPath, ["--import", "tsx", main, ...args], { stdio: ["ignore", "ignore", stderr] });
}

const readLines = async (file: string) =>
  existsSync(file) ? (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "") : [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-verify-"));
  // Hand-written test replies, not output of any model.
  server = await startOpenAiServer([
    { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: 40 }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("karenina verify", () => {
  test("runs every question, appends each result to --output and prints a one-line summary", async () => {
    const file = await checkpoint(3);
    const output = join(dir, "run.jsonl");
    const { code, err } = await run(
      "verify",
      file,
      "--answering",
      `openai_endpoint:answerer@${server.baseURL}`,
      "--parsing",
      `openai_endpoint:judge@${server.baseURL}`,
      "--output",
      output,
      "--no-progress",
    );
    expect(code).toBe(EXIT.ok);
    const rows = (await readLines(output)).map((line) => JSON.parse(line));
    expect(rows.map((row) => row.metadata.question_id).sort()).toEqual(["q0", "q1", "q2"]);
    expect(rows.every((row) => row.template.verify_result === true)).toBe(true);
    expect(err).toMatch(/3\/3 done · 3 passed, 0 failed · 6 LLM calls, 0 cache hits/);
    expect(err.trim().split("\n")).toHaveLength(1);
  });

  test("with no checkpoint it verifies the bundled example offline from its recorded example responses", async () => {
    const output = join(dir, "example.jsonl");
    const { code, err } = await run("verify", "--no-progress", "--output", output);
    expect(code).toBe(EXIT.ok);
    expect(err).toContain("written by hand for this demo");
    expect(err).toMatch(/5\/5 done · 3 passed, 2 failed · 0 LLM calls \(15 replayed from recordings\)/);
    const rows = (await readLines(output)).map((line) => JSON.parse(line));
    expect(rows.filter((row) => row.metadata.failure?.category === "content")).toHaveLength(2);
    expect(
      rows.every((row) => row.rubric.llm_trait_scores !== null && row.metadata.warnings.length === 0),
    ).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  test("bad model SPECs and missing models are usage errors that show the expected form", async () => {
    const file = await checkpoint(1);
    const unknown = await run("verify", file, "-a", "nosuch:model", "-p", "openai:gpt-4.1-mini");
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err).toContain("interface:model[@base_url]");
    const noJudge = await run("verify", file, "-a", `openai_endpoint:answerer@${server.baseURL}`);
    expect(noJudge.code).toBe(EXIT.usage);
    expect(noJudge.err).toContain("--parsing");
    const noUrl = await run("verify", file, "-a", "openai_endpoint:llama3.1", "-p", "openai:gpt-4.1-mini");
    expect(noUrl.code).toBe(EXIT.usage);
    expect(noUrl.err).toContain("needs @base_url");
  });

  test("model SPECs map to model configs, model names may contain ':'", () => {
    expect(
      modelFromSpec("openai_endpoint:llama3.1:8b@http://127.0.0.1:11434/v1", {}, undefined),
    ).toMatchObject({
      interface: "openai_endpoint",
      model_name: "llama3.1:8b",
      endpoint_base_url: "http://127.0.0.1:11434/v1",
    });
    expect(modelFromSpec("anthropic:claude-haiku-4-5@http://127.0.0.1:9/x", {}, undefined)).toMatchObject({
      anthropic_base_url: "http://127.0.0.1:9/x",
    });
    expect(modelFromSpec("openai_endpoint:m@http://h", { MY_KEY: "k" }, "MY_KEY")).toMatchObject({
      endpoint_api_key: "k",
    });
  });

  test("a run killed mid-way loses no finished result, and --resume finishes it with no duplicate", async () => {
    const total = 8;
    const file = await checkpoint(total);
    const output = join(dir, "run.jsonl");
    const args = serialRunArgs(file, output);
    const child = spawnCli(args, "ignore");
    const exited = new Promise((resolve) => child.on("exit", resolve));
    while ((await readLines(output)).length < 3) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    await exited;
    const before = (await readLines(output)).length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(total);

    const { code, err } = await run(...args, "--resume");
    expect(code).toBe(EXIT.ok);
    expect(err).toContain(`${before} resumed`);
    // A line torn by the kill is skipped by resume, so only whole lines count.
    const ids = (await readLines(output)).flatMap((line) => {
      try {
        return [JSON.parse(line).metadata.question_id as string];
      } catch {
        return [];
      }
    });
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  test("Ctrl-C stops cleanly with exit 130: finished results are kept and the command to resume is printed", async () => {
    const file = await checkpoint(8);
    const output = join(dir, "run.jsonl");
    const child = spawnCli(serialRunArgs(file, output), "pipe");
    let stderr = "";
    child.stderr?.on("data", (chunk) => (stderr += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    while ((await readLines(output)).length < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    expect(await exited).toBe(EXIT.interrupted);
    expect(stderr).toContain("interrupted; resume with:");
    expect(stderr).toContain(`karenina verify ${file}`);
    expect(stderr).toContain("--resume");
    const kept = await readLines(output);
    expect(kept.length).toBeGreaterThanOrEqual(2);
    expect(kept.length).toBeLessThan(8);
    expect(kept.every((line) => JSON.parse(line).metadata.question_id.startsWith("q"))).toBe(true);
  });

  test("--manual-traces answers '-a manual' from a file keyed by the MD5 of each question's text", async () => {
    const file = await checkpoint(2);
    const traces = join(dir, "traces.json");
    await writeDrugTraces(traces, 2);
    const judge = `openai_endpoint:judge@${server.baseURL}`;
    const { code, err } = await run(
      "verify",
      file,
      "-a",
      "manual",
      "--manual-traces",
      traces,
      "-p",
      judge,
      "--no-progress",
    );
    expect(code).toBe(EXIT.ok);
    expect(err).toMatch(/2\/2 done · 2 passed/);
    const chats = server.requests.filter((request) => request.path.endsWith("/chat/completions"));
    expect(chats.every((request) => request.body.model === "judge")).toBe(true);
    const missing = await run("verify", file, "-a", "manual", "-p", judge);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.err).toContain("--manual-traces");
  });

  test("--cache serves a rerun from disk, and --refresh-cache calls the models again", async () => {
    const file = await checkpoint(1);
    const args = verifyArgs(file, "--cache", join(dir, "cache"));
    expect((await run(...args)).err).toContain("2 LLM calls, 0 cache hits");
    expect((await run(...args)).err).toContain("0 LLM calls, 2 cache hits");
    expect((await run(...args, "--refresh-cache")).err).toContain("2 LLM calls, 0 cache hits");
  });

  test("--endpoint-limit caps the calls in flight to one base URL", async () => {
    const file = await checkpoint(4);
    const { code } = await run(...verifyArgs(file, "-c", "4", "--endpoint-limit", `${server.baseURL}=1`));
    expect(code).toBe(EXIT.ok);
    expect(server.peakInFlight.all).toBe(1);
    const bad = await run("verify", file, "-a", "openai:m", "-p", "openai:m", "--endpoint-limit", "nolimit");
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain("expected URL=N");
  });

  test("--output FILE.json writes a format 2.2 export when the run completes, and FILE.csv the CSV export", async () => {
    const file = await checkpoint(2);
    const json = join(dir, "run.json");
    expect((await run(...verifyArgs(file, "-o", json))).code).toBe(EXIT.ok);
    const exported = JSON.parse(await readFile(json, "utf8"));
    expect(exported.format_version).toBe("2.2");
    expect(
      exported.results.map((row: { metadata: { question_id: string } }) => row.metadata.question_id).sort(),
    ).toEqual(["q0", "q1"]);
    expect(existsSync(`${json}.results.jsonl`)).toBe(false);
    const csv = join(dir, "run.csv");
    expect((await run(...verifyArgs(file, "-o", csv))).code).toBe(EXIT.ok);
    const lines = (await readFile(csv, "utf8")).trim().split("\r\n");
    expect(lines[0]?.startsWith("question_id,success,error,question_text")).toBe(true);
    expect(lines).toHaveLength(3);
  });

  test("a preset saved with `preset save` runs with `verify --preset`, keys given again, from KARENINA_PRESETS_DIR", async () => {
    const file = await checkpoint(1);
    const presets = join(dir, "presets");
    const saved = await savePreset(
      "smoke",
      presets,
      `openai_endpoint:answerer@${server.baseURL}`,
      `openai_endpoint:judge@${server.baseURL}`,
    );
    expect(saved.code).toBe(EXIT.ok);
    process.env.KARENINA_PRESETS_DIR = presets;
    try {
      const { code, err } = await run("verify", file, "--preset", "smoke", "--no-progress");
      expect(code).toBe(EXIT.ok);
      expect(err).toMatch(/1\/1 done · 1 passed/);
    } finally {
      delete process.env.KARENINA_PRESETS_DIR;
    }
  });

  test("--fail-under sets the exit code from the pass rate, for CI", async () => {
    const offline = ["verify", "--no-progress"];
    expect((await run(...offline, "--fail-under", "60")).code).toBe(EXIT.ok);
    const below = await run(...offline, "--fail-under", "61");
    expect(below.code).toBe(EXIT.checkFailed);
    expect(below.err).toContain("pass rate 60.0% is below --fail-under 61%");
    expect((await run(...offline, "--fail-under", "120")).code).toBe(EXIT.usage);
  });
});
