/**
 * `karenina serve` on the demo database answers the stored demo run (issue 15, "Done when"): `karenina demo`
 * (offline: the hand-written example answers and the recorded judge replies, no network) fills a fresh
 * folder's karenina.db, then the real `karenina serve` process opens it and lists the run and its rows.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXIT } from "../cli/cli-io.js";
import { runKarenina } from "../test-support/cli.js";
import { type ServeProcess, startServeProcess } from "./__fixtures__/serve-process.js";
import { apiClient, json } from "./__fixtures__/verification-jobs.js";

const DEMO_QUESTIONS = 14;

let dir: string;
let serving: ServeProcess;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-serve-demo-"));
  const db = join(dir, "karenina.db");
  const demo = await runKarenina(
    "demo",
    "--offline",
    "--no-progress",
    "--db",
    db,
    "-o",
    join(dir, "karenina-demo.jsonl"),
  );
  expect(demo.code, demo.err).toBe(EXIT.ok);
  serving = await startServeProcess(["--db", db, "--dir", dir]);
  api = apiClient(serving.url, serving.token);
}, 120_000);

afterAll(async () => {
  await serving?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("karenina serve on the database karenina demo wrote", () => {
  test("GET /api/v2/verification-runs lists the demo run with its counts", async () => {
    const res = await api.get("/api/v2/verification-runs");
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page).toMatchObject({ page: 1, page_size: 50, total: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      status: "completed",
      total_questions: DEMO_QUESTIONS,
      processed_count: DEMO_QUESTIONS,
      successful_count: 8,
      failed_count: 6,
      error_message: null,
    });
    expect(page.items[0].benchmark_name).toBe("Medicine cabinet (karenina demo)");
  });

  test("GET /api/v2/verification-results returns the run's 14 rows: 8 passed, 6 failed", async () => {
    const [run] = (await json(await api.get("/api/v2/verification-runs"))).items;
    const all = await json(await api.get(`/api/v2/verification-results?run_id=${run.id}&page_size=100`));
    expect(all.total).toBe(DEMO_QUESTIONS);
    expect(all.items).toHaveLength(DEMO_QUESTIONS);
    expect(new Set(all.items.map((row: { question_id: string }) => row.question_id)).size).toBe(
      DEMO_QUESTIONS,
    );
    expect(all.items.every((row: { run_name: string }) => row.run_name === run.run_name)).toBe(true);
    const passed = await json(await api.get(`/api/v2/verification-results?run_id=${run.id}&passed=true`));
    const failed = await json(await api.get(`/api/v2/verification-results?run_id=${run.id}&passed=false`));
    expect([passed.total, failed.total]).toEqual([8, 6]);
    const categories = failed.items.map(
      (row: { failure: { category: string } | null }) => row.failure?.category,
    );
    expect(categories.sort()).toEqual([
      "abstention",
      "abstention",
      "content",
      "content",
      "content",
      "content",
    ]);
  });

  test("one full row carries the hand-written answer, the judge's parse and the verdict", async () => {
    const aspirin = "urn:uuid:question-which-enzyme-does-aspirin-irreversibly-inhibit-616603af";
    const res = await api.get(`/api/v2/verification-results?fields=full&question_id=${aspirin}`);
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page.total).toBe(1);
    const [row] = page.items;
    expect(row.metadata.answering.model_name).toBe("handwritten-demo-answers");
    expect(row.metadata.failure).toBeNull();
    expect(row.template.verify_result).toBe(true);
    expect(typeof row.template.raw_llm_response).toBe("string");
  });
});
