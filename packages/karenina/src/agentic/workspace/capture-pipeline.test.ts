/**
 * Workspace capture through a whole run (spec 05 §12.8): an answering agent edits files of its workspace, an
 * agentic judge reads them, and the run captures the workspace. Every model turn goes over real HTTP to the
 * scripted OpenAI-compatible server on 127.0.0.1; every scripted turn is hand-written test data, not output of
 * any model.
 */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { parseVerificationConfig } from "../../pipeline/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { endpointModel, FAST_RETRIES } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { SUM_PROJECT, TESTS_PASS_TEMPLATE } from "../__fixtures__/sum-project.js";
import { treeFingerprint } from "./__fixtures__/test-helpers.js";
import { captureDestination } from "./capture.js";

/** sum.js as the answering agent rewrites it (hand-written). */
const FIXED_SUM =
  "function sum(numbers) {\n  return numbers.reduce((a, b) => a + b, 0);\n}\n\nmodule.exports = { sum };\n";

const server = serverPerTest(startOpenAiServer);
let dir = "";
let root = "";
let output = "";

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-capture-run-"));
  root = join(dir, "workspaces");
  output = join(dir, "captures");
  await cp(SUM_PROJECT, join(root, "sum-project"), { recursive: true });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The answering agent's turns (hand-written): fix sum.js, leave a note, a log and bytecode, report. */
function scriptAnswerer(times = 1) {
  for (let i = 0; i < times; i++) {
    const write = (path: string, content: string) => ({
      match: { model: "answerer" },
      reply: { toolCalls: [{ name: "write_file", arguments: { path, content } }] },
    });
    server.script(
      write("sum.js", FIXED_SUM),
      write("notes/fix.md", "Fixed the loop.\n"),
      write("debug.log", "trace\n"),
      write("__pycache__/sum.cpython-312.pyc", "bytecode"),
      { match: { model: "answerer" }, reply: { text: "Fixed sum.js; the tests pass." } },
    );
  }
}

/** The agentic judge's turns (hand-written): report, then the extraction. */
function scriptJudge(times = 1) {
  for (let i = 0; i < times; i++) {
    server.script(
      { match: { model: "judge" }, reply: { text: 'sum.js adds every number.\n{"tests_pass": true}' } },
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
    );
  }
}

function benchmark(questions = 1): Benchmark {
  const bench = Benchmark.create({ name: "capture" });
  for (let i = 0; i < questions; i++) {
    bench.addQuestion(`Fix the bug in sum.js (${i}).`, "node sum.test.js passes", {
      questionId: `fix/sum-${i}`,
      answerTemplate: TESTS_PASS_TEMPLATE,
      workspacePath: "sum-project",
    });
  }
  return bench;
}

function config(overrides: Record<string, unknown>) {
  return parseVerificationConfig({
    answering_models: [endpointModel(server.baseURL, "answerer")],
    parsing_models: [endpointModel(server.baseURL, "judge")],
    retry_policy: FAST_RETRIES,
    agentic_parsing: true,
    async_enabled: false,
    workspace_output_dir: output,
    ...overrides,
  });
}

const manifest = async () => JSON.parse(await readFile(join(output, "manifest.json"), "utf8"));
const files = async (path: string) =>
  (await readdir(path, { recursive: true, withFileTypes: true }))
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(path.length + 1))
    .sort();

