import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import type { VerificationResult } from "../results/index.js";
import { openStorage } from "../storage/index.js";
import { runKarenina, runLogResults, scratchWorkingDir, withoutProviderKeys } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { startAnthropicServer } from "../test-support/provider-servers/index.js";
import { EXIT } from "./cli-io.js";
import { DEMO_CHECKPOINT, DEMO_OUTPUT } from "./demo-command.js";

const scratch = scratchWorkingDir("karenina-demo-");
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The result of the question showing a template kind (its keyword). */
function byKind(results: readonly VerificationResult[], kind: string): VerificationResult {
  const found = results.find((result) => result.metadata.keywords?.includes(kind));
  if (found === undefined) throw new Error(`no result with keyword ${kind}`);
  return found;
}

describe("karenina demo, offline", () => {
  let outcome: { code: number; out: string; err: string };
  let results: VerificationResult[];
  let fetches: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    withoutProviderKeys();
    fetches = vi.spyOn(globalThis, "fetch");
    outcome = await runKarenina("demo", "--no-progress");
    expect(fetches).not.toHaveBeenCalled();
    results = await runLogResults(join(scratch(), DEMO_OUTPUT));
  }, 60_000);

  test("runs every demo question through the pipeline and appends the results to karenina-demo.jsonl", () => {
    expect(outcome.code).toBe(EXIT.ok);
    expect(results).toHaveLength(14);
    expect(new Set(results.map((r) => r.metadata.question_id)).size).toBe(14);
    expect(results.every((r) => r.metadata.answering.model_name === "handwritten-demo-answers")).toBe(true);
  });

  test("the banner says the answers and judge replies are hand-written examples and no network is used", () => {
    expect(outcome.err).toContain("Mode: offline");
    expect(outcome.err).toContain("WRITTEN BY HAND for this demo, not produced by any model");
    expect(outcome.err).toContain("No API key or network is used.");
  });

  test("every judge call is answered from the recordings, none reaches the network", () => {
    expect(outcome.err).toMatch(
      /14\/14 done · 8 passed, 6 failed · 0 LLM calls \(42 replayed from recordings\)/,
    );
    expect(results.every((r) => r.metadata.failure?.category !== "parsing")).toBe(true);
  });

  test("each template kind gets its expected verdict", () => {
    const verdict = (kind: string) => byKind(results, kind).template?.verify_result;
    for (const kind of [
      "python-verify",
      "python-regex",
      "exact-match",
      "numeric-tolerance",
      "set-containment",
      "composition",
      "typescript-template",
      "conditional-ground-truth",
    ]) {
      expect(verdict(kind), kind).toBe(true);
    }
    for (const kind of ["python-verify-granular", "boolean-match", "numeric-graded", "date-match"]) {
      expect(verdict(kind), kind).toBe(false);
    }
    expect(byKind(results, "python-regex").template?.regex_validation_results).toEqual({ atc_code: true });
  });

  test("partly right answers get partial credit", () => {
    expect(byKind(results, "python-verify-granular").template?.verify_granular_result).toBe(0.75);
    expect(byKind(results, "numeric-graded").template?.verify_granular_result).toBeCloseTo(0.5);
    expect(byKind(results, "composition").template?.verify_granular_result).toBeCloseTo(2 / 3);
  });

  test("the two abstaining answers are detected and fail as abstentions", () => {
    const abstained = results.filter((r) => r.template?.abstention_detected === true);
    expect(abstained.map((r) => r.metadata.keywords?.[0]).sort()).toEqual(["literal-match", "numeric-exact"]);
    expect(abstained.every((r) => r.metadata.failure?.category === "abstention")).toBe(true);
  });

  test("rubric scores of every non-agentic trait kind are present", () => {
    const rubric = (kind: string) => byKind(results, kind).rubric;
    expect(results.every((r) => typeof r.rubric?.llm_trait_scores?.clarity === "number")).toBe(true);
    expect(rubric("boolean-match")?.llm_trait_labels).toEqual({ misconception_handling: "reinforces" });
    expect(rubric("trace-primitive")?.llm_trait_scores).toMatchObject({
      mentions_max_daily_dose: true,
      "dosing_facts.dose_mg": 400,
      "dosing_facts.with_food": true,
    });
    expect(rubric("boolean-match")?.regex_trait_scores).toEqual({ avoids_absolutes: false });
    expect(rubric("exact-match")?.callable_trait_scores).toEqual({ short_answer: true, sentence_count: 1 });
    expect(rubric("python-verify-granular")?.metric_trait_scores).toEqual({
      vitamin_coverage: { precision: 0.75, recall: 0.75, f1: 0.75 },
    });
  });

  test("prints the summary table, with a row per template kind and the rubric traits", () => {
    expect(outcome.out).toContain("demo run (offline, hand-written example responses)");
    expect(outcome.out).toMatch(/failed\s+6\s+\(content 4, abstention 2\)/);
    // results, passed, failed, pass rate, failures
    expect(outcome.out).toMatch(/\n\s+numeric-graded\s+1\s+0\s+1\s+0\.0%\s+content 1\n/);
    expect(outcome.out).toMatch(/\n\s+vitamin_coverage\s+metric\s+question\s+1\s+mean precision 0\.75/);
    expect(outcome.err).toContain(`Results: ${DEMO_OUTPUT}, and run`);
  });

  test("ends by printing the karenina view command that opens its stored run", async () => {
    const command = /Open them in the web app: karenina view --db karenina\.db (run_\w+)\n/.exec(outcome.err);
    expect(command, outcome.err).not.toBeNull();
    const { viewTarget } = await import("./view-command.js");
    const target = await viewTarget(command?.[1], join(scratch(), "karenina.db"));
    expect(target.run).toMatchObject({ runName: command?.[1], status: "completed", processedCount: 14 });
  });

  test("saves the benchmark and the run with every result to karenina.db", async () => {
    expect(outcome.err).toMatch(/and run run_\w+ in the database karenina\.db\./);
    const storage = await openStorage(join(scratch(), "karenina.db"));
    try {
      const [run, ...others] = await storage.listRuns();
      expect(others).toHaveLength(0);
      expect(run).toMatchObject({ status: "completed", processedCount: 14, totalQuestions: 14 });
      const stored = await storage.loadResults({ runId: run?.id ?? "" });
      expect(stored.filter((r) => r.template?.verify_result === true)).toHaveLength(8);
      expect((await storage.loadBenchmark(run?.benchmarkName ?? "")).size).toBe(14);
    } finally {
      await storage.close();
    }
  });

  test("--json prints the summary object instead; -o writes a JSON export and --db another database", async () => {
    withoutProviderKeys();
    const { code, out, err } = await runKarenina(
      "demo",
      "--no-progress",
      "--json",
      "-o",
      "demo.json",
      "--db",
      "other.db",
    );
    expect(code).toBe(EXIT.ok);
    const summary = JSON.parse(out);
    // passed / (passed + failed): the two abstentions count as failed.
    expect(summary.template_pass_overall).toMatchObject({ passed: 8, total: 14 });
    expect(summary.outcomes).toMatchObject({ passed: 8, failed: 6, verified: 12 });
    const exported = JSON.parse(await readFile(join(scratch(), "demo.json"), "utf8"));
    expect(exported.results).toHaveLength(14);
    expect(err).toContain("in the database other.db.");
    const storage = await openStorage(join(scratch(), "other.db"));
    try {
      expect(await storage.countResults()).toBe(14);
    } finally {
      await storage.close();
    }
  });
});

