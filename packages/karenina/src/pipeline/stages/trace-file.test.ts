/**
 * Trace materialisation (spec 05 §12.3, §12.6 step 2): the answering trace is written to a file the judge
 * reads with its tools instead of receiving it inline. End to end over real HTTP to the scripted
 * OpenAI-compatible server on 127.0.0.1, with real files; every scripted reply below is hand-written test
 * data, not output of any model. The judge's scripted `read_file` of the trace file proves the file exists
 * while the judge runs: the tool's result (the file's text) reaches the judge's next request.
 */
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseRubric } from "../../model/index.js";
import type { VerificationResult } from "../../results/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { pipelineContext, runPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { materializeTrace, traceFileName } from "./trace-file.js";

const server = serverPerTest(startOpenAiServer);
let root = "";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "karenina-trace-file-"));
  await mkdir(join(root, "ws"));
  await writeFile(join(root, "ws", "notes.txt"), "nothing here\n");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The answering agent's final message (hand-written): a marker only the trace holds. */
const ANSWER = "Venetoclax (marker 4d1e) is the BCL-2 inhibitor approved for CLL.";
const TRACE_NAME = "q-cll_trace.txt";

async function verify(
  config: Record<string, unknown>,
  question: Record<string, unknown> = {},
): Promise<VerificationResult> {
  server.script({ match: { model: "answerer" }, reply: { text: ANSWER } });
  const ctx = pipelineContext({
    baseURL: server.baseURL,
    config: { workspace_cleanup: false, ...config },
    question: { workspacePath: "ws", ...question },
    services: { workspaceRoot: root },
  });
  return runPipeline(ctx);
}

const judgeRequests = () =>
  server.requests
    .filter((request) => request.body.model === "judge")
    .map((request) => JSON.stringify(request.body));

/** The working copy of `ws` the run made (kept: `workspace_cleanup: false`). */
async function workingCopy(): Promise<string> {
  const [copy] = (await readdir(root)).filter((name) => name.startsWith("ws_run_"));
  if (copy === undefined) throw new Error("no working copy");
  return join(root, copy);
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The agentic-parse judge (hand-written): read the trace file at `path`, report, extraction. */
function scriptParsingJudge(path: string) {
  server.script(
    { match: { model: "judge" }, reply: { toolCalls: [{ name: "read_file", arguments: { path } }] } },
    { match: { model: "judge" }, reply: { text: 'The trace names venetoclax.\n{"drug": "venetoclax"}' } },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } } },
  );
}

const MATERIALIZED = {
  agentic_parsing: true,
  agentic_judge_context: "trace_and_workspace",
  agentic_parsing_materialize_trace: true,
};

describe("spec 05 §12.3 trace materialisation in agentic parsing (7b)", () => {
  test("spec 05 §12.3 trace materialisation: the judge is given the file path, reads the file, and it is removed afterwards", async () => {
    scriptParsingJudge(`traces/${TRACE_NAME}`);
    const result = await verify(MATERIALIZED);
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.verify_result).toBe(true);
    const copy = await workingCopy();
    const [investigation, afterRead] = judgeRequests();
    expect(investigation).toContain(`it is in the file ${join(copy, "traces", TRACE_NAME)}`);
    expect(investigation).not.toContain("marker 4d1e");
    expect(investigation).not.toContain("<trace>");
    // The read_file result: the file held the raw trace while the judge ran.
    expect(afterRead).toContain("--- AI Message ---");
    expect(afterRead).toContain("marker 4d1e");
    expect(await exists(join(copy, "traces"))).toBe(false);
    expect(result.metadata.warnings.join("\n")).not.toContain("materialize");
  });

  test("spec 05 §12.3 trace materialisation: persist_trace keeps the file, holding the raw trace", async () => {
    scriptParsingJudge(`traces/${TRACE_NAME}`);
    await verify({ ...MATERIALIZED, agentic_parsing_persist_trace: true });
    const kept = await readFile(join(await workingCopy(), "traces", TRACE_NAME), "utf8");
    expect(kept).toBe(`--- AI Message ---\n${ANSWER}`);
  });

  test("spec 05 §12.3 trace materialisation: trace_only gives the judge read-only tools on the trace's directory only", async () => {
    scriptParsingJudge(TRACE_NAME);
    const result = await verify({ ...MATERIALIZED, agentic_judge_context: "trace_only" });
    expect(result.template?.verify_result).toBe(true);
    const [investigation, afterRead] = judgeRequests();
    expect(investigation).not.toContain("Workspace directory:");
    expect(investigation).toContain(TRACE_NAME);
    expect(afterRead).toContain("marker 4d1e");
  });

  test("spec 05 §12.3 trace materialisation: without it the trace is inline and no file is written", async () => {
    server.script(
      { match: { model: "judge" }, reply: { text: '{"drug": "venetoclax"}' } },
      { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } } },
    );
    await verify({
      ...MATERIALIZED,
      agentic_parsing_materialize_trace: false,
      agentic_parsing_persist_trace: true,
    });
    const [investigation] = judgeRequests();
    expect(investigation).toContain("marker 4d1e");
    expect(investigation).not.toContain(TRACE_NAME);
    expect(await exists(join(await workingCopy(), "traces"))).toBe(false);
  });
});

