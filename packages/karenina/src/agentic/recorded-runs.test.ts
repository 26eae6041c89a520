/**
 * Agentic benchmarks offline: a run recorded live (agent turns, tool calls and their results, judge calls)
 * replays with no network and no key and gives the same verification results; so does a replay store
 * captured from the results. The live runs go over real HTTP to the scripted OpenAI-compatible server on
 * 127.0.0.1; every scripted turn is hand-written test data (see __fixtures__/sum-project.ts).
 */
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { ReplayStore } from "../llm/index.js";
import { parseVerificationConfig, type VerificationRun } from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import { startOpenAiServer } from "../test-support/openai-server/index.js";
import { endpointModel, FAST_RETRIES } from "../test-support/pipeline-context.js";
import { serverPerTest } from "../test-support/server-per-test.js";
import {
  FINAL_ANSWER,
  SUM_PROJECT,
  SUM_QUESTION,
  scriptAnswerer,
  scriptJudge,
  TESTS_PASS_TEMPLATE,
} from "./__fixtures__/sum-project.js";
import { captureReplayStore } from "./index.js";

const server = serverPerTest(startOpenAiServer);
/** Where the replaying models point: `.invalid` never resolves, so any call made would fail. */
const NOWHERE = "http://nowhere.invalid/v1";
let root = "";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "karenina-agentic-replay-"));
  await cp(SUM_PROJECT, join(root, "sum-project"), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function benchmark(question = SUM_QUESTION): Benchmark {
  const bench = Benchmark.create({ name: "agentic-replay" });
  bench.addQuestion(question, "node sum.test.js passes", {
    questionId: "fix-sum",
    answerTemplate: TESTS_PASS_TEMPLATE,
    workspacePath: "sum-project",
  });
  return bench;
}

/** Models served by `baseURL`; offline, no key at all. */
function config(baseURL: string, overrides: Record<string, unknown> = {}) {
  const model = (id: string) => {
    const { endpoint_api_key: _key, ...rest } = endpointModel(baseURL, id);
    return baseURL === NOWHERE ? rest : { ...rest, endpoint_api_key: "sk-live" };
  };
  return parseVerificationConfig({
    answering_models: [model("answerer")],
    parsing_models: [model("judge")],
    retry_policy: FAST_RETRIES,
    ...overrides,
  });
}

/** What a verification result says, without what differs from run to run (times, ids of the run). */
function verdictOf(result: VerificationResult) {
  const { template } = result;
  return {
    failure: result.metadata.failure,
    verify_result: template?.verify_result,
    parsed: template?.parsed_llm_response,
    raw: template?.raw_llm_response,
    trace: template?.trace_messages,
    investigation: template?.investigation_trace,
    agentic_parsing_performed: template?.agentic_parsing_performed,
    agent_metrics: template?.agent_metrics,
    tokens: template?.usage_metadata?.total,
  };
}

const only = (run: VerificationRun) => run.results[0] as VerificationResult;

/** Runs the task live (agent answer, agentic judge), recording into `<root>/recordings`; returns that directory. */
async function recordLive(): Promise<string> {
  const recordings = join(root, "recordings");
  scriptAnswerer(server);
  scriptJudge(server);
  await benchmark().runVerification(config(server.baseURL, { agentic_parsing: true }), {
    workspaceRoot: root,
    recording: { dir: recordings, mode: "record" },
  });
  return recordings;
}

describe("recording agent runs", () => {
  test("a recorded agentic run replays with no network and no key, with the same verification results", async () => {
    const recordings = join(root, "recordings");
    scriptAnswerer(server);
    scriptJudge(server);
    const live = await benchmark().runVerification(config(server.baseURL, { agentic_parsing: true }), {
      workspaceRoot: root,
      recording: { dir: recordings, mode: "record" },
    });
    expect(only(live).template?.verify_result).toBe(true);
    const liveRequests = server.requests.length;

    const offline = await benchmark().runVerification(config(NOWHERE, { agentic_parsing: true }), {
      workspaceRoot: root,
      recording: { dir: recordings, mode: "replay" },
    });
    expect(offline.failures).toEqual([]);
    expect(verdictOf(only(offline))).toEqual(verdictOf(only(live)));
    expect(only(offline).template?.trace_messages).toContainEqual(
      expect.objectContaining({ role: "assistant", tool_calls: expect.anything() }),
    );
    expect(offline.summary.calls).toBe(0);
    expect(offline.summary.replayedCalls).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(liveRequests);
  });

  test("a recorded run keeps its tool calls and results, with the working copy's path written as <workspace>", async () => {
    const recordings = await recordLive();
    const files = await Promise.all(
      (await readdir(recordings)).map(async (name) =>
        JSON.parse(await readFile(join(recordings, name), "utf8")),
      ),
    );
    const runs = files.filter((file) => file.kind === "agent");
    expect(runs.map((file) => file.model_identity).sort()).toEqual([
      "openai_endpoint:answerer",
      "openai_endpoint:judge",
    ]);
    const answering = runs.find((file) => file.model_identity === "openai_endpoint:answerer");
    const text = JSON.stringify(answering);
    expect(text).toContain("Your workspace is the directory <workspace>.");
    expect(text).not.toContain(root);
    expect(answering.request.parameters.tools).toEqual(expect.arrayContaining(["read_file", "write_file"]));
    expect(answering.response.finalResponse).toBe(FINAL_ANSWER);
    const blocks = answering.response.traceMessages.flatMap((m: { content: unknown[] }) => m.content);
    expect(blocks).toContainEqual(expect.objectContaining({ type: "tool_use", name: "write_file" }));
    expect(blocks).toContainEqual(expect.objectContaining({ type: "tool_result", is_error: false }));
  });

  test("a replay miss fails the task with an error naming the question and the call", async () => {
    const recordings = await recordLive();
    const changed = "Fix the bug in sum.js, then say which line was wrong.";
    const offline = await benchmark(changed).runVerification(config(NOWHERE, { agentic_parsing: true }), {
      workspaceRoot: root,
      recording: { dir: recordings, mode: "replay" },
    });
    const reason = only(offline).metadata.failure?.reason ?? "";
    expect(only(offline).metadata.question_id).toBe("fix-sum");
    expect(reason).toContain(
      `ReplayMissError: no recorded agent run of openai_endpoint:answerer for the request whose last user message is "${changed}`,
    );
    expect(reason).toContain("re-record it");
    expect(offline.summary.calls).toBe(0);
  });
});

describe("a replay store captured from results", () => {
  // A replayed answer comes without a workspace (spec 04 §5.2: replay comes before workspace resolution), so
  // the judge here reads the trace only: the same request live and replayed.
  const traceJudge = { agentic_parsing: true, agentic_judge_context: "trace_only" };

  test("the agent's answer (tool calls and results included) replays from the saved store, the judge from recordings", async () => {
    const recordings = join(root, "recordings");
    scriptAnswerer(server);
    scriptJudge(server, "judge", false);
    const live = await benchmark().runVerification(config(server.baseURL, traceJudge), {
      workspaceRoot: root,
      recording: { dir: recordings, mode: "record" },
    });
    expect(only(live).metadata.failure).toBeNull();
    const file = join(root, "answers.replay.json");
    await captureReplayStore(live.results).save(file);
    // Without the answering agent's recording, only the store can answer.
    for (const name of await readdir(recordings)) {
      const recorded = JSON.parse(await readFile(join(recordings, name), "utf8"));
      if (recorded.model_identity === "openai_endpoint:answerer") await rm(join(recordings, name));
    }
    const liveRequests = server.requests.length;

    const offline = await benchmark().runVerification(config(NOWHERE, traceJudge), {
      workspaceRoot: root,
      replay: await ReplayStore.load(file),
      recording: { dir: recordings, mode: "replay" },
    });
    const result = only(offline);
    expect(result.metadata.failure).toBeNull();
    expect(result.template?.verify_result).toBe(true);
    expect(result.template?.parsed_llm_response).toEqual(only(live).template?.parsed_llm_response);
    expect(result.template?.raw_llm_response).toBe(only(live).template?.raw_llm_response);
    expect(result.template?.trace_messages).toEqual(only(live).template?.trace_messages);
    expect(result.template?.agent_metrics).toEqual(only(live).template?.agent_metrics);
    expect(offline.summary.calls).toBe(0);
    expect(server.requests).toHaveLength(liveRequests);
  });

  test("capture options: parsed fields left out, failures other than content skipped, replicates collapsed", async () => {
    scriptAnswerer(server);
    scriptJudge(server);
    const [result] = (
      await benchmark().runVerification(config(server.baseURL, { agentic_parsing: true }), {
        workspaceRoot: root,
      })
    ).results as [VerificationResult];
    const timedOut: VerificationResult = {
      ...result,
      metadata: {
        ...result.metadata,
        question_id: "other",
        failure: {
          category: "timeout",
          stage: "GenerateAnswer",
          reason: "t",
          details: null,
          group: "system",
        },
      },
    } as VerificationResult;
    const replicated = [1, 2].map(
      (replicate) => ({ ...result, metadata: { ...result.metadata, replicate } }) as VerificationResult,
    );
    const bare = captureReplayStore([result, timedOut], { includeParsed: false, includeAgentTraces: false });
    expect(bare.entries().map((e) => e.key.question_id)).toEqual(["fix-sum"]);
    expect(bare.entries()[0]?.entry).toMatchObject({ parsed_answer_fields: null, trace_messages: null });
    expect(bare.entries()[0]?.key.answering_model_id).toBe("openai_endpoint:answerer");
    const all = captureReplayStore([result, timedOut], { onlySuccessful: false });
    expect(all.size).toBe(2);
    const last = captureReplayStore(replicated, { replicateSelector: "last" });
    expect(last.entries().map((e) => e.key.replicate)).toEqual([null]);
    expect(
      captureReplayStore(replicated)
        .entries()
        .map((e) => e.key.replicate),
    ).toEqual([1, 2]);
  });
});
