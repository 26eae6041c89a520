import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ReplayStore } from "../llm/index.js";
import {
  DRUG_REPLIES,
  dirPerTest,
  drugBenchmark,
  runKarenina,
  savePreset,
  scriptedVerifyArgs,
  writeDrugTraces,
} from "../test-support/cli.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import { EXIT } from "./cli-io.js";

const run = runKarenina;

// Hand-written test replies, not output of any model.
const server = serverPerTest(() =>
  startOpenAiServer([
    ...DRUG_REPLIES,
    { match: { model: "answerer-two" }, reply: { text: "Venetoclax." }, repeat: true },
    { match: { model: "wrong-judge" }, reply: { json: { drug: "navitoclax" } }, repeat: true },
  ]),
);
const dir = dirPerTest("karenina-original-flags-");

async function checkpoint(questions: number): Promise<string> {
  const file = join(dir(), "bench.jsonld");
  await drugBenchmark(questions, "original-flags").save(file);
  return file;
}

const answerer = () => `openai_endpoint:answerer@${server.baseURL}`;
const judge = () => `openai_endpoint:judge@${server.baseURL}`;

/** `verify FILE` against the scripted server, results to a fresh .jsonl; resolves to the rows and stderr. */
async function verifyRows(file: string, args: string[]) {
  const output = join(dir(), `run-${Math.random().toString(36).slice(2)}.jsonl`);
  const { code, err } = await run("verify", file, ...args, "-o", output, "--no-progress");
  expect(code, err).toBe(EXIT.ok);
  const rows = (await readFile(output, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  return { rows, err };
}

/** The config `preset save` writes from verify's config flags (the same builder verify uses). */
async function savedConfig(...flags: string[]): Promise<Record<string, unknown>> {
  const presets = join(dir(), "presets");
  const name = `p${Math.random().toString(36).slice(2)}`;
  const { code, out, err } = await run("preset", "save", name, "--dir", presets, ...flags);
  expect(code, err).toBe(EXIT.ok);
  const file = out.trim().split(" to ")[1] as string;
  return JSON.parse(await readFile(file, "utf8")).config;
}

const chats = () => server.requests.filter((request) => request.path.endsWith("/chat/completions"));

describe("verify: the original's model flags", () => {
  test("--temperature applies to the answering and the parsing model", async () => {
    const file = await checkpoint(1);
    await verifyRows(file, ["-a", answerer(), "-p", judge(), "--temperature", "0.7"]);
    const sent = chats().map((request) => [request.body.model, request.body.temperature]);
    expect(sent).toContainEqual(["answerer", 0.7]);
    expect(sent).toContainEqual(["judge", 0.7]);
    expect(sent.every(([, temperature]) => temperature === 0.7)).toBe(true);
    const bad = await run("verify", file, "-a", answerer(), "-p", judge(), "--temperature", "hot");
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain("--temperature: expected a number from 0 to 2");
  });

  test("--answering-model and --answering-id override a preset's first answering model", async () => {
    const file = await checkpoint(1);
    const presets = join(dir(), "presets");
    expect((await savePreset("base", presets, answerer(), judge())).code).toBe(EXIT.ok);
    const { rows } = await verifyRows(file, [
      "--preset",
      join(presets, "base.json"),
      "--answering-model",
      "answerer-two",
      "--answering-id",
      "my-answerer",
    ]);
    expect(rows[0].metadata.answering).toMatchObject({
      model_name: "answerer-two",
      config_id: "my-answerer",
    });
    expect(chats().map((request) => request.body.model)).toEqual(["answerer-two", "judge"]);
  });

  test("without a preset the flags must name a usable model, or say which SPEC to give instead", async () => {
    const file = await checkpoint(1);
    const cases: [string[], string][] = [
      [["--answering-model", "m", "--parsing-model", "m"], "needs --interface NAME"],
      [
        ["--answering-model", "m", "--parsing-model", "m", "--interface", "openai_endpoint"],
        "use -a openai_endpoint:MODEL@http://HOST:PORT/v1",
      ],
      [
        ["--answering-model", "m", "--parsing-model", "m", "--interface", "langchain"],
        "needs --answering-provider",
      ],
      [["-a", answerer(), "--answering-model", "m", "-p", judge()], "not both"],
      [["-a", answerer(), "-p", judge(), "--interface", "openai"], "SPECs name their own interface"],
    ];
    for (const [flags, message] of cases) {
      const { code, err } = await run("verify", file, ...flags);
      expect(code, flags.join(" ")).toBe(EXIT.usage);
      expect(err).toContain(message);
    }
    expect(server.requests).toHaveLength(0);
  });

  test("--interface manual answers from --manual-traces; the judge comes from -p", async () => {
    const file = await checkpoint(2);
    const traces = join(dir(), "traces.json");
    await writeDrugTraces(traces, 2);
    const { rows } = await verifyRows(file, [
      "--interface",
      "manual",
      "--manual-traces",
      traces,
      "-p",
      judge(),
    ]);
    expect(rows.map((row) => row.template.verify_result)).toEqual([true, true]);
    expect(chats().every((request) => request.body.model === "judge")).toBe(true);
  });

  test("--answering-model with --interface builds the model without a preset (answering-1 as its id)", async () => {
    const file = await checkpoint(1);
    const config = await savedConfig(
      "--answering-model",
      "gpt-4.1-mini",
      "--parsing-model",
      "claude-haiku-4-5",
      "--interface",
      "langchain",
      "--answering-provider",
      "openai",
      "--parsing-provider",
      "anthropic",
      "--temperature",
      "0",
    );
    expect(config.answering_models).toMatchObject([
      {
        id: "answering-1",
        model_name: "gpt-4.1-mini",
        model_provider: "openai",
        interface: "langchain",
        temperature: 0,
      },
    ]);
    expect(config.parsing_models).toMatchObject([
      { id: "parsing-1", model_name: "claude-haiku-4-5", model_provider: "anthropic", temperature: 0 },
    ]);
    expect(file).toBeTruthy();
  });
});

describe("verify: the original's config flags", () => {
  test("each flag sets its config field, and only the flags given change a preset", async () => {
    const rubricConfig = join(dir(), "dj.json");
    await writeFile(rubricConfig, JSON.stringify({ global: { Clarity: { enabled: true } } }));
    const config = await savedConfig(
      ...["-a", answerer(), "-p", judge()],
      ...["--replicate-count", "3", "--evaluation-mode", "template_and_rubric"],
      ...["--abstention", "--no-sufficiency", "--embedding-check", "--embedding-threshold", "0.5"],
      ...["--embedding-model", "my-embed", "--deep-judgment"],
      ...["--deep-judgment-rubric-mode", "custom", "--deep-judgment-rubric-config", rubricConfig],
      ...["--no-deep-judgment-rubric-excerpts", "--deep-judgment-rubric-max-excerpts", "4"],
      ...["--deep-judgment-rubric-fuzzy-threshold", "0.6", "--deep-judgment-rubric-retry-attempts", "1"],
      ...["--deep-judgment-rubric-search-tool", "tavily"],
      ...["--use-full-trace-for-template", "--use-final-message-for-rubric"],
      ...["--no-async", "--async-workers", "4"],
      ...["--workspace-output-mode", "produced", "--workspace-output-dir", join(dir(), "captures")],
      ...["--workspace-output-exclude", "*.log"],
    );
    expect(config).toMatchObject({
      replicate_count: 3,
      evaluation_mode: "template_and_rubric",
      abstention_enabled: true,
      sufficiency_enabled: false,
      embedding_check_enabled: true,
      embedding_check_threshold: 0.5,
      embedding_check_model: "my-embed",
      deep_judgment_mode: "full",
      deep_judgment_rubric_mode: "custom",
      deep_judgment_rubric_config: { global_traits: { Clarity: { enabled: true } } },
      deep_judgment_rubric_global_excerpts: false,
      deep_judgment_rubric_max_excerpts_default: 4,
      deep_judgment_rubric_fuzzy_match_threshold_default: 0.6,
      deep_judgment_rubric_excerpt_retry_attempts_default: 1,
      deep_judgment_rubric_search_tool: "tavily",
      use_full_trace_for_template: true,
      use_full_trace_for_rubric: false,
      async_enabled: false,
      async_max_workers: 4,
      workspace_output_mode: "produced",
      workspace_output_dir: join(dir(), "captures"),
      workspace_output_exclude_patterns: ["*.log"],
    });
  });

  test("the negative forms turn a preset's switches off in verify's run config; flags not given leave it", async () => {
    const file = await checkpoint(1);
    const presets = join(dir(), "presets");
    const base = await run(
      ...["preset", "save", "on", "--dir", presets, "-a", answerer(), "-p", judge()],
      ...[
        "--abstention",
        "--sufficiency",
        "--embedding-check",
        "--deep-judgment",
        "reasoning_only",
        "-r",
        "2",
      ],
    );
    expect(base.code, base.err).toBe(EXIT.ok);
    const root = join(dir(), "runs");
    const flags = ["--preset", join(presets, "on.json"), "--no-abstention", "--no-embedding-check"];
    const { code, err } = await run(
      "verify",
      file,
      ...flags,
      "--no-deep-judgment",
      "--run-root",
      root,
      "--no-progress",
    );
    expect(code, err).toBe(EXIT.ok);
    const [runDir] = await readdir(root);
    const manifest = JSON.parse(await readFile(join(root, runDir as string, "run_manifest.json"), "utf8"));
    expect(manifest.configuration).toMatchObject({
      abstention_enabled: false,
      sufficiency_enabled: true,
      embedding_check_enabled: false,
      deep_judgment_mode: "disabled",
      replicate_count: 2,
    });
  });

  test("contradicting or unusable flags are refused with the flag's name", async () => {
    const file = await checkpoint(1);
    const models = ["-a", answerer(), "-p", judge()];
    const cases: [string[], string][] = [
      [["--replicate-count", "2", "-r", "3"], "cannot be used with option '-r, --replicates <n>'"],
      [["--no-async", "-c", "2"], "cannot be used with option '-c, --concurrency <n>'"],
      [["--use-full-trace-for-template", "--use-final-message-for-template"], "cannot be used with"],
      [["--evaluation-mode", "rubric_only", "--mode", "template_only"], "disagree"],
      [["--mode", "basic"], "--mode basic chooses the wizard of --interactive"],
      [["--deep-judgment", "sometimes"], "--deep-judgment: expected disabled, reasoning_only, full"],
      [["--deep-judgment-rubric-mode", "custom"], "--deep-judgment-rubric-config: is required"],
      [["--deep-judgment-rubric-config", join(dir(), "missing.json")], "cannot read"],
      [["--embedding-threshold", "2"], "--embedding-threshold: expected a number from 0 to 1"],
      [["--replicate-count", "0"], "--replicate-count: expected an integer from 1 to 1000"],
      [["--progressive-save"], "--progressive-save needs --output"],
      [["--verbose", "--no-progress"], "cannot be used with option '--no-progress'"],
    ];
    for (const [flags, message] of cases) {
      const { code, err } = await run("verify", file, ...models, ...flags);
      expect(code, flags.join(" ")).toBe(EXIT.usage);
      expect(err).toContain(message);
    }
    expect(server.requests).toHaveLength(0);
  });

  test("--resume with the original's state file says how to resume here", async () => {
    const file = await checkpoint(1);
    const { code, err } = await run(
      "verify",
      file,
      "-a",
      answerer(),
      "-p",
      judge(),
      "--resume",
      "run.json.state",
    );
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("--resume takes no state file here");
    expect(err).toContain("--output run.json --resume");
  });

  test("--embedding-check runs the check with --embedding-model; --no-embedding-check beats EMBEDDING_CHECK", async () => {
    const file = await checkpoint(1);
    const wrong = `openai_endpoint:wrong-judge@${server.baseURL}`;
    const flags = ["-a", answerer(), "-p", wrong, "--embedding-model", "my-embed"];
    const { rows } = await verifyRows(file, [...flags, "--embedding-check", "--embedding-threshold", "1"]);
    expect(rows[0].template).toMatchObject({
      embedding_check_performed: true,
      embedding_model_used: "my-embed",
    });
    const embeddings = server.requests.filter((request) => request.path.endsWith("/embeddings"));
    expect(embeddings.map((request) => request.body.model)).toEqual(["my-embed"]);
    process.env.EMBEDDING_CHECK = "true";
    try {
      const off = await verifyRows(file, [...flags, "--no-embedding-check"]);
      expect(off.rows[0].template.embedding_check_performed).toBe(false);
    } finally {
      delete process.env.EMBEDDING_CHECK;
    }
  });

  test("--deep-judgment-rubric-search is accepted with a note that it has no effect", async () => {
    const file = await checkpoint(1);
    const { code, err } = await run(
      ...scriptedVerifyArgs(server.baseURL, file, "--deep-judgment-rubric-search", "--dry-run"),
    );
    expect(code, err).toBe(EXIT.ok);
    expect(err).toContain("--deep-judgment-rubric-search has no effect");
  });
});

describe("verify: the original's run flags", () => {
  test("--replay answers from a replay store: the answering model is never called", async () => {
    const file = await checkpoint(2);
    const store = new ReplayStore();
    for (const id of ["q0", "q1"]) store.register({ question_id: id }, { raw_trace: "Venetoclax." });
    const replay = join(dir(), "answers.replay.json");
    await store.save(replay);
    const { rows } = await verifyRows(file, ["-a", answerer(), "-p", judge(), "--replay", replay]);
    expect(rows.map((row) => row.template.verify_result)).toEqual([true, true]);
    expect(chats().map((request) => request.body.model)).toEqual(["judge", "judge"]);
    const plan = await run(
      ...scriptedVerifyArgs(server.baseURL, file, "--replay", replay, "--dry-run", "--json"),
    );
    expect(plan.code, plan.err).toBe(EXIT.ok);
    expect(JSON.parse(plan.out).answersSupplied).toBe(2);
  });

  test("--progressive-save with --output and --verbose run as usual", async () => {
    const file = await checkpoint(1);
    const output = join(dir(), "run.json");
    const { code, err } = await run(
      ...["verify", file, "-a", answerer(), "-p", judge(), "-o", output, "--progressive-save", "--verbose"],
    );
    expect(code, err).toBe(EXIT.ok);
    expect(JSON.parse(await readFile(output, "utf8")).results).toHaveLength(1);
  });
});