describe("karenina demo, run again", () => {
  test("a second demo replaces the demo log's earlier run, with a notice; -o FILE holding results is refused", async () => {
    withoutProviderKeys();
    const log = join(scratch(), DEMO_OUTPUT);
    expect((await runKarenina("demo", "--no-progress")).code).toBe(EXIT.ok);
    const again = await runKarenina("demo", "--no-progress");
    expect(again.code).toBe(EXIT.ok);
    expect(again.err).toContain(
      `${DEMO_OUTPUT} held the 14 results of an earlier demo run: replaced by this run's`,
    );
    expect(await runLogResults(log)).toHaveLength(14);

    const before = await readFile(log, "utf8");
    const refused = await runKarenina("demo", "--no-progress", "-o", DEMO_OUTPUT);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.err).toContain(
      `${DEMO_OUTPUT} already holds 14 results of an earlier run: choose another --output file`,
    );
    expect(await readFile(log, "utf8")).toBe(before);
  }, 60_000);
});

describe("karenina demo, live", () => {
  /** Hand-written test replies, not output of any model: every answer and judgment is a canned text. */
  const liveRules = () => [
    {
      match: { lastUserIncludes: "Decide whether the response abstains" },
      reply: { json: { reasoning: "Hand-written test reply.", abstention_detected: false } },
      repeat: true,
    },
    { reply: { text: "Hand-written test reply." }, repeat: true },
  ];
  let server: OpenAiTestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  /** The questions the server was asked as an answering model (the system prompt of answering calls). */
  const answeringQuestions = (requests: OpenAiTestServer["requests"]) =>
    requests
      .map((request) => request.body.messages as { role: string; content: string }[])
      .filter((messages) => messages[0]?.content.startsWith("You are an expert assistant"))
      .map((messages) => messages.at(-1)?.content);

  test("with OPENAI_API_KEY set, the same command runs live: the OpenAI model answers and judges every question", async () => {
    server = await startOpenAiServer(liveRules());
    withoutProviderKeys();
    vi.stubEnv("OPENAI_API_KEY", "test-key");
    vi.stubEnv("OPENAI_BASE_URL", server.baseURL);
    // The same watch on fetch that shows the offline demo makes no call sees every call of a live one.
    const fetches = vi.spyOn(globalThis, "fetch");
    const { code, err } = await runKarenina("demo", "--no-progress", "-o", "live.jsonl");
    expect(code).toBe(EXIT.ok);
    expect(fetches.mock.calls.length).toBe(server.requests.length);
    expect(err).toContain("Mode: live (OPENAI_API_KEY). openai:gpt-4.1-mini answers every question");
    expect(new Set(server.requests.map((r) => r.body.model))).toEqual(new Set(["gpt-4.1-mini"]));
    const asked = answeringQuestions(server.requests);
    expect(asked).toHaveLength(14);
    const results = await runLogResults(join(scratch(), "live.jsonl"));
    expect(results.map((r) => r.metadata.question_text).sort()).toEqual([...asked].sort());
    expect(results.every((r) => r.metadata.answering.model_name === "gpt-4.1-mini")).toBe(true);
  });

  test("--ollama URL --model NAME runs live against that OpenAI-compatible server, without --live", async () => {
    server = await startOpenAiServer(liveRules());
    withoutProviderKeys();
    const { code, err } = await runKarenina(
      "demo",
      "--ollama",
      server.url,
      "--model",
      "tiny-llama",
      "--no-progress",
      "-o",
      "ollama.jsonl",
    );
    expect(code).toBe(EXIT.ok);
    expect(err).toContain(`Mode: live (--ollama ${server.url})`);
    expect(new Set(server.requests.map((r) => r.body.model))).toEqual(new Set(["tiny-llama"]));
    expect(answeringQuestions(server.requests)).toHaveLength(14);
  });

  test("with only ANTHROPIC_API_KEY set, the Anthropic model answers and judges", async () => {
    const anthropic = await startAnthropicServer([
      { reply: { text: "Hand-written test reply, not output of any model." }, repeat: true },
    ]);
    try {
      withoutProviderKeys();
      vi.stubEnv("ANTHROPIC_API_KEY", "test-key");
      vi.stubEnv("ANTHROPIC_BASE_URL", anthropic.baseURL);
      const { code, err } = await runKarenina("demo", "--no-progress", "-o", "anthropic.jsonl");
      expect(code).toBe(EXIT.ok);
      expect(err).toContain("Mode: live (ANTHROPIC_API_KEY). anthropic:claude-haiku-4-5");
      expect(new Set(anthropic.requests.map((r) => r.body.model))).toEqual(new Set(["claude-haiku-4-5"]));
      expect(await runLogResults(join(scratch(), "anthropic.jsonl"))).toHaveLength(14);
    } finally {
      await anthropic.close();
    }
  });

  test("--offline replays the example responses even with a key set, and says how to go live", async () => {
    withoutProviderKeys();
    vi.stubEnv("OPENAI_API_KEY", "test-key");
    const fetches = vi.spyOn(globalThis, "fetch");
    const { code, err } = await runKarenina("demo", "--offline", "--no-progress", "-o", "keyed.jsonl");
    expect(code).toBe(EXIT.ok);
    expect(err).toContain("Mode: offline");
    expect(err).toContain("OPENAI_API_KEY is set, but --offline was given");
    expect(fetches).not.toHaveBeenCalled();
  });

  test("--live without a key or --ollama is a usage error naming what to set", async () => {
    withoutProviderKeys();
    const { code, err } = await runKarenina("demo", "--live", "--no-progress");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("set OPENAI_API_KEY or ANTHROPIC_API_KEY, or give --ollama URL");
  });

  test("--model without a live model, and --offline with --live, are usage errors", async () => {
    withoutProviderKeys();
    const both = await runKarenina("demo", "--offline", "--live", "--no-progress");
    expect(both.code).toBe(EXIT.usage);
    expect(both.err).toContain("--offline runs from the hand-written example responses");
    withoutProviderKeys();
    const { code, err } = await runKarenina("demo", "--model", "gpt-5", "--no-progress");
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("--model applies to live runs");
  });
});

test("--help describes the offline and live modes", async () => {
  const { code, out } = await runKarenina("demo", "--help");
  expect(code).toBe(EXIT.ok);
  for (const option of ["--live", "--ollama <url>", "--model <name>", "-o, --output <file>", "--json"]) {
    expect(out).toContain(option);
  }
  expect(out).toContain("written by hand for the demo, not produced by any model");
  expect(out).toContain("karenina demo --ollama http://127.0.0.1:11434");
  expect(DEMO_CHECKPOINT.endsWith("examples/demo/demo.jsonld")).toBe(true);
});