test("spec 05 §12.8 produced: new and changed files land in the capture, excludes left out, manifest.json written, original untouched", async () => {
  const before = await treeFingerprint(join(root, "sum-project"));
  scriptAnswerer();
  scriptJudge();
  const run = await benchmark().runVerification(
    config({ workspace_output_mode: "produced", workspace_output_exclude_patterns: ["*.log"] }),
    { workspaceRoot: root },
  );
  expect(run.failures).toEqual([]);
  const result = run.results[0];
  expect(result?.template?.verify_result).toBe(true);
  const resultId = result?.metadata.result_id ?? "";
  const destination = captureDestination(output, "fix/sum-0", resultId);
  expect(await files(destination)).toEqual(["notes/fix.md", "sum.js"]);
  expect(await readFile(join(destination, "sum.js"), "utf8")).toBe(FIXED_SUM);
  expect(await treeFingerprint(join(root, "sum-project"))).toEqual(before);
  // The working copy was cleaned up; the capture stays.
  expect((await readdir(root)).sort()).toEqual(["sum-project"]);
  expect((await readdir(output)).sort()).toEqual([`fix_sum-0__${resultId}`, "manifest.json"]);
  const rows = await manifest();
  expect(rows).toEqual([
    {
      question_id: "fix/sum-0",
      result_id: resultId,
      run_name: result?.metadata.run_name,
      replicate: null,
      scenario_id: null,
      scenario_node: null,
      scenario_turn: null,
      answering: result?.metadata.answering,
      parsing: result?.metadata.parsing,
      capture_mode: "produced",
      source_workspace_path: expect.stringMatching(/sum-project_run_\d{8}T\d{6}_pid\d+$/),
      destination,
      status: "captured",
      copied_file_count: 2,
      copy_errors: [],
    },
  ]);
});

test("spec 05 §12.8 full with an output dir: the agent works in the capture destination, nothing excluded, never cleaned", async () => {
  scriptAnswerer();
  scriptJudge();
  const run = await benchmark().runVerification(
    config({ workspace_output_mode: "full", workspace_output_exclude_patterns: ["*.log"] }),
    { workspaceRoot: root },
  );
  expect(run.failures).toEqual([]);
  const resultId = run.results[0]?.metadata.result_id ?? "";
  const destination = captureDestination(output, "fix/sum-0", resultId);
  // No working copy beside the source: the agent was told of the destination and worked there.
  expect((await readdir(root)).sort()).toEqual(["sum-project"]);
  const prompt = JSON.stringify(server.requests.find((r) => r.body.model === "answerer")?.body);
  expect(prompt).toContain(`Your workspace is the directory ${destination}`);
  expect(await files(destination)).toEqual([
    "__pycache__/sum.cpython-312.pyc",
    "debug.log",
    "notes/fix.md",
    "package.json",
    "sum.js",
    "sum.test.js",
  ]);
  const [row] = await manifest();
  expect(row).toMatchObject({
    capture_mode: "full",
    source_workspace_path: destination,
    destination,
    status: "captured",
    copied_file_count: 6,
    copy_errors: [],
  });
});

test("spec 05 §12.8 a task without a workspace gets a skipped row with its skip_reason", async () => {
  server.script(
    { match: { model: "answerer" }, reply: { text: "The tests pass." } },
    { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
  );
  const run = await benchmark().runVerification(
    config({ agentic_parsing: false, workspace_output_mode: "full" }),
  );
  expect(run.failures).toEqual([]);
  const [row] = await manifest();
  expect(row).toMatchObject({
    question_id: "fix/sum-0",
    result_id: run.results[0]?.metadata.result_id,
    source_workspace_path: null,
    destination: null,
    status: "skipped",
    skip_reason: "no_workspace",
    copied_file_count: 0,
  });
});

test("spec 05 §12.8 an interrupted run leaves manifest.jsonl, not compacted", async () => {
  scriptAnswerer(2);
  scriptJudge(2);
  const controller = new AbortController();
  const run = await benchmark(2).runVerification(config({ workspace_output_mode: "produced" }), {
    workspaceRoot: root,
    signal: controller.signal,
    onProgress: (event) => {
      if (event.type === "result") controller.abort();
    },
  });
  expect(run.summary.aborted).toBe(true);
  expect(run.results).toHaveLength(1);
  const names = await readdir(output);
  expect(names).toContain("manifest.jsonl");
  expect(names).not.toContain("manifest.json");
  const lines = (await readFile(join(output, "manifest.jsonl"), "utf8")).trim().split("\n");
  expect(lines.map((line) => JSON.parse(line).result_id)).toEqual([run.results[0]?.metadata.result_id]);
});
