/**
 * Verification job routes beyond the lifecycle: the SSE progress stream (snapshot first, `Last-Event-ID`
 * replay), the JSON export's header after a cancel, `fields`, summary and comparison by reference, and a config
 * the server refuses naming the field. Against the real server on 127.0.0.1 and the scripted OpenAI server,
 * whose replies are hand-written test data.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import {
  apiClient,
  drugCheckpoint,
  drugConfig,
  drugReplies,
  json,
} from "../__fixtures__/verification-jobs.js";

let llm: OpenAiTestServer | null = null;
let server: TestServer;
let api: ReturnType<typeof apiClient>;

beforeEach(async () => {
  server = await startTestServer();
  api = apiClient(server.url, server.token);
});
afterEach(async () => {
  await server.close();
  await llm?.close();
  llm = null;
});

async function startJob(questions: number, extra: Record<string, unknown> = {}) {
  const res = await api.post("/api/v2/verifications", {
    config: drugConfig((llm as OpenAiTestServer).baseURL),
    checkpoint: drugCheckpoint(questions),
    ...extra,
  });
  expect(res.status).toBe(202);
  return (await json(res)) as { job_id: string; run_name: string };
}

interface SseEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** Reads a whole SSE response (it ends when the job does) into its events. */
async function readSse(res: Response): Promise<SseEvent[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split("\n")) {
        const at = line.indexOf(":");
        fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
      }
      return { id: fields.id ?? "", event: fields.event ?? "", data: JSON.parse(fields.data ?? "null") };
    });
}

