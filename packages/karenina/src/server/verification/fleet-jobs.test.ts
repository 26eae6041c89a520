/**
 * `karenina serve --distributed` (issue 18): verification jobs submitted over HTTP run on a fleet worker (here
 * an in-process `runFleetWorker` on the same real PostgreSQL), not in the server; their results, events,
 * cancel and a server restart behave as an in-process job's. Against the scripted OpenAI server on 127.0.0.1,
 * whose replies are hand-written test data.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Fleet, openFleet, runFleetWorker, type WorkerEvent } from "../../distributed/index.js";
import { runKarenina } from "../../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { createTestDatabase, postgresForTests, type TestDatabase } from "../../test-support/postgres.js";
import { startServeProcess } from "../__fixtures__/serve-process.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import {
  apiClient,
  drugCheckpoint,
  drugConfig,
  drugReplies,
  json,
} from "../__fixtures__/verification-jobs.js";

const { adminUrl, skipReason } = postgresForTests();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The events of a job's SSE stream from the start (it ends when the job has ended). */
async function sseEvents(api: ReturnType<typeof apiClient>, jobId: string) {
  const text = await (await api.get(`/api/v2/verifications/${jobId}/events?after=0`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

describe.skipIf(skipReason !== null)(
  "karenina serve --distributed: verification jobs on fleet workers",
  () => {
    let db: TestDatabase;
    let workDir: string;
    let fleet: Fleet;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    const llms: OpenAiTestServer[] = [];
    const workers: { stop: AbortController; done: Promise<void>; events: WorkerEvent[] }[] = [];

    const startWorker = (name: string) => {
      const stop = new AbortController();
      const events: WorkerEvent[] = [];
      const done = runFleetWorker({
        url: db.url,
        name,
        concurrency: 2,
        signal: stop.signal,
        onEvent: (event) => events.push(event),
      });
      const worker = { stop, done, events };
      workers.push(worker);
      return worker;
    };
    const stopWorker = async (worker: (typeof workers)[number]) => {
      worker.stop.abort();
      await worker.done;
    };
    const scripted = async (delayMs: number) => {
      const llm = await startOpenAiServer(drugReplies(delayMs));
      llms.push(llm);
      return llm;
    };
    const serve = () => startTestServer({ storageUrl: db.url, workDir, distributed: { pollMs: 100 } });
    const startJob = async (llm: OpenAiTestServer, questions: number, runName: string) => {
      const res = await api.post("/api/v2/verifications", {
        config: drugConfig(llm.baseURL),
        checkpoint: drugCheckpoint(questions, runName),
        run_name: runName,
      });
      expect(res.status).toBe(202);
      return ((await json(res)) as { job_id: string }).job_id;
    };
    const groupsOf = (events: WorkerEvent[], runId: string) =>
      events.filter((e) => e.type === "group-start" && e.job.runId === runId);

    beforeAll(async () => {
      db = await createTestDatabase(adminUrl as string);
      workDir = await mkdtemp(join(tmpdir(), "karenina-serve-fleet-"));
      fleet = await openFleet(db.url);
      server = await serve();
      api = apiClient(server.url, server.token);
    });

    afterAll(async () => {
      for (const worker of workers) await stopWorker(worker);
      await server?.close();
      for (const llm of llms) await llm.close();
      await fleet?.close();
      await rm(workDir, { recursive: true, force: true });
      await db?.drop();
    });

    test("a job waits with no result until a worker starts, then completes through it; results, export and events are served", async () => {
      const llm = await scripted(0);
      const jobId = await startJob(llm, 3, "served-by-worker");
      const watcher = api.watch(jobId);
      await api.waitForStatus(jobId, "running");
      // No worker yet: the run waits in the queue, and the server itself calls no model.
      await sleep(1_500);
      const waiting = await json(await api.get(`/api/v2/verifications/${jobId}/progress`));
      expect(waiting).toMatchObject({
        status: "running",
        processed: 0,
        total: 3,
        run_id: "served-by-worker",
      });
      expect((await json(await api.get(`/api/v2/verifications/${jobId}/results`))).total).toBe(0);
      expect(llm.requests).toHaveLength(0);
      expect((await fleet.runs.progress("served-by-worker"))?.status).toBe("running");

      const worker = startWorker("worker-a");
      const done = await api.waitForStatus(jobId, "completed");
      expect(done).toMatchObject({ processed: 3, total: 3, successful: 3, failed: 0, percentage: 100 });
      // The worker ran the job's three answer groups (one answer and one judge call each).
      expect(groupsOf(worker.events, "served-by-worker")).toHaveLength(3);
      expect(llm.requests).toHaveLength(6);

      const page = await json(await api.get(`/api/v2/verifications/${jobId}/results?fields=summary`));
      expect(page.total).toBe(3);
      expect(page.items.every((row: { passed: boolean }) => row.passed)).toBe(true);
      const one = await api.get(`/api/v2/verifications/${jobId}/results/${page.items[0].result_id}`);
      expect((await json(one)).metadata.run_name).toBe("served-by-worker");
      const csv = await api.get(`/api/v2/verifications/${jobId}/export?fmt=csv`);
      expect(csv.status).toBe(200);
      expect((await csv.text()).split("\r\n").filter(Boolean)).toHaveLength(4);
      const summary = await json(await api.post("/api/v2/verifications/summary", { job_ids: [jobId] }));
      expect(summary.result_count).toBe(3);
      expect((await fleet.runs.progress("served-by-worker"))?.status).toBe("completed");

      // The live socket and the SSE replay carry each result as a task_completed, then job_completed.
      await watcher.closed;
      for (const events of [watcher.events, await sseEvents(api, jobId)]) {
        const completed = events.filter((e) => e.type === "task_completed");
        expect(completed).toHaveLength(3);
        expect(
          new Set(completed.map((e) => (e.result_summary as { result_id: string }).result_id)).size,
        ).toBe(3);
        expect(events.at(-1)).toMatchObject({ type: "job_completed", processed: 3 });
      }
    }, 60_000);

    test("a fleet run's name is taken once: a second job of that run name is refused with 409", async () => {
      const llm = await scripted(0);
      const res = await api.post("/api/v2/verifications", {
        config: drugConfig(llm.baseURL),
        checkpoint: drugCheckpoint(1, "dup"),
        run_name: "served-by-worker",
      });
      expect(res.status).toBe(409);
      expect((await json(res)).error.code).toBe("run_exists");
    });

    test("cancelling the job over HTTP cancels its fleet run: the worker stops, no result comes after", async () => {
      const llm = await scripted(1_500);
      const jobId = await startJob(llm, 8, "cancelled-on-fleet");
      const worker = workers[0] as (typeof workers)[number];
      await waitUntil(
        () => groupsOf(worker.events, "cancelled-on-fleet").length >= 2,
        30_000,
        "groups taken",
      );
      const cancelled = await api.del(`/api/v2/verifications/${jobId}`);
      expect(cancelled.status).toBe(200);
      expect((await json(cancelled)).status).toBe("cancelled");
      expect((await fleet.runs.progress("cancelled-on-fleet"))?.status).toBe("cancelled");
      await waitUntil(
        () => worker.events.some((e) => e.type === "run-cancelled" && e.runId === "cancelled-on-fleet"),
        10_000,
        "the worker to drop the run",
      );
      // Answers take 1.5 s: a call left running would have stored its result by then.
      const atCancel = (await json(await api.get(`/api/v2/verifications/${jobId}/results`))).total;
      await sleep(2_500);
      expect((await json(await api.get(`/api/v2/verifications/${jobId}/results`))).total).toBe(atCancel);
      expect(atCancel).toBeLessThan(8);
      const events = await sseEvents(api, jobId);
      expect(events.at(-1)?.type).toBe("job_cancelled");
    }, 60_000);

    test("a server restarted while its job's fleet run goes on follows the job again, to exact counts", async () => {
      const llm = await scripted(300);
      const worker = workers[0] as (typeof workers)[number];
      const jobId = await startJob(llm, 6, "outlives-server");
      await waitUntil(
        async () => (await json(await api.get(`/api/v2/verifications/${jobId}/progress`))).processed >= 1,
        30_000,
        "a first result",
      );
      await server.close();
      const left = await fleet.runs.progress("outlives-server");
      expect(left?.status).toBe("running");

      server = await serve();
      api = apiClient(server.url, server.token);
      const done = await api.waitForStatus(jobId, "completed");
      expect(done).toMatchObject({ processed: 6, total: 6, successful: 6, failed: 0 });
      expect(groupsOf(worker.events, "outlives-server")).toHaveLength(6);
      const page = await json(await api.get(`/api/v2/verifications/${jobId}/results?fields=summary`));
      expect(page.total).toBe(6);
      // The job's event log reports every result once across both servers.
      const events = await sseEvents(api, jobId);
      const reported = events
        .filter((e) => e.type === "task_completed")
        .map((e) => (e.result_summary as { result_id: string }).result_id);
      expect(reported).toHaveLength(6);
      expect(new Set(reported).size).toBe(6);
    }, 60_000);
  },
);

describe("karenina serve --distributed needs a PostgreSQL database", () => {
  test("without --db, or with a SQLite file, it refuses to start, saying what to give", async () => {
    const noDb = await runKarenina("serve", "--distributed", "--port", "0");
    expect(noDb.code).toBe(2);
    expect(noDb.err).toMatch(/--distributed: needs --db postgres:\/\//);
    const sqlite = await runKarenina("serve", "--distributed", "--db", "k.db", "--port", "0");
    expect(sqlite.code).toBe(2);
    expect(sqlite.err).toMatch(/--distributed: needs --db postgres:\/\/.*found "k\.db"/);
    const queue = await runKarenina("serve", "--queue", "q", "--port", "0");
    expect(queue.err).toMatch(/--queue goes with --distributed/);
  });
});

describe.skipIf(skipReason !== null)("the karenina serve process with --distributed", () => {
  test("prints where its jobs run, naming the workers' command and queue", async () => {
    const db = await createTestDatabase(adminUrl as string);
    const dir = await mkdtemp(join(tmpdir(), "karenina-serve-fleet-cli-"));
    try {
      const serving = await startServeProcess([
        "--db",
        db.url,
        "--dir",
        dir,
        "--distributed",
        "--queue",
        "lab",
      ]);
      expect(serving.banner).toMatch(
        /verification jobs run on the fleet: karenina worker --db postgres:\/\/.* --queue lab/,
      );
      expect(serving.banner).not.toContain(new URL(db.url).password || "\u0000");
      // (Its exit code is not asserted: a SIGTERM this soon after the banner can kill any serve process; see the report.)
      await serving.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
      await db.drop();
    }
  }, 60_000);
});
