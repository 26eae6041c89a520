/**
 * Jobs that survive (issue 15, point 4): the real `karenina serve` process is killed with SIGKILL in the middle of
 * a verification job, started again on the same database and folder, lists the job `interrupted`, and resumes
 * it to exact counts — no finished task asked again, none lost. Against the scripted OpenAI server on
 * 127.0.0.1, whose replies are hand-written test data.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { type ServeProcess, startServeProcess } from "../__fixtures__/serve-process.js";
import {
  apiClient,
  drugCheckpoint,
  drugConfig,
  drugReplies,
  json,
} from "../__fixtures__/verification-jobs.js";

const QUESTIONS = 12;

/** Starts `karenina serve` on a free port with `dir`'s database and folder, two jobs at once. */
const serve = (dir: string): Promise<ServeProcess> =>
  startServeProcess(["--db", join(dir, "karenina.db"), "--dir", dir], { KARENINA_ASYNC_MAX_WORKERS: "2" });

/** The questions a request to the answering model asked (by their "(i)" suffix). */
function askedQuestion(body: Record<string, unknown>): string | null {
  if (body.model !== "answerer") return null;
  const text = JSON.stringify(body.messages ?? body.input ?? "");
  return /Which drug inhibits BCL2\? \((\d+)\)/.exec(text)?.[1] ?? null;
}

let dir: string;
let llm: OpenAiTestServer;
let running: ServeProcess | null = null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-serve-kill-"));
  llm = await startOpenAiServer(drugReplies(200));
});
afterAll(async () => {
  if (running !== null && running.child.exitCode === null) {
    running.child.kill("SIGKILL");
    await running.exited;
  }
  await llm.close();
  await rm(dir, { recursive: true, force: true });
});

describe("karenina serve killed with SIGKILL mid-job", () => {
  test("restarts listing the job interrupted; resume finishes it without repeating or losing a task", async () => {
    running = await serve(dir);
    let api = apiClient(running.url, running.token);
    const started = await api.post("/api/v2/verifications", {
      config: drugConfig(llm.baseURL),
      checkpoint: drugCheckpoint(QUESTIONS, "kill-test"),
      run_name: "killed",
    });
    expect(started.status).toBe(202);
    const jobId = ((await json(started)) as { job_id: string }).job_id;
    let before = { total: 0, items: [] as { result_id: string; question_id: string }[] };
    for (let i = 0; i < 1000 && before.total < 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      before = await json(await api.get(`/api/v2/verifications/${jobId}/results?fields=summary&limit=500`));
    }
    expect(before.total).toBeGreaterThanOrEqual(3);

    running.child.kill("SIGKILL");
    expect(await running.exited).toBeNull();
    const requestsAtKill = llm.requests.length;

    running = await serve(dir);
    api = apiClient(running.url, running.token);
    const listed = await json(await api.get("/api/v2/verifications"));
    expect(listed.total).toBe(1);
    const interrupted = listed.items[0];
    expect(interrupted).toMatchObject({ job_id: jobId, status: "interrupted", total: QUESTIONS });
    expect(interrupted.processed).toBeGreaterThanOrEqual(before.total);
    expect(interrupted.processed).toBeLessThan(QUESTIONS);
    const saved = await json(
      await api.get(`/api/v2/verifications/${jobId}/results?fields=summary&limit=500`),
    );
    const finishedBeforeKill = new Set<string>(
      saved.items.map((i: { question_id: string }) => i.question_id),
    );

    const resumed = await api.post(`/api/v2/verifications/${jobId}/resume`, {});
    expect(resumed.status).toBe(202);
    const done = await api.waitForStatus(jobId, "completed");
    expect(done).toMatchObject({ processed: QUESTIONS, total: QUESTIONS, successful: QUESTIONS, failed: 0 });

    const after = await json(
      await api.get(`/api/v2/verifications/${jobId}/results?fields=summary&limit=500`),
    );
    expect(after.total).toBe(QUESTIONS);
    expect(new Set(after.items.map((i: { result_id: string }) => i.result_id)).size).toBe(QUESTIONS);
    expect(new Set(after.items.map((i: { question_id: string }) => i.question_id)).size).toBe(QUESTIONS);
    // The rows saved before the kill are kept as they were (same result ids), not redone.
    const afterIds = new Set(after.items.map((i: { result_id: string }) => i.result_id));
    for (const row of saved.items as { result_id: string }[]) expect(afterIds.has(row.result_id)).toBe(true);
    // No question finished before the kill was asked again after the restart.
    const askedAgain = llm.requests
      .slice(requestsAtKill)
      .map((request) => askedQuestion(request.body))
      .filter((q): q is string => q !== null);
    // (The run log may hold a result the database had not saved yet at the kill: that one is not asked either.)
    expect(new Set(askedAgain).size).toBe(askedAgain.length);
    expect(askedAgain.length).toBeLessThanOrEqual(QUESTIONS - finishedBeforeKill.size);
    expect(askedAgain.length).toBeGreaterThan(0);
    for (const q of askedAgain) expect(finishedBeforeKill.has(`q${q}`)).toBe(false);
    // The stored run agrees, and the job's event log never reports a task twice.
    const summary = await json(await api.post("/api/v2/verifications/summary", { run_names: ["killed"] }));
    expect(summary.result_count).toBe(QUESTIONS);
    const events = await (await api.get(`/api/v2/verifications/${jobId}/events?after=0`)).text();
    const keys = [...events.matchAll(/"type":"task_completed"[^\n]*?"task_key":"([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(keys).size).toBe(keys.length);

    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);
  }, 120_000);
});