const seqs = (events: readonly SseEvent[]) => events.map((e) => e.data.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("progress as Server-Sent Events", () => {
  test("a snapshot first, then every event in seq order to job_completed; Last-Event-ID replays the rest", async () => {
    llm = await startOpenAiServer(drugReplies(60));
    const job = await startJob(4);
    const live = await api.get(`/api/v2/verifications/${job.job_id}/events`);
    expect(live.status).toBe(200);
    expect(live.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readSse(live);
    expect(events[0]?.event).toBe("snapshot");
    const rest = events.slice(1);
    const first = Number(events[0]?.data.seq) + 1;
    const view = await json(await api.get(`/api/v2/verifications/${job.job_id}/progress`));
    expect(seqs(rest)).toEqual(range(first, view.last_seq));
    for (const e of rest) {
      expect(e.id).toBe(String(e.data.seq));
      expect(e.event).toBe(e.data.type);
      expect(e.data.job_id).toBe(job.job_id);
    }
    expect(rest.at(-1)?.event).toBe("job_completed");
    expect(rest.at(-1)?.data).toMatchObject({ status: "completed", processed: 4, total: 4 });
    const completed = rest.filter((e) => e.event === "task_completed");
    expect(completed.length).toBe(4 - Number(events[0]?.data.processed));
    expect(completed[0]?.data.result_summary).toMatchObject({ passed: true, failure_category: null });

    const again = await api.get(`/api/v2/verifications/${job.job_id}/events`, { "last-event-id": "3" });
    const replay = await readSse(again);
    expect(replay[0]?.event).toBe("snapshot");
    expect(replay[0]?.data).toMatchObject({ status: "completed", seq: view.last_seq });
    expect(seqs(replay.slice(1))).toEqual(range(4, view.last_seq));
    const fromQuery = await readSse(await api.get(`/api/v2/verifications/${job.job_id}/events?after=0`));
    expect(seqs(fromQuery.slice(1))).toEqual(range(1, view.last_seq));
    expect(fromQuery.filter((e) => e.event === "task_completed")).toHaveLength(4);
  });

  test("an unknown job answers 404 in the error envelope", async () => {
    const res = await api.get("/api/v2/verifications/no-such-job/events");
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({
      error: {
        code: "job_not_found",
        message: 'job "no-such-job" not found; list the jobs to find its id',
      },
    });
  });
});

describe("results and export", () => {
  test("fields=full gives whole rows (the default), fields=summary the table's fields only; a bad value is 422", async () => {
    llm = await startOpenAiServer(drugReplies());
    const job = await startJob(2);
    await api.waitForStatus(job.job_id, "completed");
    const full = await json(await api.get(`/api/v2/verifications/${job.job_id}/results?fields=full`));
    const byDefault = await json(await api.get(`/api/v2/verifications/${job.job_id}/results`));
    expect(byDefault).toEqual(full);
    expect(full.total).toBe(2);
    expect(full.items[0].metadata).toMatchObject({ question_id: expect.stringMatching(/^q[01]$/) });
    expect(full.items[0].template).toMatchObject({ verify_result: true });
    const summary = await json(await api.get(`/api/v2/verifications/${job.job_id}/results?fields=summary`));
    expect(Object.keys(summary.items[0]).sort()).toEqual(
      [
        "answering",
        "failure_category",
        "parsing",
        "passed",
        "question_id",
        "replicate",
        "result_id",
        "verify_result",
      ].sort(),
    );
    expect(summary.items.map((i: { result_id: string }) => i.result_id)).toEqual(
      full.items.map((i: { metadata: { result_id: string } }) => i.metadata.result_id),
    );
    const bad = await api.get(`/api/v2/verifications/${job.job_id}/results?fields=everything`);
    expect(bad.status).toBe(422);
    expect((await json(bad)).error.message).toMatch(/^query\.fields: /);
  });

  test("the JSON export of a cancelled job is v2.2 with is_complete false and exactly the rows finished", async () => {
    llm = await startOpenAiServer(drugReplies(250));
    const job = await startJob(8);
    const running = await api.get(`/api/v2/verifications/${job.job_id}/export`);
    expect(running.status).toBe(409);
    expect((await json(running)).error.code).toBe("job_not_finished");
    const w = api.watch(job.job_id);
    await w.opened;
    while (!w.events.some((e) => e.type === "task_completed")) await new Promise((r) => setTimeout(r, 10));
    const cancelled = await json(await api.del(`/api/v2/verifications/${job.job_id}`));
    expect(cancelled.status).toBe("cancelled");
    const res = await api.get(`/api/v2/verifications/${job.job_id}/export?fmt=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="verification_results_\d{8}_\d{6}_openai_answerer_to_openai_judge\.json"$/,
    );
    const file = await json(res);
    expect(file.format_version).toBe("2.2");
    expect(file.metadata.job_id).toBe(job.job_id);
    expect(file.metadata.job_summary).toMatchObject({
      total_questions: 8,
      successful_count: cancelled.successful,
      failed_count: cancelled.failed,
      is_complete: false,
    });
    expect(file.metadata.job_summary.end_time).toBeGreaterThanOrEqual(file.metadata.job_summary.start_time);
    expect(file.results).toHaveLength(cancelled.processed);
    expect(cancelled.processed).toBeGreaterThan(0);
    expect(cancelled.processed).toBeLessThan(8);
  });

  test("the JSON export of a completed job says is_complete true", async () => {
    llm = await startOpenAiServer(drugReplies());
    const job = await startJob(2);
    await api.waitForStatus(job.job_id, "completed");
    const file = await json(await api.get(`/api/v2/verifications/${job.job_id}/export`));
    expect(file.metadata.job_summary).toMatchObject({
      total_questions: 2,
      successful_count: 2,
      failed_count: 0,
      is_complete: true,
    });
    expect(file.results).toHaveLength(2);
  });
});

describe("a config the server refuses", () => {
  test("a wrong type is 422 naming the field, and no job is made", async () => {
    llm = await startOpenAiServer(drugReplies());
    const res = await api.post("/api/v2/verifications", {
      config: drugConfig(llm.baseURL, { replicate_count: "two" }),
      checkpoint: drugCheckpoint(1),
    });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain("replicate_count");
    expect(body.error.message).toMatch(/^body\.config/);
    expect((await json(await api.get("/api/v2/verifications"))).total).toBe(0);
  });

  test("a hostile config (prototype keys, no models, a non-object) is refused naming the field; nothing is polluted", async () => {
    llm = await startOpenAiServer(drugReplies());
    const polluted = await api.post("/api/v2/verifications", {
      config: JSON.parse(
        `{"__proto__": {"polluted": "yes"}, "answering_models": [], "parsing_models": [], "constructor": {"prototype": {"polluted": "yes"}}}`,
      ),
      checkpoint: drugCheckpoint(1),
    });
    expect(polluted.status).toBe(422);
    expect((await json(polluted)).error.message).toMatch(/^body\.config/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const notObject = await api.post("/api/v2/verifications", { config: "rm -rf /", checkpoint: {} });
    expect(notObject.status).toBe(422);
    expect((await json(notObject)).error.message).toContain("body.config");
    const both = await api.post("/api/v2/verifications", { config: drugConfig(llm.baseURL) });
    expect(both.status).toBe(422);
    expect((await json(both)).error.message).toBe(
      "body: give exactly one of benchmark_name (stored) or checkpoint (JSON-LD)",
    );
    expect((await json(await api.get("/api/v2/verifications"))).total).toBe(0);
  });
});

describe("summary and comparison by reference", () => {
  /** Three judged passes (the first job's), then every judgement wrong: the second job fails everywhere. */
  function passThenFail() {
    const pass = { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } } };
    return [
      { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
      pass,
      pass,
      pass,
      { match: { model: "judge" }, reply: { json: { drug: "ibrutinib" } }, repeat: true },
    ];
  }

  test("summary by run_names and by job_ids agree; unknown names are 404; the body needs one kind of reference", async () => {
    llm = await startOpenAiServer(drugReplies());
    const job = await startJob(3, { run_name: "nightly" });
    await api.waitForStatus(job.job_id, "completed");
    const byName = await json(await api.post("/api/v2/verifications/summary", { run_names: ["nightly"] }));
    const byJob = await json(await api.post("/api/v2/verifications/summary", { job_ids: [job.job_id] }));
    expect(byName).toEqual(byJob);
    expect(byName.success).toBe(true);
    expect(byName.result_count).toBe(3);
    expect(byName.summary).toMatchObject({ num_results: 3 });
    const unknown = await api.post("/api/v2/verifications/summary", { run_names: ["weekly"] });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error).toEqual({
      code: "run_not_found",
      message: 'no stored run is named "weekly"; list the stored runs to find its name',
    });
    const both = await api.post("/api/v2/verifications/summary", {
      run_names: ["nightly"],
      job_ids: [job.job_id],
    });
    expect(both.status).toBe(422);
    expect((await json(both)).error.message).toBe("body: give exactly one of job_ids, run_names or run_ids");
    const neither = await api.post("/api/v2/verifications/summary", {});
    expect(neither.status).toBe(422);
  });

  test("compare two jobs or two run names: every matched row went from pass to fail; models filter both sides", async () => {
    llm = await startOpenAiServer(passThenFail());
    const before = await startJob(3, { run_name: "before" });
    await api.waitForStatus(before.job_id, "completed");
    const after = await startJob(3, { run_name: "after" });
    await api.waitForStatus(after.job_id, "completed");
    const res = await api.post("/api/v2/verifications/compare", { job_ids: [before.job_id, after.job_id] });
    expect(res.status).toBe(200);
    const byJob = await json(res);
    expect(byJob.before).toEqual({ job_id: before.job_id, result_count: 3 });
    expect(byJob.after).toEqual({ job_id: after.job_id, result_count: 3 });
    expect(byJob.comparison.summary).toMatchObject({
      matched: 3,
      pass_to_fail: 3,
      fail_to_pass: 0,
      only_before: 0,
      only_after: 0,
      pass_pct_before: 100,
      pass_pct_after: 0,
      pass_pct_delta: -100,
    });
    expect(byJob.comparison.pass_to_fail.map((c: { question_id: string }) => c.question_id).sort()).toEqual([
      "q0",
      "q1",
      "q2",
    ]);
    const byName = await json(
      await api.post("/api/v2/verifications/compare", { run_names: ["before", "after"] }),
    );
    expect(byName.comparison).toEqual(byJob.comparison);
    const filtered = await json(
      await api.post("/api/v2/verifications/compare", {
        run_names: ["before", "after"],
        models: ["someone-else"],
      }),
    );
    expect(filtered.before.result_count).toBe(0);
    expect(filtered.comparison.summary.matched).toBe(0);
    const one = await api.post("/api/v2/verifications/compare", { job_ids: [before.job_id] });
    expect(one.status).toBe(422);
    expect((await json(one)).error.message).toMatch(/^body\.job_ids: /);
    const unknown = await api.post("/api/v2/verifications/compare", { job_ids: [before.job_id, "nope"] });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe("job_not_found");
  });
});
