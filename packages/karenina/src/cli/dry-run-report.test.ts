/**
 * `karenina verify --dry-run` against the scripted OpenAI-compatible server on 127.0.0.1: the dry run must
 * not send it a single request. Its replies (used only by the run that fills a cache) are hand-written test
 * data, not output of any model.
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { DryRunPlan } from "../pipeline/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";
import { runCli } from "./program.js";

let server: OpenAiTestServer;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-dry-run-"));
  server = await startOpenAiServer([
    {
      match: { model: "answerer" },
      reply: { text: "Venetoclax.", usage: { prompt_tokens: 20, completion_tokens: 42 } },
      repeat: true,
    },
    {
      match: { model: "judge" },
      reply: { json: { drug: "venetoclax" }, usage: { prompt_tokens: 200, completion_tokens: 9 } },
      repeat: true,
    },
  ]);
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function checkpoint(questions: number): Promise<string> {
  const file = join(dir, "bench.jsonld");
  await drugBenchmark(questions, "cli-dry-run").save(file);
  return file;
}

const files = async () => (await readdir(dir, { recursive: true })).sort();

describe("karenina verify --dry-run", () => {
  test("calls no model, writes no file and prints the plan with its totals", async () => {
    const file = await checkpoint(3);
    const before = await files();
    const output = join(dir, "run.jsonl");
    const { code, out } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "--dry-run", "-o", output, "--cache", join(dir, "cache")),
    );
    expect(code).toBe(EXIT.ok);
    expect(server.requests).toHaveLength(0);
    expect(await files()).toEqual(before);
    expect(out).toContain("nothing was called and no file was written");
    expect(out).toMatch(/^ {2}tasks +3 {2}\(3 questions × 1 model pair × 1 replicate\)$/m);
    expect(out).toMatch(/^ {2}openai_endpoint:answerer +openai_endpoint:judge +3$/m);
    expect(out).toMatch(/^ {2}answer_generation +3 +[\d,]+ +900$/m);
    expect(out).toMatch(/^ {2}parsing +3 +[\d,]+ +75$/m);
    expect(out).toMatch(/^ {2}total +6 +[\d,]+ +975$/m);
    expect(out).toMatch(/^ {2}openai_endpoint:judge +parsing +3 .* unpriced$/m);
    expect(out).toMatch(/^Assumptions\n {2}- Nothing was called\./m);
  });

  test("--json prints the plan as JSON, priced with --prices", async () => {
    const file = await checkpoint(2);
    const prices = join(dir, "prices.json");
    await writeFile(
      prices,
      JSON.stringify({
        answerer: { input_per_million: 1, output_per_million: 4 },
        judge: { input_per_million: 2, output_per_million: 8 },
      }),
    );
    const { code, out } = await runKarenina(
      ...scriptedVerifyArgs(
        server.baseURL,
        file,
        "-p",
        `openai_endpoint:judge2@${server.baseURL}`,
        "--abstention",
        "--prices",
        prices,
        "--dry-run",
        "--json",
      ),
    );
    expect(code).toBe(EXIT.ok);
    expect(server.requests).toHaveLength(0);
    const plan = JSON.parse(out) as DryRunPlan;
    expect(plan.tasks).toBe(4);
    expect(plan.answersGenerated).toBe(2);
    expect(plan.stages.map((stage) => [stage.stage, stage.calls])).toEqual([
      ["answer_generation", 2],
      ["abstention", 4],
      ["parsing", 4],
    ]);
    expect(plan.totals.calls).toBe(10);
    const [answering, judge, judge2] = plan.models;
    expect(answering?.costUsd).toBeCloseTo(
      ((answering?.inputTokens ?? 0) + 4 * (answering?.outputTokens ?? 0)) / 1e6,
      12,
    );
    expect(judge?.costUsd).toBeCloseTo(
      (2 * (judge?.inputTokens ?? 0) + 8 * (judge?.outputTokens ?? 0)) / 1e6,
      12,
    );
    expect(judge2).toMatchObject({ model: "openai_endpoint:judge2", costUsd: null });
    expect(plan.totals.unpricedModels).toEqual(["openai_endpoint:judge2"]);
    expect(plan.assumptions.length).toBeGreaterThan(3);
  });

  test("with --cache, output tokens are the mean of the cache's earlier calls", async () => {
    const file = await checkpoint(2);
    const cache = join(dir, "cache");
    const first = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--cache", cache));
    expect(first.code).toBe(EXIT.ok);
    const made = server.requests.length;
    const { code, out } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "--cache", cache, "--dry-run", "--json"),
    );
    expect(code).toBe(EXIT.ok);
    expect(server.requests).toHaveLength(made);
    const plan = JSON.parse(out) as DryRunPlan;
    expect(plan.outputTokens).toEqual([
      { kind: "answer_generation", calls: 2, outputTokens: 84, source: "cache", cacheSamples: 2 },
      { kind: "parsing", calls: 2, outputTokens: 18, source: "cache", cacheSamples: 2 },
    ]);
  });

  test("with --resume, the tasks already in the run log are left out", async () => {
    const file = await checkpoint(3);
    const output = join(dir, "run.jsonl");
    const first = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "-q", "q0", "-o", output));
    expect(first.code).toBe(EXIT.ok);
    const { out } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "-o", output, "--resume", "--dry-run", "--json"),
    );
    const plan = JSON.parse(out) as DryRunPlan;
    expect(plan.tasks).toBe(2);
    expect(plan.assumptions).toContain("Left out: 1 finished task of the run being resumed.");
  });

  test("--agentic-parsing --workspace-root prints the agent turns and agentic stages, calling nothing", async () => {
    const file = await checkpoint(2);
    const before = await files();
    const root = join(dir, "workspaces");
    const { code, out } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "--agentic-parsing", "--workspace-root", root, "--dry-run"),
    );
    expect(code).toBe(EXIT.ok);
    expect(server.requests).toHaveLength(0);
    expect(await files()).toEqual(before);
    // 2 answers of 5 agent turns, 2 investigations of 5 turns, 2 extractions; no plain parsing call.
    expect(out).toMatch(/^ {2}answer_generation +10 +[\d,]+ +1,080$/m);
    expect(out).toMatch(/^ {2}agentic_parsing_investigation +10 +[\d,]+ +[\d,]+$/m);
    expect(out).toMatch(/^ {2}agentic_parsing_extraction +2 +[\d,]+ +50$/m);
    const stageTable = out.slice(out.indexOf("LLM calls per stage"), out.indexOf("Estimated cost"));
    expect(stageTable).not.toMatch(/^ {2}parsing /m);
    expect(out).toMatch(/^ {2}agent_turn +16 +60 +default$/m);
    expect(out).toContain("5 model turns each");
    expect(out).not.toContain("Not estimated");
  });

  test("--json without --dry-run is a usage error, and --help shows a dry-run example", async () => {
    const file = await checkpoint(1);
    const misuse = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--json"));
    expect(misuse.code).toBe(EXIT.usage);
    expect(misuse.err).toContain("--json needs --dry-run");
    const help = await runKarenina("verify", "--help");
    expect(help.out).toContain("--dry-run");
    expect(help.out).toMatch(/karenina verify .*--dry-run/);
  });

  test("-r above 1,000 replicates is a usage error at once, not minutes of silent planning", async () => {
    const file = await checkpoint(2);
    const started = Date.now();
    const { code, out, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "-r", "99999999", "--dry-run"),
    );
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toContain("--replicates: at most 1,000, found 99999999");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a preset's replicate_count above the maximum is refused the same way", async () => {
    const file = await checkpoint(1);
    const preset = join(dir, "huge.json");
    const model = (id: string) => ({
      id,
      model_name: id,
      interface: "openai_endpoint",
      endpoint_base_url: server.baseURL,
    });
    await writeFile(
      preset,
      JSON.stringify({
        name: "huge",
        config: {
          answering_models: [model("answerer")],
          parsing_models: [model("judge")],
          replicate_count: 5000,
        },
      }),
    );
    const { code, err } = await runKarenina("verify", file, "--preset", preset, "--dry-run");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain(`replicates: at most 1,000, found 5000 (replicate_count of --preset ${preset})`);
  });

  test("a plan of 100,000 tasks or more says so and shows its progress on stderr while it is walked", async () => {
    const file = await checkpoint(100);
    const { code, out, err } = await runKarenina(
      ...scriptedVerifyArgs(server.baseURL, file, "-r", "1000", "--dry-run"),
    );
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^ {2}tasks +100,000 {2}\(100 questions × 1 model pair × 1,000 replicates\)$/m);
    expect(err).toContain("Planning 100,000 tasks");
    expect(err).toMatch(/ 10,000 of 100,000 tasks planned/);
    expect(err).toMatch(/ 100,000 of 100,000 tasks planned/);
    const small = await runKarenina(...scriptedVerifyArgs(server.baseURL, file, "--dry-run"));
    expect(small.err).toBe("");
    // On a terminal, one line is redrawn in place.
    let terminal = "";
    const args = scriptedVerifyArgs(server.baseURL, file, "-r", "1000", "--dry-run");
    const io = { out: () => {}, err: (text: string) => (terminal += text), errIsTerminal: true };
    expect(await runCli(args, io)).toBe(EXIT.ok);
    expect(terminal).toContain("\r  10,000 of 100,000 tasks planned\r  20,000 of 100,000 tasks planned");
    expect(terminal.endsWith("\r  100,000 of 100,000 tasks planned\n")).toBe(true);
  }, 120_000);
});
