/**
 * Acceptance scenarios A2–A5, A9 (isolation) and A12 of spec 07 §4, against the real server on 127.0.0.1 and
 * the scripted OpenAI-compatible server (replies: hand-written test data). Translated to our API: a job is
 * started from a posted checkpoint (not `finished_templates`), results are paged at `…/results`, summary and
 * comparison take references, every failure is the one error envelope.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../test-support/pipeline-context.js";
import { scenarioCheckpoint, scenarioClient, scenarioConfig } from "../__fixtures__/scenario-fixtures.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { drugCheckpoint, drugReplies } from "../__fixtures__/verification-jobs.js";

let llm: OpenAiTestServer;
let slow: OpenAiTestServer;
let server: TestServer;
let api: ReturnType<typeof scenarioClient>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

beforeAll(async () => {
  llm = await startOpenAiServer(drugReplies());
  // Answers take 5 s, so a job on this server is still running when the test acts on it.
  slow = await startOpenAiServer(drugReplies(5000));
  server = await startTestServer();
  api = scenarioClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await llm.close();
  await slow.close();
});

describe("A2 verification-api · lifecycle", () => {
  test("A2 start with a valid config → 202 with a UUID job id and its run name", async () => {
    const { status, body } = await api.start(drugCheckpoint(1, "a2-start"), scenarioConfig(llm.baseURL), {
      run_name: "a2-run",
    });
    expect(status).toBe(202);
    expect(body).toEqual({
      success: true,
      job_id: expect.stringMatching(UUID),
      run_name: "a2-run",
      // a free worker picks the job up before the answer is sent
      status: "running",
      message: "verification job queued",
    });
    await api.waitForStatus(body.job_id, "completed");
  });

  test("A2 a checkpoint without finished templates is rejected: 422, nothing queued or saved", async () => {
    const { status, body } = await api.start(scenarioCheckpoint("a2-empty", []), scenarioConfig(llm.baseURL));
    expect({ status, body }).toEqual({
      status: 422,
      body: {
        error: {
          code: "invalid_request",
          message:
            'body: benchmark "a2-empty" has no finished question to verify; finish questions (with their templates) first',
        },
      },
    });
    expect((await api.call("GET", "/api/v2/benchmarks/a2-empty")).status).toBe(404);
  });

  test("A2 a running job is cancelled: 200, status cancelled, job_cancelled is final", async () => {
    const { body } = await api.start(drugCheckpoint(2, "a2-cancel"), scenarioConfig(slow.baseURL));
    await api.waitForStatus(body.job_id, "running");
    const cancelled = await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      job_id: body.job_id,
      status: "cancelled",
      processed: 0,
      total: 2,
    });
    const again = await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
    expect(again).toMatchObject({
      status: 409,
      body: {
        error: {
          code: "job_state_conflict",
          message: `job "${body.job_id}" is cancelled; it cannot be cancelled`,
          details: { status: "cancelled" },
        },
      },
    });
  });
});

describe("A3 verification-api · progress/results", () => {
  test("A3 unknown job: 404 job_not_found on progress and results", async () => {
    for (const path of ["progress", "results"]) {
      const res = await api.call("GET", `/api/v2/verifications/no-such-job/${path}`);
      expect(res).toMatchObject({
        status: 404,
        body: {
          error: {
            code: "job_not_found",
            message: 'job "no-such-job" not found; list the jobs to find its id',
          },
        },
      });
    }
  });

  test("A3 progress while active: running, 0 of 2 processed, the tasks in progress listed", async () => {
    const { body } = await api.start(drugCheckpoint(2, "a3-active"), scenarioConfig(slow.baseURL));
    await api.waitForStatus(body.job_id, "running");
    // the plan (task count) is set once the templates have loaded; answers take 5 s, so none is processed yet
    let view = await api.waitForStatus(body.job_id, "running");
    while (view.total === 0) view = await api.waitForStatus(body.job_id, "running");
    expect(view).toMatchObject({
      job_id: body.job_id,
      status: "running",
      processed: 0,
      total: 2,
      percentage: 0,
    });
    const results = await api.call("GET", `/api/v2/verifications/${body.job_id}/results`);
    expect(results).toMatchObject({ status: 200, body: { items: [], next_cursor: null, total: 0 } });
    await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
  });

  test("A3 historical jobs are listed, newest first, and their stored runs too", async () => {
    const rows = await api.runToEnd(drugCheckpoint(1, "a3-history"), scenarioConfig(llm.baseURL), {
      run_name: "a3-history-run",
    });
    expect(rows).toHaveLength(1);
    const list = await api.call("GET", "/api/v2/verifications?status=completed&page_size=100");
    expect(list.status).toBe(200);
    expect(list.body.items.map((job: { outcome: unknown }) => job)).toContainEqual(
      expect.objectContaining({ status: "completed", processed: 1, total: 1 }),
    );
    const runs = await api.call("GET", "/api/v2/verification-runs?benchmark_name=a3-history");
    expect(runs.status).toBe(200);
    expect(runs.body).toMatchObject({ items: [expect.objectContaining({ run_name: "a3-history-run" })] });
  });
});

describe("A4 verification-api · summary/compare", () => {
  test("A4 summary of an empty set (a job cancelled before any row) answers 200 with zero results", async () => {
    const { body } = await api.start(drugCheckpoint(1, "a4-empty"), scenarioConfig(slow.baseURL));
    await api.waitForStatus(body.job_id, "running");
    await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
    const summary = await api.call("POST", "/api/v2/verifications/summary", { job_ids: [body.job_id] });
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ success: true, result_count: 0 });
  });

  test("A4 compare without references → 422 naming them; with an empty model list → 422 naming body.models", async () => {
    expect(await api.call("POST", "/api/v2/verifications/compare", {})).toEqual({
      status: 422,
      body: {
        error: {
          code: "invalid_request",
          message: "body: give exactly one of job_ids, run_names or run_ids",
        },
      },
      headers: expect.anything(),
    });
    const empty = await api.call("POST", "/api/v2/verifications/compare", {
      job_ids: ["a", "b"],
      models: [],
    });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe("invalid_request");
    expect(empty.body.error.message).toMatch(/^body\.models: /);
  });
});

describe("A5 verification-api · result-set format", () => {
  test("A5 a completed job's rows are VerificationResults; replicate set in metadata when replicates > 1", async () => {
    const rows = await api.runToEnd(
      drugCheckpoint(1, "a5-replicates"),
      scenarioConfig(llm.baseURL, { replicate_count: 2 }),
    );
    expect(rows.map((row) => row.metadata.replicate).sort()).toEqual([1, 2]);
    expect(rows[0].metadata).toMatchObject({ question_id: "q0", failure: null });
    expect(rows[0].template).toMatchObject({ verify_result: true });
    const single = await api.runToEnd(drugCheckpoint(1, "a5-single"), scenarioConfig(llm.baseURL));
    expect(single[0].metadata.replicate ?? null).toBeNull();
  });
});

describe("A9 multi-model · isolation", () => {
  test("A9 two simultaneous jobs get different ids and isolated state", async () => {
    const [one, two] = await Promise.all([
      api.start(drugCheckpoint(1, "a9-one"), scenarioConfig(llm.baseURL)),
      api.start(drugCheckpoint(3, "a9-two"), scenarioConfig(llm.baseURL)),
    ]);
    expect(one.body.job_id).not.toBe(two.body.job_id);
    const [a, b] = await Promise.all([
      api.waitForStatus(one.body.job_id, "completed"),
      api.waitForStatus(two.body.job_id, "completed"),
    ]);
    expect([a.total, a.processed, b.total, b.processed]).toEqual([1, 1, 3, 3]);
    const pageOne = await api.call("GET", `/api/v2/verifications/${one.body.job_id}/results`);
    expect(pageOne.body.total).toBe(1);
  });
});

describe("A12 edge-cases", () => {
  test("A12 cancel of an unknown job → 404; cancel after completion → 409", async () => {
    expect((await api.call("DELETE", "/api/v2/verifications/nope")).status).toBe(404);
    const { body } = await api.start(drugCheckpoint(1, "a12-done"), scenarioConfig(llm.baseURL));
    await api.waitForStatus(body.job_id, "completed");
    const late = await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({
      code: "job_state_conflict",
      message: `job "${body.job_id}" is completed; it cannot be cancelled`,
      details: { status: "completed" },
    });
  });

  test("A12 empty question_ids → 422 naming body.question_ids", async () => {
    const { status, body } = await api.start(drugCheckpoint(1, "a12-ids"), scenarioConfig(llm.baseURL), {
      question_ids: [],
    });
    expect(status).toBe(422);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(/^body\.question_ids: /);
  });

  test("A12 a question id not among the benchmark's → 422 naming body.question_ids", async () => {
    const res = await api.start(drugCheckpoint(1, "a12-unknown-id"), scenarioConfig(llm.baseURL), {
      question_ids: ["q0", "not-a-question"],
    });
    expect(res).toEqual({
      status: 422,
      body: {
        error: {
          code: "invalid_request",
          message:
            'body.question_ids: "not-a-question" not in benchmark "a12-unknown-id"; use ids of its questions',
        },
      },
    });
  });

  test("A12 invalid model config → 422 naming the field", async () => {
    const config = scenarioConfig(llm.baseURL, { replicate_count: "two" });
    const { status, body } = await api.start(drugCheckpoint(1, "a12-config"), config);
    expect(status).toBe(422);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain("replicate_count");
    const noParser = await api.start(drugCheckpoint(1, "a12-config"), { answering_models: [] });
    expect(noParser.status).toBe(422);
    expect(noParser.body.error.message).toContain("parsing_models");
  });

  test("A12 neither a checkpoint nor a benchmark name (the original's missing finished_templates) → 422", async () => {
    const res = await api.call("POST", "/api/v2/verifications", { config: scenarioConfig(llm.baseURL) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      error: {
        code: "invalid_request",
        message: "body: give exactly one of benchmark_name (stored) or checkpoint (JSON-LD)",
      },
    });
  });

  test("A12 a stored benchmark that does not exist → 404", async () => {
    const res = await api.call("POST", "/api/v2/verifications", {
      config: scenarioConfig(llm.baseURL),
      benchmark_name: "never-stored",
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: "not_found", message: 'benchmark "never-stored" not found' } });
  });

  test("A12 malformed JSON → 400 with the envelope", async () => {
    const res = await api.call("POST", "/api/v2/verifications", "{ not json");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: {
        code: "malformed_json",
        message: "body: not valid JSON; send a JSON document (Content-Type: application/json)",
      },
    });
  });

  test("A12 rapid consecutive starts: distinct ids, every job completes with its own rows", async () => {
    const starts = await Promise.all(
      [0, 1, 2, 3].map(() => api.start(drugCheckpoint(1, "a12-rapid"), scenarioConfig(llm.baseURL))),
    );
    expect(starts.map((s) => s.status)).toEqual([202, 202, 202, 202]);
    expect(new Set(starts.map((s) => s.body.job_id)).size).toBe(4);
    for (const s of starts) {
      const view = await api.waitForStatus(s.body.job_id, "completed");
      expect([view.processed, view.successful]).toEqual([1, 1]);
    }
  });
});

describe("A10 results-display and A11 results-export", () => {
  let jobId: string;
  beforeAll(async () => {
    const { body } = await api.start(
      scenarioCheckpoint("a11-special", [
        {
          id: "q-special",
          // quotes, a comma and a newline: the CSV must quote them
          question: 'Which drug, "the BCL2 one",\ninhibits BCL2?',
          answer: "venetoclax",
          template: DRUG_TEMPLATE,
        },
      ]),
      scenarioConfig(llm.baseURL, { replicate_count: 2 }),
    );
    jobId = body.job_id;
    await api.waitForStatus(jobId, "completed");
  });

  test("A10 results-display: summary totals, pass rate and token totals; summary rows for the table", async () => {
    const summary = await api.call("POST", "/api/v2/verifications/summary", { job_ids: [jobId] });
    expect(summary.status).toBe(200);
    expect(summary.body.result_count).toBe(2);
    expect(summary.body.summary).toMatchObject({
      num_results: 2,
      num_completed: 2,
      num_questions: 1,
      num_replicates: 2,
    });
    expect(summary.body.summary.outcomes).toMatchObject({ passed: 2, failed: 0 });
    // each call of the scripted server reports 11 input and 7 output tokens; two calls per row
    expect(summary.body.summary.tokens.total_input).toBe(44);
    const rows = await api.call("GET", `/api/v2/verifications/${jobId}/results?fields=summary`);
    expect(rows.body.items[0]).toEqual({
      result_id: expect.any(String),
      question_id: "q-special",
      answering: expect.objectContaining({ model_name: "answerer" }),
      parsing: expect.objectContaining({ model_name: "judge" }),
      replicate: expect.any(Number),
      passed: true,
      verify_result: true,
      failure_category: null,
    });
  });

  test("A10 results-display: comparison of two jobs' pass rates", async () => {
    const compare = await api.call("POST", "/api/v2/verifications/compare", { job_ids: [jobId, jobId] });
    expect(compare.status).toBe(200);
    expect(compare.body).toMatchObject({
      success: true,
      before: { result_count: 2 },
      after: { result_count: 2 },
    });
  });

  test("A11 results-export: CSV quotes quotes, commas and newlines; filename with timestamp and models (06 naming)", async () => {
    const res = await api.call("GET", `/api/v2/verifications/${jobId}/export?fmt=csv`);
    expect(res.status).toBe(200);
    // verification_results_<UTC YYYYMMDD_HHMMSS>_<ansProvider>_<ansModel>_to_<parseProvider>_<parseModel>.csv
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="verification_results_\d{8}_\d{6}_openai_answerer_to_openai_judge\.csv"$/,
    );
    expect(res.body).toContain('"Which drug, ""the BCL2 one"",\ninhibits BCL2?"');
  });

  test("A11 results-export: JSON export round-trips through import into a stored benchmark's run", async () => {
    const res = await api.call("GET", `/api/v2/verifications/${jobId}/export?fmt=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="verification_results_\d{8}_\d{6}_openai_answerer_to_openai_judge\.json"$/,
    );
    expect(res.body.metadata.job_summary).toMatchObject({ is_complete: true, total_questions: 2 });
    // the header lists the job's models with provider and temperature, as the original's
    expect(res.body.metadata.verification_config).toEqual({
      answering_models: [
        { provider: "openai", name: "answerer", temperature: 0.1, interface: "openai_endpoint" },
      ],
      parsing_models: [{ provider: "openai", name: "judge", temperature: 0.1, interface: "openai_endpoint" }],
    });
    const imported = await api.call("POST", "/api/v2/benchmarks/a11-special/results", {
      results_export: res.body,
      run_name: "a11-reimport",
    });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ run_name: "a11-reimport", imported_count: 2, skipped_count: 0 });
    const original = await api.call("GET", `/api/v2/verifications/${jobId}/results`);
    const again = await api.call("GET", "/api/v2/verification-results?run_name=a11-reimport&fields=full");
    expect(
      again.body.items.map((row: { metadata: { result_id: string } }) => row.metadata.result_id).sort(),
    ).toEqual(
      original.body.items.map((row: { metadata: { result_id: string } }) => row.metadata.result_id).sort(),
    );
  });

  test("A11 results-export: export of an empty job (cancelled before any result) is refused with 409", async () => {
    const { body } = await api.start(drugCheckpoint(1, "a11-empty"), scenarioConfig(slow.baseURL));
    await api.waitForStatus(body.job_id, "running");
    await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
    for (const fmt of ["json", "csv"]) {
      const res = await api.call("GET", `/api/v2/verifications/${body.job_id}/export?fmt=${fmt}`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: {
          error: {
            code: "no_results",
            message: `job ${body.job_id} is cancelled without any result; there is nothing to export`,
          },
        },
      });
    }
  });

  test("A11 results-export: export of a running job is refused with 409", async () => {
    const { body } = await api.start(drugCheckpoint(1, "a11-running"), scenarioConfig(slow.baseURL));
    await api.waitForStatus(body.job_id, "running");
    const res = await api.call("GET", `/api/v2/verifications/${body.job_id}/export?fmt=json`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: {
        code: "job_not_finished",
        message: `job ${body.job_id} is running; export it once it has finished or been cancelled`,
      },
    });
    await api.call("DELETE", `/api/v2/verifications/${body.job_id}`);
  });
});
