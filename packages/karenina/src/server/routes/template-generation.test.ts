import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "undici";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  allText,
  drugReplies,
  generationRules,
} from "../../authoring/template-generation/__fixtures__/generation-replies.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { endpointModel } from "../../test-support/pipeline-context.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let llm: OpenAiTestServer;
let server: TestServer;

beforeEach(async () => {
  llm = await startOpenAiServer();
});
afterEach(async () => {
  await server?.close();
  await llm.close();
});

const text = (i: number) => `Which drug is number ${i}?`;
const question = (i: number) => ({ id: `q${i}`, question: text(i), raw_answer: `drug-${i}` });
const script = (i: number) => llm.script(...generationRules(text(i), drugReplies(`drug-${i}`)));
/** Only the first (planning) call of question `i`, answered after 10 s: the job is caught mid-call. */
const slowPlan = (i: number) =>
  llm.script({
    match: { lastUserIncludes: text(i) },
    reply: { text: drugReplies(`drug-${i}`).plan, delayMs: 10_000 },
  });

async function post(path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function startJob(count: number): Promise<string> {
  const res = await post("/api/v2/templates/generation", {
    questions: Array.from({ length: count }, (_, i) => question(i)),
    config: endpointModel(llm.baseURL, "writer"),
  });
  expect(res.status).toBe(202);
  const body = (await res.json()) as { success: boolean; job_id: string; message: string };
  expect(body).toMatchObject({
    success: true,
    message: `template generation queued for ${count} question(s)`,
  });
  return body.job_id;
}

type View = {
  status: string;
  processed: number;
  total: number;
  outcome: {
    templates: Record<string, { success: boolean; template_code?: string; restored?: boolean }>;
    successful_generations: number;
  } | null;
};

async function progressOf(id: string): Promise<View> {
  const res = await fetch(`${server.url}/api/v2/templates/generation/${id}/progress`);
  expect(res.status).toBe(200);
  return (await res.json()) as View;
}

async function waitFor(id: string, wanted: (view: View) => boolean): Promise<View> {
  for (let i = 0; i < 1000; i++) {
    const view = await progressOf(id);
    if (wanted(view)) return view;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`job ${id} never reached the state waited for`);
}

function watch(id: string, after?: number) {
  const query = after === undefined ? "" : `?after=${after}`;
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws/generation-progress/${id}${query}`);
  const events: Record<string, unknown>[] = [];
  ws.addEventListener("message", (event) => events.push(JSON.parse(String(event.data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  return { events, closed };
}

describe("template generation jobs", () => {
  test("generates every question's template, streaming one event per task and job_completed once with the result", async () => {
    server = await startTestServer();
    script(0);
    script(1);
    const id = await startJob(2);
    const view = await waitFor(id, (v) => v.status === "completed");
    const { events, closed } = watch(id, 0);
    expect(view).toMatchObject({ processed: 2, total: 2 });
    expect(view.outcome?.successful_generations).toBe(2);
    expect(Object.keys(view.outcome?.templates ?? {})).toEqual(["q0", "q1"]);
    expect(view.outcome?.templates.q0?.template_code).toContain("ground_truth='drug-0'");
    expect((await closed).code).toBe(1000);
    expect(events.map((event) => [event.type, event.question_id ?? null])).toEqual([
      ["snapshot", null],
      ["job_started", null],
      ["task_started", "q0"],
      ["task_completed", "q0"],
      ["task_started", "q1"],
      ["task_completed", "q1"],
      ["job_completed", null],
    ]);
    expect(events.map((event) => event.seq)).toEqual([6, 1, 2, 3, 4, 5, 6]);
    expect(events[3]?.template_code).toBe(view.outcome?.templates.q0?.template_code);
    expect(events.at(-1)?.result).toEqual(view.outcome);
  });

  test("cancel aborts the call in flight, keeps the finished template and ends cancelled (not completed)", async () => {
    server = await startTestServer();
    script(0);
    slowPlan(1);
    const id = await startJob(2);
    await waitFor(id, (v) => v.processed === 1);
    const res = await fetch(`${server.url}/api/v2/templates/generation/${id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    const view = (await res.json()) as View;
    expect(view.status).toBe("cancelled");
    expect(view.outcome?.templates).toEqual({ q0: expect.objectContaining({ success: true }) });
    const again = await fetch(`${server.url}/api/v2/templates/generation/${id}`, { method: "DELETE" });
    expect(again.status).toBe(409);
  });

  test("a job stopped by a server shutdown is resumed by the next server without generating a finished question again", async () => {
    const workDir = await mkdtemp(join(tmpdir(), "karenina-generation-"));
    server = await startTestServer({ workDir });
    script(0);
    slowPlan(1);
    const id = await startJob(2);
    await waitFor(id, (v) => v.processed === 1);
    await server.close();
    server = await startTestServer({ workDir });
    expect((await progressOf(id)).status).toBe("interrupted");
    const listed = (await (
      await fetch(`${server.url}/api/v2/templates/generation?status=interrupted`)
    ).json()) as {
      items: { job_id: string }[];
    };
    expect(listed.items.map((item) => item.job_id)).toEqual([id]);
    const before = llm.requests.filter((request) => allText(request).includes(text(0))).length;
    script(1);
    expect((await post(`/api/v2/templates/generation/${id}/resume`)).status).toBe(202);
    const view = await waitFor(id, (v) => v.status === "completed");
    expect(view).toMatchObject({ processed: 2, total: 2 });
    expect(view.outcome?.templates.q0).toMatchObject({ success: true, restored: true });
    expect(view.outcome?.templates.q1?.success).toBe(true);
    expect(llm.requests.filter((request) => allText(request).includes(text(0))).length).toBe(before);
  });

  test("bad requests and unknown jobs get exact errors", async () => {
    server = await startTestServer();
    const empty = await post("/api/v2/templates/generation", {
      questions: [],
      config: endpointModel(llm.baseURL, "writer"),
    });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe(
      "body.questions: must hold at least one question, found an array of 0",
    );
    const unknown = await fetch(
      `${server.url}/api/v2/templates/generation/00000000-0000-4000-8000-000000000000/progress`,
    );
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("job_not_found");
    const { closed } = watch("00000000-0000-4000-8000-000000000000");
    expect(await closed).toEqual({ code: 1008, reason: "Job not found" });
  });
});
