import { afterEach, describe, expect, test } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { apiClient, drugCheckpoint, scriptedConfig } from "../__fixtures__/verification-jobs.js";

// Token counts the scripted server reports for each call, distinct per model so a wrong sum shows.
const ANSWER_USAGE = { prompt_tokens: 100, completion_tokens: 20 };
const JUDGE_USAGE = { prompt_tokens: 40, completion_tokens: 5 };
const TASK_TOKENS = { input_tokens: 140, output_tokens: 25, total_tokens: 165 };

let llm: OpenAiTestServer;
let server: TestServer;

async function startJob(models: { answerer: string; judge: string }, questions: number, delayMs = 0) {
  llm = await startOpenAiServer([
    {
      match: { model: models.answerer },
      reply: { text: "Venetoclax.", usage: ANSWER_USAGE, delayMs },
      repeat: true,
    },
    {
      match: { model: models.judge },
      reply: { json: { drug: "venetoclax" }, usage: JUDGE_USAGE },
      repeat: true,
    },
  ]);
  server = await startTestServer();
  const api = apiClient(server.url, server.token);
  const res = await api.post("/api/v2/verifications", {
    config: scriptedConfig(llm.baseURL, models),
    checkpoint: drugCheckpoint(questions),
  });
  expect(res.status).toBe(202);
  const { job_id } = (await res.json()) as { job_id: string };
  return { api, job_id };
}

async function runJob(models: { answerer: string; judge: string }, questions: number) {
  const { api, job_id } = await startJob(models, questions);
  const watcher = api.watch(job_id, 0);
  await watcher.closed;
  const progress = await api.waitForStatus(job_id, "completed");
  const completed = watcher.events.filter((event) => event.type === "task_completed");
  return { progress, completed, events: watcher.events };
}

describe("usage in progress events", () => {
  afterEach(async () => {
    await server?.close();
    await llm?.close();
  });

  test("unpriced models: each task_completed carries its exact tokens and a null cost; totals count them unpriced", async () => {
    const { progress, completed, events } = await runJob({ answerer: "answerer", judge: "judge" }, 3);
    // one answering and one parsing call per task: the per-task figures are exactly the two replies' usage
    expect(llm.requests).toHaveLength(6);
    expect(completed).toHaveLength(3);
    for (const event of completed) {
      expect(event.usage).toEqual(TASK_TOKENS);
      expect(event.cost_usd).toBeNull();
    }
    expect(completed.map((event) => (event.usage_totals as { total_tokens: number }).total_tokens)).toEqual([
      165, 330, 495,
    ]);
    const finalTotals = {
      input_tokens: 420,
      output_tokens: 75,
      total_tokens: 495,
      cost_usd: 0,
      priced: 0,
      unpriced: 3,
    };
    expect(progress.usage_totals).toEqual(finalTotals);
    expect(events.at(-1)).toMatchObject({ type: "job_completed", usage_totals: finalTotals });
    // the old fields are unchanged
    expect(completed[0]).toMatchObject({ success: true, result_summary: { passed: true } });
  });

  test("priced models: each task's cost at the built-in list prices, summed in the totals", async () => {
    const { progress, completed } = await runJob({ answerer: "gpt-4.1-mini", judge: "gpt-4.1-nano" }, 2);
    // gpt-4.1-mini $0.4/$1.6 and gpt-4.1-nano $0.1/$0.4 per million tokens
    const taskCost = (100 * 0.4 + 20 * 1.6 + 40 * 0.1 + 5 * 0.4) / 1e6;
    for (const event of completed) {
      expect(event.usage).toEqual(TASK_TOKENS);
      expect(event.cost_usd).toBeCloseTo(taskCost, 12);
    }
    const totals = progress.usage_totals as Record<string, number>;
    expect(totals).toMatchObject({ total_tokens: 330, priced: 2, unpriced: 0 });
    expect(totals.cost_usd).toBeCloseTo(2 * taskCost, 12);
  });

  test("a resumed job's totals count the earlier attempt's tasks once", async () => {
    const { api, job_id } = await startJob({ answerer: "answerer", judge: "judge" }, 6, 150);
    const watcher = api.watch(job_id);
    await watcher.opened;
    while (watcher.events.filter((event) => event.type === "task_completed").length < 2)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const workDir = server.deps.workDir;
    await server.close();
    server = await startTestServer({ workDir });
    const again = apiClient(server.url, server.token);
    const interrupted = await again.waitForStatus(job_id, "interrupted");
    expect(interrupted.processed).toBeLessThan(6);
    expect((await again.post(`/api/v2/verifications/${job_id}/resume`, {})).status).toBe(202);
    const done = await again.waitForStatus(job_id, "completed");
    expect(done.usage_totals).toEqual({
      input_tokens: 6 * 140,
      output_tokens: 6 * 25,
      total_tokens: 6 * 165,
      cost_usd: 0,
      priced: 0,
      unpriced: 6,
    });
  });

  test("the OpenAPI document describes the usage fields of progress and events", async () => {
    llm = await startOpenAiServer([]);
    server = await startTestServer();
    const api = apiClient(server.url, server.token);
    const doc = (await (await api.get("/api/openapi.json")).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.components.schemas.JobView?.properties ?? {})).toContain("usage_totals");
    expect(Object.keys(doc.components.schemas.JobEvent?.properties ?? {})).toEqual(
      expect.arrayContaining(["usage", "cost_usd", "usage_totals"]),
    );
  });
});
