/**
 * Agentic evaluation end to end (seed 002): a workspace holding a small JavaScript project whose own test
 * fails; an answering agent that fixes the bug with the built-in workspace tools; an agentic judge that
 * investigates the workspace and reports; extraction into the template `{tests_pass: bool}`, checked against
 * the ground truth `true`. Every model turn goes over real HTTP to the scripted OpenAI-compatible server on
 * 127.0.0.1, and every scripted turn below is hand-written test data, not output of any model.
 */
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import type { RubricTraitInput } from "../model/index.js";
import { CachingPortProvider, parseVerificationConfig, planTasks, stagesFor } from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { endpointModel, FAST_RETRIES } from "../test-support/pipeline-context.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import {
  FINAL_ANSWER,
  FIXED_SUM,
  SUM_PROJECT,
  SUM_QUESTION,
  scriptAnswerer as scriptSumAnswerer,
  scriptJudge as scriptSumJudge,
  TESTS_PASS_TEMPLATE,
} from "./__fixtures__/sum-project.js";
import { treeFingerprint } from "./workspace/__fixtures__/test-helpers.js";

const QUESTION = SUM_QUESTION;

const server = serverPerTest(startOpenAiServer);
let root = "";
let project = "";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "karenina-agentic-e2e-"));
  project = join(root, "sum-project");
  await cp(SUM_PROJECT, project, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The answering agent's turns (hand-written), on this test's server unless `target` is given. */
function scriptAnswerer(target: OpenAiTestServer = server, model = "answerer") {
  scriptSumAnswerer(target, model);
}

/** The agentic judge's turns (hand-written): read sum.js (unless `readsFiles` is false), report, extraction. */
function scriptJudge(model = "judge", readsFiles = true) {
  scriptSumJudge(server, model, readsFiles);
}

function benchmark(template = TESTS_PASS_TEMPLATE, workspacePath: string | null = "sum-project"): Benchmark {
  const bench = Benchmark.create({ name: "agentic-e2e" });
  bench.addQuestion(QUESTION, "node sum.test.js passes", {
    questionId: "fix-sum",
    answerTemplate: template,
    workspacePath,
  });
  return bench;
}

function config(overrides: Record<string, unknown> = {}) {
  return parseVerificationConfig({
    answering_models: [endpointModel(server.baseURL, "answerer")],
    parsing_models: [endpointModel(server.baseURL, "judge")],
    retry_policy: FAST_RETRIES,
    agentic_parsing: true,
    ...overrides,
  });
}

async function verify(
  overrides: Record<string, unknown> = {},
  bench = benchmark(),
): Promise<VerificationResult> {
  const run = await bench.runVerification(config(overrides), { workspaceRoot: root });
  expect(run.failures).toEqual([]);
  return run.results[0] as VerificationResult;
}

/** The bodies of the requests a model received, as JSON text, in order. */
const requestsOf = (model: string) =>
  server.requests.filter((request) => request.body.model === model).map((request) => request.body);
const textOf = (body: unknown) => JSON.stringify(body);

/** Working directories made beside the project (`sum-project_run_...`). */
const workingCopies = async () => (await readdir(root)).filter((name) => name.startsWith("sum-project_run_"));

const runsTests = (dir: string) =>
  spawnSync(process.execPath, ["sum.test.js"], { cwd: dir, encoding: "utf8" }).status;

describe("a workspace task, fixed by an agent and judged by an agent", () => {
  test("seed 002 §2 workspace_copy true: the agent fixes a copy, the original keeps its checksums, the result passes", async () => {
    const before = await treeFingerprint(project);
    expect(runsTests(project)).toBe(1);
    scriptAnswerer();
    scriptJudge();
    const result = await verify();
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.verify_result).toBe(true);
    expect(result.template?.parsed_llm_response).toEqual({ tests_pass: true });
    expect(result.template?.agentic_parsing_performed).toBe(true);
    expect(await treeFingerprint(project)).toEqual(before);
    // The answering agent was told of its copy, and the judge read the fixed file there.
    const copy = /Your workspace is the directory (\S+sum-project_run_\S+?)\./.exec(
      textOf(requestsOf("answerer")[0]),
    );
    expect(copy).not.toBeNull();
    expect(result.template?.investigation_trace).toContain("for (let i = 0; i < numbers.length; i++)");
    expect(await workingCopies()).toEqual([]);
  });

  test("seed 002 §2 workspace_copy false: the agent works in the original directory, which is modified and kept", async () => {
    scriptAnswerer();
    scriptJudge();
    const result = await verify({ workspace_copy: false });
    expect(result.template?.verify_result).toBe(true);
    expect(await readFile(join(project, "sum.js"), "utf8")).toBe(FIXED_SUM);
    expect(runsTests(project)).toBe(0);
    expect(await workingCopies()).toEqual([]);
    expect(textOf(requestsOf("answerer")[0])).toContain(`Your workspace is the directory ${project}.`);
  });

  test("seed 002 §5 cleanup false: the working copy stays, with the fix, and its own test passes", async () => {
    const before = await treeFingerprint(project);
    scriptAnswerer();
    scriptJudge();
    const result = await verify({ workspace_cleanup: false });
    expect(result.template?.verify_result).toBe(true);
    const copies = await workingCopies();
    expect(copies).toHaveLength(1);
    const copy = join(root, copies[0] as string);
    expect(await readFile(join(copy, "sum.js"), "utf8")).toBe(FIXED_SUM);
    expect(runsTests(copy)).toBe(0);
    expect(await treeFingerprint(project)).toEqual(before);
  });

  test("seed 002 §2 a question without workspace_path gets a fresh empty directory, removed afterwards", async () => {
    server.script(
      { match: { model: "answerer" }, reply: { toolCalls: [{ name: "list_files", arguments: {} }] } },
      { match: { model: "answerer" }, reply: { text: "The workspace is empty; there is nothing to fix." } },
      { match: { model: "judge" }, reply: { text: '{"tests_pass": false}' } },
      { match: { model: "judge" }, reply: { json: { tests_pass: false } } },
    );
    const result = await verify({}, benchmark(TESTS_PASS_TEMPLATE, null));
    expect(result.template?.verify_result).toBe(false);
    expect(textOf(requestsOf("answerer")[0])).toMatch(
      /Your workspace is the directory \S+fix-sum_run_\d{8}T\d{6}_pid\d+\./,
    );
    expect((await readdir(root)).sort()).toEqual(["sum-project"]);
  });

  test("seed 002 §2 no workspace root with agentic parsing: a task error, no model called", async () => {
    const run = await benchmark().runVerification(config());
    const result = run.results[0] as VerificationResult;
    expect(result.metadata.failure?.reason).toMatch(/workspace root: expected a directory, found none/);
    expect(server.requests).toHaveLength(0);
  });

  test("seed 002 §2 a workspace_path naming no directory: a task error naming the path", async () => {
    const run = await benchmark(TESTS_PASS_TEMPLATE, "no-such-project").runVerification(config(), {
      workspaceRoot: root,
    });
    const result = run.results[0] as VerificationResult;
    expect(result.metadata.failure?.reason).toMatch(
      /workspace_path "no-such-project": expected an existing directory/,
    );
    expect(server.requests).toHaveLength(0);
  });

  test("seed 002 §8 the benchmark's workspace root is used, and runVerification's workspaceRoot overrides it", async () => {
    scriptAnswerer();
    scriptJudge();
    const bench = Benchmark.create({ name: "agentic-e2e", workspaceRoot: root });
    bench.addQuestion(QUESTION, "passes", {
      questionId: "fix-sum",
      answerTemplate: TESTS_PASS_TEMPLATE,
      workspacePath: "sum-project",
    });
    const own = (await bench.runVerification(config())).results[0];
    expect(own?.template?.verify_result).toBe(true);
    const elsewhere = await mkdtemp(join(tmpdir(), "karenina-agentic-other-"));
    try {
      const overridden = (await bench.runVerification(config(), { workspaceRoot: elsewhere })).results[0];
      expect(overridden?.metadata.failure?.reason).toContain(
        `expected an existing directory at ${join(elsewhere, "sum-project")}`,
      );
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe("seed 002 §3 judge-context modes: what reaches the investigation agent", () => {
  test.each([
    ["workspace_only", { trace: false, workspace: true }],
    ["trace_and_workspace", { trace: true, workspace: true }],
    ["trace_only", { trace: true, workspace: false }],
  ] as const)("seed 002 §3 %s", async (mode, shows) => {
    scriptAnswerer();
    scriptJudge("judge", shows.workspace);
    const result = await verify({ agentic_judge_context: mode, workspace_cleanup: false });
    expect(result.template?.verify_result).toBe(true);
    const [copy] = await workingCopies();
    const investigation = requestsOf("judge")[0] as Record<string, unknown>;
    const text = textOf(investigation.messages);
    expect(text.includes("Answering agent trace")).toBe(shows.trace);
    expect(text.includes(FINAL_ANSWER)).toBe(shows.trace);
    expect(text.includes(`Workspace directory: ${join(root, copy as string)}`)).toBe(shows.workspace);
    const tools = ((investigation.tools ?? []) as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(tools.sort()).toEqual(shows.workspace ? ["list_files", "read_file", "search_files"] : []);
  });

  test("seed 002 §4 the ground truth never reaches the judge (nor the answering agent)", async () => {
    const marker = "gt-marker-7f3a";
    const template = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    fixed_file: str = VerifiedField(description="The file the assistant fixed", ground_truth="${marker}", verify_with=ExactMatch())
`;
    scriptAnswerer();
    server.script(
      {
        match: { model: "judge" },
        reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] },
      },
      { match: { model: "judge" }, reply: { text: '{"fixed_file": "sum.js"}' } },
      { match: { model: "judge" }, reply: { json: { fixed_file: "sum.js" } } },
    );
    const result = await verify({ agentic_judge_context: "trace_and_workspace" }, benchmark(template));
    expect(result.template?.agentic_parsing_performed).toBe(true);
    expect(result.template?.verify_result).toBe(false);
    expect(requestsOf("judge")).toHaveLength(3);
    for (const request of server.requests) expect(textOf(request.body)).not.toContain(marker);
  });
});

describe("seed 002 §3 extraction", () => {
  test("seed 002 §3 unanswered fields are null, whatever the extractor filled in", async () => {
    scriptAnswerer();
    server.script(
      {
        match: { model: "judge" },
        reply: { text: '{"tests_pass": null, "_unanswered_fields": ["tests_pass"]}' },
      },
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
    );
    const result = await verify();
    expect(result.template?.parsed_llm_response).toEqual({ tests_pass: null });
    expect(result.template?.verify_result).toBe(false);
  });

  test("seed 002 §3 a failed extraction falls back to the report's own JSON (local_json)", async () => {
    scriptAnswerer();
    server.script(
      { match: { model: "judge" }, reply: { text: 'Tests pass.\n```json\n{"tests_pass": true}\n```' } },
      {
        match: { model: "judge" },
        reply: { status: 400, message: "scripted: extraction refused" },
        repeat: true,
      },
    );
    const result = await verify();
    expect(result.template?.verify_result).toBe(true);
    expect(result.template?.agentic_extraction_recovery).toBe("local_json");
    expect(result.template?.agentic_extraction_error).toContain("extraction refused");
    expect(result.metadata.warnings.join("\n")).toContain("the report's own JSON was used");
  });

  test("seed 002 §3 extraction and local recovery both failing is a parsing error; the investigation trace is kept", async () => {
    scriptAnswerer();
    server.script(
      { match: { model: "judge" }, reply: { text: "I could not tell." } },
      {
        match: { model: "judge" },
        reply: { status: 400, message: "scripted: extraction refused" },
        repeat: true,
      },
    );
    const result = await verify();
    expect(result.metadata.failure).toMatchObject({ category: "parsing", stage: "AgenticParseTemplate" });
    expect(result.metadata.failure?.reason).toMatch(
      /^Agentic extraction failed: .*; local JSON recovery failed: the report holds no JSON object/,
    );
    expect(result.template?.investigation_trace).toContain("I could not tell.");
    expect(result.template?.agentic_parsing_performed).toBe(false);
  });

  test("seed 002 §3 an investigation that hits its turn limit is an error", async () => {
    scriptAnswerer();
    server.script({
      match: { model: "judge" },
      reply: { toolCalls: [{ name: "list_files", arguments: {} }] },
      repeat: true,
    });
    const result = await verify({ agentic_parsing_max_turns: 2 });
    expect(requestsOf("judge")).toHaveLength(2);
    expect(result.metadata.failure?.reason).toBe(
      "Agentic investigation hit the turn limit before producing a reliable report",
    );
    expect(result.template?.investigation_trace).toContain("list_files");
  });
});

describe("seed 002 §9 interaction table", () => {
  const stageNames = (overrides: Record<string, unknown> = {}) => {
    const cfg = config(overrides);
    const [task] = planTasks(
      [
        {
          id: "q",
          text: QUESTION,
          rawAnswer: null,
          template: { code: TESTS_PASS_TEMPLATE, language: "Python" },
          keywords: null,
          fewShotExamples: [],
          rubric: null,
          dynamicRubric: null,
          workspacePath: "sum-project",
        },
      ],
      cfg,
    );
    if (task === undefined) throw new Error("no task planned");
    return stagesFor(cfg, task).map((stage) => stage.name);
  };

  test("seed 002 §9 interaction table: ValidateTemplate (1) runs first and 7b replaces 7a, never both", () => {
    const names = stageNames();
    expect(names[0]).toBe("ValidateTemplate");
    expect(names).toContain("AgenticParseTemplate");
    expect(names).not.toContain("ParseTemplate");
    expect(stageNames({ agentic_parsing: false })).not.toContain("AgenticParseTemplate");
  });

  test("seed 002 §9 interaction table: GenerateAnswer (2) resolves the workspace and runs the answer as an agent", async () => {
    scriptAnswerer();
    scriptJudge();
    const result = await verify();
    expect(result.template?.agent_metrics).toMatchObject({
      iterations: 4,
      tool_calls: 3,
      tools_used: ["list_files", "read_file", "write_file"],
      limit_reached: false,
    });
    expect(result.template?.raw_llm_response).toContain("write_file");
    expect(result.template?.raw_llm_response).toContain(FINAL_ANSWER);
    expect(result.template?.usage_metadata).toHaveProperty("answer_generation");
    expect(result.template?.usage_metadata).toHaveProperty("agentic_parsing_investigation");
    expect(result.template?.usage_metadata).toHaveProperty("agentic_parsing_extraction");
  });

  test("seed 002 §9 interaction table: GenerateAnswer (2) uses the AgentPort for a deep_agent answering model", async () => {
    const claude = {
      id: "claude-code",
      model_name: "claude-sonnet-4-5",
      interface: "claude_agent_sdk",
      anthropic_api_key: null,
    };
    const run = await benchmark().runVerification(config({ answering_models: [claude] }), {
      workspaceRoot: root,
      ports: new CachingPortProvider({ env: {} }),
    });
    // The deep agent (not a plain Anthropic call) was asked for: it names Claude Code's own key variables.
    expect(run.results[0]?.metadata.failure?.reason).toMatch(
      /^Failed to initialize answering model: AdapterUnavailableError: claude_agent_sdk needs an API key.*CLAUDE_CODE_OAUTH_TOKEN/,
    );
  });

  test("seed 002 §9 interaction table: RecursionLimitAutoFail (3) — an answering agent at its turn limit fails, 7b skips", async () => {
    server.script({
      match: { model: "answerer" },
      reply: { toolCalls: [{ name: "list_files", arguments: {} }] },
      repeat: true,
    });
    const answerer = {
      ...endpointModel(server.baseURL, "answerer"),
      agent_middleware: { limits: { model_call_limit: 3 } },
    };
    const result = await verify({ answering_models: [answerer] });
    expect(requestsOf("answerer")).toHaveLength(3);
    expect(result.template?.recursion_limit_reached).toBe(true);
    expect(result.template?.verify_result).toBe(false);
    expect(result.metadata.failure).toMatchObject({
      category: "recursion_limit",
      stage: "RecursionLimitAutoFail",
    });
    expect(requestsOf("judge")).toHaveLength(0);
    expect(result.template?.agentic_parsing_performed).toBe(false);
  });

  test("seed 002 §9 interaction table: AbstentionCheck (5) — an abstention skips 7b", async () => {
    server.script(
      { match: { model: "answerer" }, reply: { text: "I cannot modify files for you." } },
      {
        match: { model: "judge" },
        reply: { json: { reasoning: '"I cannot modify files"', abstention_detected: true } },
      },
    );
    const result = await verify({ abstention_enabled: true });
    expect(result.template?.abstention_detected).toBe(true);
    expect(requestsOf("judge")).toHaveLength(1);
    expect(result.template?.agentic_parsing_performed).toBe(false);
    expect(result.template?.verify_result).toBe(false);
  });

  test("seed 002 §9 interaction table: SufficiencyCheck (6) — an insufficient answer skips 7b", async () => {
    server.script(
      { match: { model: "answerer" }, reply: { text: "Done." } },
      {
        match: { model: "judge" },
        reply: { json: { reasoning: "Nothing says whether tests pass.", sufficient: false } },
      },
    );
    const result = await verify({ sufficiency_enabled: true });
    expect(result.template?.sufficiency_detected).toBe(false);
    expect(requestsOf("judge")).toHaveLength(1);
    expect(result.template?.agentic_parsing_performed).toBe(false);
  });

  test("seed 002 §9 interaction table: VerifyTemplate (8) and EmbeddingCheck (9) work on 7b's parsed answer as on 7a's", async () => {
    expect(stageNames({ embedding_check_enabled: true }).slice(-3)).toEqual([
      "AgenticParseTemplate",
      "VerifyTemplate",
      "EmbeddingCheck",
    ]);
    scriptAnswerer();
    server.script(
      { match: { model: "judge" }, reply: { text: '{"tests_pass": false}' } },
      { match: { model: "judge" }, reply: { json: { tests_pass: false } } },
    );
    const result = await verify();
    expect(result.template).toMatchObject({
      template_verification_performed: true,
      verify_result: false,
      field_results: { tests_pass: false },
    });
  });

  test("seed 002 §9 interaction table: DeepJudgmentAutoFail (10) skips after agentic parsing", async () => {
    expect(stageNames({ deep_judgment_mode: "full" })).toContain("DeepJudgmentAutoFail");
    scriptAnswerer();
    scriptJudge();
    const result = await verify({ deep_judgment_mode: "full" });
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.verify_result).toBe(true);
    expect(result.deep_judgment).toBeNull();
  });

  test("seed 002 §9 interaction table: FinalizeResult (13) — investigation fields in the result, workspace cleaned", async () => {
    scriptAnswerer();
    scriptJudge();
    const result = await verify();
    expect(result.template?.agentic_parsing_performed).toBe(true);
    expect(result.template?.investigation_trace).toMatch(/^--- AI Message ---/);
    expect(await workingCopies()).toEqual([]);
    const plain = await verifyPlain();
    expect(plain.template?.investigation_trace).toBeNull();
    expect(plain.template?.agentic_parsing_performed).toBe(false);
  });

  test("seed 002 §6 and §7: the investigation fields reach the result; the workspace path stays an artifact", async () => {
    scriptAnswerer();
    scriptJudge();
    const result = await verify({ workspace_cleanup: false });
    const [copy] = await workingCopies();
    expect(copy).toBeDefined();
    expect(typeof result.template?.investigation_trace).toBe("string");
    expect(result.template?.agentic_parsing_performed).toBe(true);
    // The answering prompt names the directory (kept in conversation_context); no field of the result holds it.
    const { conversation_context: _prompt, ...fields } = result.template ?? {};
    expect(JSON.stringify({ ...result, template: fields })).not.toContain(join(root, copy ?? ""));
    expect(JSON.stringify(result)).not.toContain('"workspace_path"');
  });

  /** The same task with classic parsing and no workspace: one LLM call to answer, one to parse. */
  async function verifyPlain(): Promise<VerificationResult> {
    server.script(
      { match: { model: "answerer" }, reply: { text: FINAL_ANSWER } },
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
    );
    const run = await benchmark().runVerification(config({ agentic_parsing: false }));
    return run.results[0] as VerificationResult;
  }
});

describe("shared answers and the scheduler", () => {
  test("two judges share one answer and its workspace; the copy is removed after the last of them", async () => {
    scriptAnswerer();
    scriptJudge("judge");
    scriptJudge("judge2");
    // One task at a time: the second judge investigates after the first task has finished.
    const run = await benchmark().runVerification(
      config({
        parsing_models: [endpointModel(server.baseURL, "judge"), endpointModel(server.baseURL, "judge2")],
        async_enabled: false,
      }),
      { workspaceRoot: root },
    );
    expect(run.results.map((result) => result.template?.verify_result)).toEqual([true, true]);
    expect(requestsOf("answerer")).toHaveLength(4);
    for (const result of run.results) expect(result.template?.investigation_trace).toContain("let i = 0");
    expect(await workingCopies()).toEqual([]);
  });

  test("an agent run holds a scheduler slot for its whole length: with one slot, no two model calls overlap", async () => {
    const bench = Benchmark.create({ name: "agentic-e2e" });
    for (const id of ["a", "b"]) {
      bench.addQuestion(`${QUESTION} (${id})`, "passes", {
        questionId: id,
        answerTemplate: TESTS_PASS_TEMPLATE,
        workspacePath: "sum-project",
      });
    }
    server.script(
      {
        match: { model: "answerer" },
        reply: { toolCalls: [{ name: "list_files", arguments: {} }], delayMs: 60 },
      },
      {
        match: { model: "answerer" },
        reply: { toolCalls: [{ name: "list_files", arguments: {} }], delayMs: 60 },
      },
      { match: { model: "answerer" }, reply: { text: "Looked.", delayMs: 60 }, repeat: true },
      { match: { model: "judge" }, reply: { text: '{"tests_pass": false}' } },
      { match: { model: "judge" }, reply: { json: { tests_pass: false } } },
      { match: { model: "judge" }, reply: { text: '{"tests_pass": false}' } },
      { match: { model: "judge" }, reply: { json: { tests_pass: false } } },
    );
    const run = await bench.runVerification(
      config({ async_enabled: true, async_max_workers: 2, max_concurrent_requests: 1 }),
      { workspaceRoot: root },
    );
    expect(run.results).toHaveLength(2);
    expect(server.peakInFlight.all).toBe(1);
  });
});

describe("agentic rubric traits", () => {
  const traits: RubricTraitInput[] = [
    {
      type: "agentic",
      name: "tests_fixed",
      description: "Does `node sum.test.js` pass in the workspace now?",
      kind: "boolean",
      context_mode: "workspace_only",
    },
    {
      type: "agentic",
      name: "fix_report",
      description: "Which file was changed, and how many lines of it?",
      kind: {
        type: "template",
        schema: {
          type: "object",
          properties: { file: { type: "string" }, lines_changed: { type: "integer" } },
          required: ["file", "lines_changed"],
        },
      },
      higher_is_better: null,
      context_mode: "trace_only",
    },
  ];

  test("spec 03 §9.5 each agentic trait is investigated by an agent, then read into its kind", async () => {
    const bench = benchmark();
    bench.setQuestionRubric("fix-sum", traits);
    scriptAnswerer();
    server.script(
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
      {
        match: { model: "judge" },
        reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] },
      },
      { match: { model: "judge" }, reply: { text: "The loop starts at 0 now; every case passes." } },
      { match: { model: "judge" }, reply: { json: { result: true } } },
      {
        match: { model: "judge" },
        reply: { text: 'The agent rewrote sum.js.\n{"file": "sum.js", "lines_changed": 1}' },
      },
    );
    const run = await bench.runVerification(
      config({ agentic_parsing: false, evaluation_mode: "template_and_rubric" }),
      { workspaceRoot: root },
    );
    const result = run.results[0] as VerificationResult;
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.verify_result).toBe(true);
    expect(result.rubric?.agentic_trait_scores).toEqual({
      tests_fixed: true,
      "fix_report.file": "sum.js",
      "fix_report.lines_changed": 1,
    });
    expect(result.rubric?.agentic_trait_extraction_metadata).toEqual({
      fix_report: { method: "local_json", local_json_error: null, parser_error: null },
    });
    expect(result.rubric?.agentic_trait_investigation_traces?.tests_fixed).toContain("let i = 0");
    expect(result.rubric?.trait_provenance).toEqual({
      tests_fixed: "question_specific",
      fix_report: "question_specific",
    });
    const judge = requestsOf("judge");
    expect(judge).toHaveLength(5);
    // workspace_only: the workspace, tools, no trace; trace_only with a workspace: the trace, no workspace, no tools.
    expect(textOf(judge[1])).toContain("Workspace directory:");
    expect(textOf(judge[1])).not.toContain(FINAL_ANSWER);
    expect(textOf(judge[4])).toContain(FINAL_ANSWER);
    expect(textOf(judge[4])).not.toContain("Workspace directory:");
    expect((judge[4] as Record<string, unknown>).tools).toBeUndefined();
    expect(await workingCopies()).toEqual([]);
  });

  test("spec 03 §9.5 strategy shared: one investigation for every trait, then one extraction per trait", async () => {
    const bench = benchmark();
    bench.setQuestionRubric("fix-sum", traits);
    scriptAnswerer();
    server.script(
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
      {
        match: { model: "judge" },
        reply: { toolCalls: [{ name: "read_file", arguments: { path: "sum.js" } }] },
      },
      {
        match: { model: "judge" },
        reply: {
          text: 'tests_fixed: the loop starts at 0; every case passes.\nfix_report: {"file": "sum.js", "lines_changed": 1}',
        },
      },
      { match: { model: "judge" }, reply: { json: { result: true } } },
    );
    const run = await bench.runVerification(
      config({
        agentic_parsing: false,
        evaluation_mode: "template_and_rubric",
        agentic_rubric_strategy: "shared",
      }),
      { workspaceRoot: root },
    );
    const result = run.results[0] as VerificationResult;
    expect(result.rubric?.agentic_trait_scores).toEqual({
      tests_fixed: true,
      "fix_report.file": "sum.js",
      "fix_report.lines_changed": 1,
    });
    const judge = requestsOf("judge");
    expect(judge).toHaveLength(4);
    // The shared session shows what any trait wants: the trace (fix_report) and the workspace (tests_fixed).
    const session = textOf(judge[1]);
    expect(session).toContain("tests_fixed: Does");
    expect(session).toContain("fix_report: Which file");
    expect(session).toContain(FINAL_ANSWER);
    expect(session).toContain("Workspace directory:");
    const traces = result.rubric?.agentic_trait_investigation_traces ?? {};
    expect(traces.tests_fixed).toBe(traces.fix_report);
  });

  test("spec 05 §12.9 a trait whose judge cannot run an agent fails the task", async () => {
    const bench = benchmark();
    bench.setQuestionRubric("fix-sum", [
      { ...traits[0], model_override: { interface: "manual", manual_traces: {} } } as RubricTraitInput,
    ]);
    scriptAnswerer();
    server.script({ match: { model: "judge" }, reply: { json: { tests_pass: true } } });
    const run = await bench.runVerification(
      config({ agentic_parsing: false, evaluation_mode: "template_and_rubric" }),
      { workspaceRoot: root },
    );
    expect(run.results[0]?.metadata.failure?.reason).toContain(
      'AgenticTraitModelError: agentic trait "tests_fixed": model_override: expected a model that can run an agent, found the manual interface',
    );
  });

  test("spec 03 §9.5 a failed investigation leaves the trait null with a warning; the other traits are scored", async () => {
    const bench = benchmark();
    bench.setQuestionRubric("fix-sum", traits);
    scriptAnswerer();
    server.script(
      { match: { model: "judge" }, reply: { json: { tests_pass: true } } },
      { match: { model: "judge" }, reply: { status: 400, message: "scripted: investigation refused" } },
      { match: { model: "judge" }, reply: { text: '{"file": "sum.js", "lines_changed": 1}' } },
    );
    const run = await bench.runVerification(
      config({ agentic_parsing: false, evaluation_mode: "template_and_rubric" }),
      { workspaceRoot: root },
    );
    const result = run.results[0] as VerificationResult;
    expect(result.rubric?.agentic_trait_scores).toEqual({
      tests_fixed: null,
      "fix_report.file": "sum.js",
      "fix_report.lines_changed": 1,
    });
    expect(Object.keys(result.rubric?.agentic_trait_investigation_traces ?? {})).toEqual(["fix_report"]);
    expect(result.metadata.warnings.join("\n")).toContain(
      'Agentic trait "tests_fixed" has no score: investigation failed',
    );
  });
});
