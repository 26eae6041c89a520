import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { readResultsJson } from "../results/index.js";
import { allTurns, END, Scenario, statusIs } from "../scenario/index.js";
import { runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../test-support/pipeline-context.js";
import { EXIT } from "./cli-io.js";

const ASK = "Which drug inhibits BCL2?";
const PUSH = "Are you sure? Some say ibrutinib.";

let dir: string;
let server: OpenAiTestServer;

/** A scenario benchmark: ask, then push back on a right answer; the drug template checks venetoclax. */
async function scenarioCheckpoint(): Promise<string> {
  const node = (question: string) => ({
    question: { question, raw_answer: "venetoclax", answer_template: DRUG_TEMPLATE },
  });
  const bench = Benchmark.create({ name: "pushback" });
  bench.addScenario(
    new Scenario("drug-pushback")
      .addNode("ask", node(ASK))
      .addNode("push", node(PUSH))
      .addEdge("ask", "push", { when: { verify_result: true } })
      .addEdge("ask", END)
      .addEdge("push", END)
      .setEntry("ask")
      .addOutcome("held-firm", allTurns({ verify_result: true }, { node: "push" }))
      .addOutcome("completed", statusIs("completed")),
  );
  const file = join(dir, "scenarios.jsonld");
  await bench.save(file);
  return file;
}

const readLines = async (file: string) =>
  existsSync(file) ? (await readFile(file, "utf8")).split("\n").filter((line) => line.trim() !== "") : [];

function spawnCli(args: readonly string[]) {
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  return spawn(process.execPath, ["--import", "tsx", main, ...args], {
    stdio: ["ignore", "ignore", "ignore"],
  });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-scenarios-"));
  // Hand-written test replies, not output of any model.
  server = await startOpenAiServer([
    { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: 30 }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("karenina verify on a scenario benchmark", () => {
  test("runs every execution and exports its turn rows with scenario_results", async () => {
    const file = await scenarioCheckpoint();
    const output = join(dir, "run.json");
    const { code, out, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "-o", output, "--replicates", "2"),
    );
    expect(code).toBe(EXIT.ok);
    expect(err).toContain(
      "2 executions (2 completed, 0 at the turn limit, 0 stopped on a failure) · 4 turns",
    );
    const exported = await readResultsJson(output);
    expect(exported.results).toHaveLength(4);
    expect(exported.format === "v2.2" ? exported.scenarioResults : null).toEqual([
      expect.objectContaining({
        scenario_id: "drug-pushback",
        status: "completed",
        path: ["ask", "push"],
        replicate: 1,
        outcome_results: { "held-firm": true, completed: true },
      }),
      expect.objectContaining({ replicate: 2, turn_count: 2 }),
    ]);
    expect(existsSync(`${output}.results.jsonl`)).toBe(false);
    expect(out).toContain("ask → push");
  });

  test("a failing turn makes the run exit 1 naming the execution and its node", async () => {
    await server.close();
    server = await startOpenAiServer([
      { match: { model: "answerer", lastUserIncludes: ASK }, reply: { text: "Venetoclax." }, repeat: true },
      { match: { model: "answerer" }, reply: { status: 500, message: "upstream broke" }, repeat: true },
      { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    ]);
    const file = await scenarioCheckpoint();
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file));
    expect(code).toBe(EXIT.checkFailed);
    expect(err).toMatch(/Scenario 'drug-pushback' stopped at node 'push' \(server_error/);
  });

  test("a run killed mid-scenario resumes with the unfinished executions only", async () => {
    const file = await scenarioCheckpoint();
    const output = join(dir, "run.jsonl");
    const args = scriptedVerifyArgs(
      server.baseURL,
      file,
      "-o",
      output,
      "--replicates",
      "6",
      "--concurrency",
      "1",
    );
    const child = spawnCli(args);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const executions = async () =>
      (await readLines(output)).filter((line) => line.includes('"scenario_execution"'));
    while ((await executions()).length < 2) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    await exited;
    const before = (await executions()).length;
    expect(before).toBeLessThan(6);
    const { code, err } = await runKarenina(...args, "--resume");
    expect(code).toBe(EXIT.ok);
    expect(err).toContain(`resuming: ${before} of 6 executions already done`);
    const summaries = (await executions()).map((line) => JSON.parse(line).scenario_execution);
    expect(summaries.map((s) => s.replicate).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // Every summary's rows are in the log, each once.
    const ids = (await readLines(output)).flatMap((line) => {
      try {
        const value = JSON.parse(line);
        return "metadata" in value ? [value.metadata.result_id as string] : [];
      } catch {
        return [];
      }
    });
    for (const summary of summaries) for (const id of summary.result_ids) expect(ids).toContain(id);
  });

  test("--db saves every turn row into a stored run that karenina results reads back with its scenarios", async () => {
    const file = await scenarioCheckpoint();
    const db = join(dir, "karenina.db");
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--db", db));
    expect(code, err).toBe(EXIT.ok);
    const saved = /saved run (\S+) \(2 results\)/.exec(err);
    expect(saved).not.toBeNull();
    const stored = await runKarenina("results", "--db", db, saved?.[1] ?? "");
    expect(stored.code, stored.err).toBe(EXIT.ok);
    expect(stored.out).toContain("ask → push");
  });

  test("--run-root writes the run directory: results.json with scenario_results, a completed manifest", async () => {
    const file = await scenarioCheckpoint();
    const root = join(dir, "runs");
    const { code, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "--run-root", root, "--run-label", "pushback"),
    );
    expect(code, err).toBe(EXIT.ok);
    const [directory] = await readdir(root);
    expect(directory).toMatch(/^pushback_\d{8}T\d{6}Z$/);
    const manifest = JSON.parse(await readFile(join(root, directory ?? "", "run_manifest.json"), "utf8"));
    expect(manifest.status).toBe("completed");
    const exported = await readResultsJson(join(root, directory ?? "", "results.json"));
    expect(exported.format === "v2.2" ? exported.scenarioResults?.length : null).toBe(1);
  });

  test("--dry-run is refused on a scenario benchmark with a clear message", async () => {
    const file = await scenarioCheckpoint();
    const { code, err } = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--dry-run"));
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("holds scenarios: --dry-run is not available for scenario runs yet");
  });
});
