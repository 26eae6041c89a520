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

let llm: OpenAiTestServer;
let server: TestServer;
let api: ReturnType<typeof apiClient>;

async function startJob(questions: number, extra: Record<string, unknown> = {}) {
  const res = await api.post("/api/v2/verifications", {
    config: drugConfig(llm.baseURL),
    checkpoint: drugCheckpoint(questions),
    ...extra,
  });
  expect(res.status).toBe(202);
  return (await res.json()) as { job_id: string; run_name: string; status: string };
}

describe("verification jobs", () => {
  beforeEach(async () => {
    server = await startTestServer();
    api = apiClient(server.url, server.token);
  });
  afterEach(async () => {
    await server.close();
    await llm.close();
  });

  test("a job runs to completed; its results page by cursor, one row in full, export, summary by reference", async () => {
    llm = await startOpenAiServer(drugReplies());
    const job = await startJob(3);
    const done = await api.waitForStatus(job.job_id, "completed");
    expect(done).toMatchObject({ processed: 3, total: 3, successful: 3, failed: 0, percentage: 100 });
    const first = await json(
      await api.get(`/api/v2/verifications/${job.job_id}/results?limit=2&fields=summary`),
    );
    expect(first.total).toBe(3);
    expect(first.items).toHaveLength(2);
    expect(first.items[0]).toMatchObject({ passed: true, failure_category: null });
    const second = await json(
      await api.get(`/api/v2/verifications/${job.job_id}/results?limit=2&cursor=${first.next_cursor}`),
    );
    expect(second.items).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    const one = await api.get(`/api/v2/verifications/${job.job_id}/results/${first.items[0].result_id}`);
    expect(one.status).toBe(200);
    expect((await json(one)).metadata.result_id).toBe(first.items[0].result_id);
    const csv = await api.get(`/api/v2/verifications/${job.job_id}/export?fmt=csv`);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(4);
    const summary = await json(await api.post("/api/v2/verifications/summary", { job_ids: [job.job_id] }));
    expect(summary.result_count).toBe(3);
    const list = await json(await api.get("/api/v2/verifications?status=completed"));
    expect(list).toMatchObject({ total: 1, page: 1, page_size: 50 });
  });

  test("unknown jobs: 404 envelope on progress, 1008 on the socket", async () => {
    llm = await startOpenAiServer([]);
    const res = await api.get("/api/v2/verifications/nope/progress");
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe("job_not_found");
    const { closed } = api.watch("nope");
    expect(await closed).toEqual({ code: 1008, reason: "Job not found" });
  });

  test("50 subscribers each receive every event, a snapshot first; a late one replays with ?after", async () => {
    llm = await startOpenAiServer(drugReplies(100));
    const job = await startJob(4);
    const watchers = Array.from({ length: 50 }, () => api.watch(job.job_id));
    await Promise.all(watchers.map((w) => w.opened));
    await Promise.all(watchers.map((w) => w.closed));
    const finalSeq = (await api.waitForStatus(job.job_id, "completed")) as unknown as { last_seq: number };
    for (const w of watchers) {
      expect(w.events[0]?.type).toBe("snapshot");
      const live = w.events.slice(1);
      const firstSeq = Number(w.events[0]?.seq) + 1;
      expect(live.map((e) => e.seq)).toEqual(Array.from({ length: live.length }, (_, i) => firstSeq + i));
      expect(live.at(-1)?.type).toBe("job_completed");
      expect(live.at(-1)?.seq).toBe(finalSeq.last_seq);
    }
    const late = api.watch(job.job_id, 0);
    await late.closed;
    expect(late.events[0]?.type).toBe("snapshot");
    const replayed = late.events.slice(1);
    expect(replayed.map((e) => e.seq)).toEqual(Array.from({ length: finalSeq.last_seq }, (_, i) => i + 1));
    expect(replayed.filter((e) => e.type === "task_completed")).toHaveLength(4);
  });

  test("cancel aborts the job, ends it cancelled and keeps the rows finished before", async () => {
    llm = await startOpenAiServer(drugReplies(300));
    const job = await startJob(8, {});
    const w = api.watch(job.job_id);
    await w.opened;
    while (!w.events.some((e) => e.type === "task_completed")) await new Promise((r) => setTimeout(r, 10));
    const res = await api.del(`/api/v2/verifications/${job.job_id}`);
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view.status).toBe("cancelled");
    expect(view.processed).toBeLessThan(8);
    expect(view.processed).toBeGreaterThan(0);
    const page = await json(await api.get(`/api/v2/verifications/${job.job_id}/results?fields=summary`));
    expect(page.total).toBe(view.processed);
    await w.closed;
    expect(w.events.at(-1)?.type).toBe("job_cancelled");
    const again = await api.del(`/api/v2/verifications/${job.job_id}`);
    expect(again.status).toBe(409);
  });

  test("two jobs at once are isolated", async () => {
    llm = await startOpenAiServer(drugReplies(20));
    const [a, b] = await Promise.all([startJob(2, { run_name: "a" }), startJob(3, { run_name: "b" })]);
    expect(a.job_id).not.toBe(b.job_id);
    expect((await api.waitForStatus(a.job_id, "completed")) as unknown).toMatchObject({
      processed: 2,
      total: 2,
    });
    expect((await api.waitForStatus(b.job_id, "completed")) as unknown).toMatchObject({
      processed: 3,
      total: 3,
    });
    expect((await json(await api.get(`/api/v2/verifications/${a.job_id}/results`))).total).toBe(2);
  });

  test("a job stopped with its server is interrupted; a new server on the same database resumes it to exact counts", async () => {
    llm = await startOpenAiServer(drugReplies(150));
    const job = await startJob(6);
    const w = api.watch(job.job_id);
    await w.opened;
    while (w.events.filter((e) => e.type === "task_completed").length < 2)
      await new Promise((r) => setTimeout(r, 10));
    const workDir = server.deps.workDir;
    await server.close();
    server = await startTestServer({ workDir });
    api = apiClient(server.url, server.token);
    const interrupted = await api.waitForStatus(job.job_id, "interrupted");
    const kept = (interrupted as unknown as { processed: number }).processed;
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(6);
    const resumed = await api.post(`/api/v2/verifications/${job.job_id}/resume`, {});
    expect(resumed.status).toBe(202);
    const done = await api.waitForStatus(job.job_id, "completed");
    expect(done).toMatchObject({ processed: 6, total: 6, successful: 6 });
    const page = await json(await api.get(`/api/v2/verifications/${job.job_id}/results?fields=summary`));
    expect(page.total).toBe(6);
    expect(new Set(page.items.map((i: { result_id: string }) => i.result_id)).size).toBe(6);
  });
});