describe("spec 05 §12.3 trace materialisation for agentic traits (11b)", () => {
  const trait = (overrides: Record<string, unknown> = {}) => ({
    name: "names_drug",
    description: "Does the answer name a drug?",
    kind: "boolean",
    context_mode: "trace_only",
    materialize_trace: true,
    ...overrides,
  });
  const RUBRIC_CONFIG = { evaluation_mode: "rubric_only" };

  /** The trait judge (hand-written): read the trace file, report, extraction. */
  function scriptTraitJudge(path: string) {
    server.script(
      { match: { model: "judge" }, reply: { toolCalls: [{ name: "read_file", arguments: { path } }] } },
      { match: { model: "judge" }, reply: { text: "The trace names venetoclax." } },
      { match: { model: "judge" }, reply: { json: { result: true } } },
    );
  }

  test("spec 05 §12.3 trace materialisation: an individual trait is given the file path (our fix), reads it, and it is removed", async () => {
    scriptTraitJudge(TRACE_NAME);
    const result = await verify(RUBRIC_CONFIG, { rubric: parseRubric({ agentic_traits: [trait()] }) });
    expect(result.metadata.failure).toBeNull();
    expect(result.rubric?.agentic_trait_scores).toEqual({ names_drug: true });
    const copy = await workingCopy();
    const [investigation, afterRead] = judgeRequests();
    expect(investigation).toContain(`it is in the file ${join(copy, "traces", TRACE_NAME)}`);
    expect(investigation).not.toContain("marker 4d1e");
    expect(afterRead).toContain("marker 4d1e");
    expect(await exists(join(copy, "traces"))).toBe(false);
  });

  test("spec 05 §12.3 trace materialisation: a trait with persist_trace keeps the one file written for all traits", async () => {
    scriptTraitJudge(TRACE_NAME);
    server.script(
      { match: { model: "judge" }, reply: { text: "It names a drug." } },
      { match: { model: "judge" }, reply: { json: { result: true } } },
    );
    const rubric = parseRubric({
      agentic_traits: [trait(), trait({ name: "inline_one", materialize_trace: false, persist_trace: true })],
    });
    const result = await verify(RUBRIC_CONFIG, { rubric });
    expect(result.rubric?.agentic_trait_scores).toEqual({ names_drug: true, inline_one: true });
    const copy = await workingCopy();
    expect(await readdir(join(copy, "traces"))).toEqual([TRACE_NAME]);
    // The trait without materialize_trace still gets the trace inline.
    expect(judgeRequests()[3]).toContain("marker 4d1e");
    expect(judgeRequests()[3]).not.toContain(TRACE_NAME);
  });
});

describe("spec 05 §12.3 trace files", () => {
  test("spec 05 §12.3 trace materialisation: the name keeps [A-Za-z0-9_-] of the question id", () => {
    expect(traceFileName("urn:uuid:q.1/a")).toBe("urn_uuid_q_1_a_trace.txt");
    expect(traceFileName("q-1", 2)).toBe("q-1_trace_2.txt");
  });

  test("spec 05 §12.3 trace materialisation: a taken name is never overwritten; without a workspace a temporary directory is used and removed", async () => {
    const workspace = { path: join(root, "ws"), isCopy: true, source: null, skippedLinks: [] };
    const first = await materializeTrace("first", "q", workspace);
    const second = await materializeTrace("second", "q", workspace);
    expect(first.path).toBe(join(root, "ws", "traces", "q_trace.txt"));
    expect(second.path).toBe(join(root, "ws", "traces", "q_trace_2.txt"));
    expect(await readFile(first.path, "utf8")).toBe("first");
    await second.release(false);
    expect(await readdir(join(root, "ws", "traces"))).toEqual(["q_trace.txt"]);
    await first.release(false);
    expect(await exists(join(root, "ws", "traces"))).toBe(false);

    const loose = await materializeTrace("no workspace", "q", null);
    expect(await readFile(loose.path, "utf8")).toBe("no workspace");
    await loose.release(false);
    expect(await exists(dirname(loose.path))).toBe(false);
  });
});
