/**
 * `run_ids` and `db` of `POST /api/v2/verifications/summary` and `/compare-models` (the web app's results source
 * names runs by id in a database connection), against the real server on 127.0.0.1 and real SQLite files. Two
 * stored runs share a name, so only `run_ids` tells them apart; a third run lives in a second connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { row } from "../../results/__fixtures__/rows.js";
import type { Storage } from "../../storage/index.js";
import { callApi } from "../__fixtures__/api-calls.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { connectionsOf } from "../databases/index.js";

const SUMMARY = "/api/v2/verifications/summary";
const COMPARE = "/api/v2/verifications/compare-models";
const MODELS = [
  { answering_model: "answerer", interface: "openai" },
  { answering_model: "other", interface: "openai" },
];
let server: TestServer;
let firstRun: string;
let secondRun: string;
let labRun: string;

async function storeRun(storage: Storage, rows: Parameters<typeof row>[0][]): Promise<string> {
  const bench = Benchmark.create({ name: "ids-bench" });
  bench.addQuestion("Which drug inhibits BCL2?", "venetoclax", { questionId: "q1" });
  await storage.saveBenchmark(bench);
  const run = await storage.startRun({ runName: "same-name", benchmarkName: "ids-bench" });
  await storage.saveResults(
    run.id,
    rows.map((spec) =>
      row({ question: "q1", questionText: "Which drug inhibits BCL2?", runName: "same-name", ...spec }),
    ),
  );
  await storage.finishRun(run.id, { status: "completed" });
  return run.id;
}

beforeAll(async () => {
  server = await startTestServer();
  firstRun = await storeRun(server.deps.storage, [
    { resultId: "f1", verify: true, usage: { answer_generation: { input: 10, output: 2 } } },
    {
      resultId: "f2",
      answering: "other",
      verify: false,
      usage: { answer_generation: { input: 30, output: 4 } },
    },
  ]);
  secondRun = await storeRun(server.deps.storage, [{ resultId: "s1", verify: false }]);
  const connected = await callApi(server.url, "POST", "/api/v2/databases/connections", {
    name: "lab",
    sqlite_file: "lab",
  });
  expect(connected.status).toBe(201);
  labRun = await storeRun(connectionsOf(server.deps).storage("lab"), [{ resultId: "l1", verify: true }]);
});
afterAll(async () => {
  await server.close();
});

describe("POST /api/v2/verifications/summary by run id", () => {
  test("summarises exactly the named run: the other run of the same name is left out", async () => {
    const byId = await callApi<{ success: boolean; result_count: number; summary: Record<string, unknown> }>(
      server.url,
      "POST",
      SUMMARY,
      { run_ids: [firstRun] },
    );
    expect(byId.status).toBe(200);
    expect(byId.json.result_count).toBe(2);
    expect(byId.json.summary).toMatchObject({
      num_results: 2,
      num_models: 2,
      outcomes: { results: 2, passed: 1, failed: 1, not_evaluated: 0, pass_rate: 0.5, pass_pct: 50 },
      failures_by_category: { content: 1 },
    });
    const byName = await callApi(server.url, "POST", SUMMARY, { run_names: ["same-name"] });
    expect(byName.json).toMatchObject({ result_count: 3 });
    const both = await callApi(server.url, "POST", SUMMARY, { run_ids: [firstRun, secondRun] });
    expect(both.json).toEqual(byName.json);
  });

  test("db names the connection holding the run; the server's database does not have it", async () => {
    const lab = await callApi(server.url, "POST", SUMMARY, { run_ids: [labRun], db: "lab" });
    expect(lab.status).toBe(200);
    expect(lab.json).toMatchObject({ result_count: 1, summary: { num_results: 1, outcomes: { passed: 1 } } });
    expect(await callApi(server.url, "POST", SUMMARY, { run_ids: [labRun] })).toEqual({
      status: 404,
      json: {
        error: {
          code: "run_not_found",
          message: `no stored run has the id "${labRun}"; list the stored runs to find its id`,
        },
      },
    });
  });

  test("unknown run id or connection → 404; none or two kinds of reference, or db with jobs → 422", async () => {
    expect(await callApi(server.url, "POST", SUMMARY, { run_ids: ["no-such-run"] })).toEqual({
      status: 404,
      json: {
        error: {
          code: "run_not_found",
          message: 'no stored run has the id "no-such-run"; list the stored runs to find its id',
        },
      },
    });
    expect(await callApi(server.url, "POST", SUMMARY, { run_ids: [firstRun], db: "nope" })).toEqual({
      status: 404,
      json: {
        error: {
          code: "not_found",
          message: 'database connection "nope" not found (connected: "default", "lab")',
        },
      },
    });
    const twoKinds = {
      status: 422,
      json: {
        error: {
          code: "invalid_request",
          message: "body: give exactly one of job_ids, run_names or run_ids",
        },
      },
    };
    expect(await callApi(server.url, "POST", SUMMARY, {})).toEqual(twoKinds);
    expect(
      await callApi(server.url, "POST", SUMMARY, { run_ids: [firstRun], run_names: ["same-name"] }),
    ).toEqual(twoKinds);
    expect(await callApi(server.url, "POST", SUMMARY, { run_ids: [firstRun], job_ids: ["j"] })).toEqual(
      twoKinds,
    );
    expect(await callApi(server.url, "POST", SUMMARY, { job_ids: ["j"], db: "lab" })).toEqual({
      status: 422,
      json: {
        error: {
          code: "invalid_request",
          message: "body.db: jobs' results are in the server's own database; leave db out with job_ids",
        },
      },
    });
    const empty = await callApi(server.url, "POST", SUMMARY, { run_ids: [] });
    expect(empty.status).toBe(422);
    expect(empty.json.error.message).toMatch(/^body\.run_ids: /);
  });
});

describe("POST /api/v2/verifications/compare-models by run id", () => {
  test("compares the models of the named run, with each cell's result id", async () => {
    const { status, json } = await callApi<Record<string, unknown>>(server.url, "POST", COMPARE, {
      run_ids: [firstRun],
      models: MODELS,
    });
    expect(status).toBe(200);
    expect(json.result_count).toBe(2);
    expect(json.heatmap_data).toEqual([
      {
        question_id: "q1",
        question_text: "Which drug inhibits BCL2?",
        keywords: [],
        results_by_model: {
          "openai:answerer": {
            replicates: [
              {
                result_id: "f1",
                replicate: null,
                passed: true,
                abstained: false,
                insufficient: false,
                error: false,
                execution_type: "Standard",
                input_tokens: 10,
                output_tokens: 2,
                iterations: 0,
              },
            ],
          },
          "openai:other": {
            replicates: [
              {
                result_id: "f2",
                replicate: null,
                passed: false,
                abstained: false,
                insufficient: false,
                error: true,
                execution_type: "Standard",
                input_tokens: 30,
                output_tokens: 4,
                iterations: 0,
              },
            ],
          },
        },
      },
    ]);
  });

  test("db, unknown run id and reference kinds as for the summary", async () => {
    const lab = await callApi<Record<string, unknown>>(server.url, "POST", COMPARE, {
      run_ids: [labRun],
      db: "lab",
      models: MODELS,
    });
    expect(lab.status).toBe(200);
    expect(lab.json.result_count).toBe(1);
    expect(Object.keys(lab.json.model_summaries as object)).toEqual(["openai:answerer"]);
    expect(
      await callApi(server.url, "POST", COMPARE, { run_ids: ["no-such-run"], models: MODELS }),
    ).toMatchObject({
      status: 404,
      json: { error: { code: "run_not_found" } },
    });
    expect(
      await callApi(server.url, "POST", COMPARE, {
        run_ids: [firstRun],
        run_names: ["same-name"],
        models: MODELS,
      }),
    ).toEqual({
      status: 422,
      json: {
        error: {
          code: "invalid_request",
          message: "body: give exactly one of job_ids, run_names or run_ids",
        },
      },
    });
    expect(
      await callApi(server.url, "POST", COMPARE, { job_ids: ["j"], db: "lab", models: MODELS }),
    ).toMatchObject({ status: 422, json: { error: { code: "invalid_request" } } });
  });
});
