/**
 * The results table routes against the real server on 127.0.0.1 and its SQLite file, holding a stored run
 * written with the storage API (hand-written rows from storage/__fixtures__/results.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { FACET_LIMIT, resultTableRow } from "../../result-table/index.js";
import { parseResultsCsv, parseResultsJson, type VerificationResult } from "../../results/index.js";
import { richResult, timedOutResult } from "../../storage/__fixtures__/results.js";
import { authHeaders, startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let server: TestServer;
let runId = "";
let results: VerificationResult[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const storage = server.deps.storage;
  const bench = Benchmark.create({ name: "alpha", version: "1.0.0" });
  for (const id of ["q1", "q2", "q3", "q4"])
    bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  await storage.saveBenchmark(bench);
  const run = await storage.startRun({ runName: "nightly", benchmarkName: "alpha" });
  runId = run.id;
  results = [
    richResult({ questionId: "q1", questionText: "What does venetoclax target?", replicate: 1 }),
    richResult({
      questionId: "q2",
      questionText: "Which kinase does imatinib block?",
      passed: false,
      replicate: 2,
    }),
    richResult({
      questionId: "q3",
      questionText: "What does venetoclax bind?",
      answeringModel: "gpt-5",
      replicate: 1,
    }),
    timedOutResult("q4"),
  ];
  await storage.saveResults(run.id, results);
});
afterAll(async () => {
  await server.close();
});

const get = (path: string) => fetch(`${server.url}${path}`, { headers: authHeaders(server.token) });
const page = async (params: string) => {
  const res = await get(`/api/v2/results?run_id=${runId}&${params}`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    items: ReturnType<typeof resultTableRow>[];
    total: number;
    source_total: number;
  };
};
const ids = (rows: { result_id: string }[]) => rows.map((row) => row.result_id);
const idOf = (index: number) => results[index]?.metadata.result_id as string;

describe("GET /api/v2/results", () => {
  test("the first page holds the table rows in saving order, with the totals", async () => {
    const res = await get(`/api/v2/results?run_id=${runId}&page_size=2`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      items: results.slice(0, 2).map(resultTableRow),
      page: 1,
      page_size: 2,
      total: 4,
      source_total: 4,
    });
    expect(resultTableRow(results[0] as VerificationResult)).toMatchObject({
      status: "completed",
      verification: "passed",
      keywords: ["oncology", "apoptosis"],
      answering_model: "openai_endpoint:gpt-4.1-mini (agent) +[pubmed]",
      mcp_servers: ["pubmed"],
      granular_score: 1,
      raw_answer: "BCL2",
      replicate: 1,
    });
    expect(resultTableRow(results[3] as VerificationResult)).toMatchObject({
      status: "failed",
      failure_category: "timeout",
      verification: "n/a",
      rubric: "none",
      granular_score: null,
    });
    expect(ids((await page("page=2&page_size=2")).items)).toEqual([idOf(2), idOf(3)]);
  });

  test("filters narrow the rows and the total, not the source total", async () => {
    const venetoclax = await page("question=VENETOCLAX");
    expect(ids(venetoclax.items)).toEqual([idOf(0), idOf(2)]);
    expect([venetoclax.total, venetoclax.source_total]).toEqual([2, 4]);
    expect(ids((await page("status=failed")).items)).toEqual([idOf(1), idOf(3)]);
    expect(ids((await page("verification=passed&verification=n/a")).items)).toEqual([
      idOf(0),
      idOf(2),
      idOf(3),
    ]);
    expect(ids((await page("answering_model=openai_endpoint:gpt-5 (agent) %2B[pubmed]")).items)).toEqual([
      idOf(2),
    ]);
    expect(ids((await page("replicate=single")).items)).toEqual([idOf(3)]);
    expect(ids((await page("replicate=2")).items)).toEqual([idOf(1)]);
    expect(ids((await page("keyword=oncology&mcp_server=pubmed&granular=yes")).items)).toEqual([
      idOf(0),
      idOf(1),
      idOf(2),
    ]);
    expect(ids((await page("time_min=10")).items)).toEqual([idOf(3)]);
    expect(ids((await page("raw_answer=bcl")).items)).toEqual([idOf(0), idOf(1), idOf(2)]);
    expect(ids((await page("from=2026-04-21 12:00:01&to=2026-04-21")).items)).toEqual([idOf(3)]);
    expect((await page("run_name=other")).total).toBe(0);
  });

  test("sorts by a column either way, empty values last", async () => {
    expect(ids((await page("sort=execution_time&order=desc")).items)[0]).toBe(idOf(3));
    expect(ids((await page("sort=question_text")).items)).toEqual([idOf(3), idOf(2), idOf(0), idOf(1)]);
    expect(ids((await page("sort=replicate&order=desc")).items)).toEqual([
      idOf(1),
      idOf(0),
      idOf(2),
      idOf(3),
    ]);
  });

  test("pages read before the run's table is held (saving order, no filter) are the pages read from it", async () => {
    const storage = server.deps.storage;
    const bench = Benchmark.create({ name: "gamma", version: "1.0.0" });
    for (const id of ["g1", "g2"]) bench.addQuestion(`Question ${id}?`, "Answer", { questionId: id });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "fresh", benchmarkName: "gamma" });
    await storage.saveResults(run.id, [
      richResult({ questionId: "g1", runName: "fresh", replicate: 1 }),
      richResult({ questionId: "g2", runName: "fresh", passed: false, replicate: 1 }),
      timedOutResult("g1"),
    ]);
    const pages = async () => [
      await (await get(`/api/v2/results?run_id=${run.id}&page_size=2`)).json(),
      await (await get(`/api/v2/results?run_id=${run.id}&page=2&page_size=2`)).json(),
    ];
    const direct = await pages();
    expect((direct[0] as { total: number }).total).toBe(3);
    expect((await get(`/api/v2/results/facets?run_id=${run.id}`)).status).toBe(200);
    expect(await pages()).toEqual(direct);
  });

  test("a bad filter is a 422 naming the field; an unknown run a 404", async () => {
    const bad = await get(`/api/v2/results?run_id=${runId}&status=exploded`);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain("status");
    const sort = await get(`/api/v2/results?run_id=${runId}&sort=trace`);
    expect(sort.status).toBe(422);
    expect(JSON.stringify(await sort.json())).toContain("sort");
    expect((await get("/api/v2/results")).status).toBe(422);
    const unknown = await get("/api/v2/results?run_id=nope");
    expect(unknown.status).toBe(404);
  });

  test("a verification job not yet running (no run row: its run id is its job id) is an empty table, not a 404", async () => {
    const storage = server.deps.storage;
    await storage.createJob({ id: "job-starting", kind: "verification", input: {} });
    const starting = await get("/api/v2/results?run_id=job-starting");
    expect(starting.status).toBe(200);
    expect(await starting.json()).toMatchObject({ items: [], total: 0, source_total: 0 });
    const facets = await get("/api/v2/results/facets?run_id=job-starting");
    expect(facets.status).toBe(200);
    expect(await facets.json()).toMatchObject({ total: 0, facets: { status: [] } });
    const both = await get(`/api/v2/results?run_id=job-starting&run_id=${runId}`);
    expect(((await both.json()) as { total: number }).total).toBe(results.length);
    // A job of another kind, or one that has ended, has no run to wait for: still a 404.
    await storage.createJob({ id: "gen-starting", kind: "template-generation", input: {} });
    expect((await get("/api/v2/results?run_id=gen-starting")).status).toBe(404);
    await storage.updateJob("job-starting", { status: "failed" });
    expect((await get("/api/v2/results?run_id=job-starting")).status).toBe(404);
  });
});

describe("GET /api/v2/results/facets", () => {
  test("lists each filter's values with counts", async () => {
    const res = await get(`/api/v2/results/facets?run_id=${runId}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      total: number;
      facets: Record<string, { value: string; count: number }[]>;
    };
    expect(body.total).toBe(4);
    expect(body.facets.status).toEqual([
      { value: "completed", count: 2 },
      { value: "failed", count: 2 },
    ]);
    expect(body.facets.verification).toEqual([
      { value: "passed", count: 2 },
      { value: "failed", count: 1 },
      { value: "n/a", count: 1 },
    ]);
    expect(body.facets.keyword).toEqual([
      { value: "apoptosis", count: 3 },
      { value: "oncology", count: 3 },
    ]);
    expect(body.facets.replicate).toEqual([
      { value: "1", count: 2 },
      { value: "2", count: 1 },
      { value: "single", count: 1 },
    ]);
    expect(body.facets.run_name).toEqual([{ value: "nightly", count: 3 }]);
    expect((body as unknown as { omitted: Record<string, number> }).omitted).toMatchObject({
      replicate: 0,
      status: 0,
    });
  });

  test("a facet with more values than the limit lists the most frequent and counts the rest", async () => {
    const storage = server.deps.storage;
    const bench = Benchmark.create({ name: "many", version: "1.0.0" });
    bench.addQuestion("Question m?", "Answer", { questionId: "m" });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "many", benchmarkName: "many" });
    await storage.saveResults(
      run.id,
      Array.from({ length: FACET_LIMIT + 5 }, (_, i) =>
        richResult({ questionId: "m", answeringModel: `model-${i}`, replicate: i < 3 ? 1 : i + 1 }),
      ),
    );
    const res = await get(`/api/v2/results/facets?run_id=${run.id}`);
    const body = (await res.json()) as {
      facets: Record<string, { value: string; count: number }[]>;
      omitted: Record<string, number>;
    };
    expect(body.facets.replicate).toHaveLength(FACET_LIMIT);
    expect(body.facets.replicate?.[0]).toEqual({ value: "1", count: 3 });
    expect(body.omitted.replicate).toBe(3);
    expect(body.omitted.answering_model).toBe(5);
  });

  test("rows saved later show at once (the cache follows the run's row count)", async () => {
    const storage = server.deps.storage;
    const bench = Benchmark.create({ name: "beta", version: "1.0.0" });
    bench.addQuestion("Question q9?", "Answer", { questionId: "q9" });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "growing", benchmarkName: "beta" });
    await storage.saveResults(run.id, [richResult({ questionId: "q9", runName: "growing" })]);
    const first = await get(`/api/v2/results/facets?run_id=${run.id}`);
    expect(((await first.json()) as { total: number }).total).toBe(1);
    await storage.saveResults(run.id, [richResult({ questionId: "q9", runName: "growing", replicate: 2 })]);
    const second = await get(`/api/v2/results/facets?run_id=${run.id}`);
    expect(((await second.json()) as { total: number }).total).toBe(2);
    const both = await get(`/api/v2/results?run_id=${run.id}&run_id=${runId}`);
    expect(((await both.json()) as { total: number }).total).toBe(6);
  });
});

describe("GET /api/v2/results/{result_id}", () => {
  test("returns the whole stored result", async () => {
    const res = await get(`/api/v2/results/${idOf(1)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(results[1])));
    const inRun = await get(`/api/v2/results/${idOf(1)}?run_id=${runId}`);
    expect(inRun.status).toBe(200);
  });

  test("an unknown result is a 404", async () => {
    const res = await get("/api/v2/results/ffffffffffffffff");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

describe("GET /api/v2/results/export", () => {
  test("JSON export holds only the filtered rows, as whole results; ?token= opens it", async () => {
    const res = await fetch(
      `${server.url}/api/v2/results/export?run_id=${runId}&question=venetoclax&token=${server.token}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="results_\d+\.json"$/u);
    const file = parseResultsJson(await res.text());
    expect(file.results.map((row) => row.metadata.result_id)).toEqual([idOf(0), idOf(2)]);
    expect(file.results[0]?.template?.raw_llm_response).toBe(results[0]?.template?.raw_llm_response);
  });

  test("CSV export honours the filter too", async () => {
    const res = await get(`/api/v2/results/export?run_id=${runId}&status=failed&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const file = parseResultsCsv(await res.text());
    expect(file.results.map((row) => row.metadata.question_id)).toEqual(["q2", "q4"]);
  });
});
