/**
 * `POST /api/v2/verifications/compare-models` against the real server on 127.0.0.1 and a real SQLite file:
 * crafted rows (hand-written test data) stored in a run, compared by reference. Expectations are worked out by
 * hand from spec 07 §2.2 "Compare details".
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../../benchmark/index.js";
import { type RowSpec, row } from "../../results/__fixtures__/rows.js";
import type { VerificationResult } from "../../results/index.js";
import { callApi } from "../__fixtures__/api-calls.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

const PATH = "/api/v2/verifications/compare-models";
let server: TestServer;

/** A stored row: a pass unless told otherwise, with token totals and the abstention/sufficiency verdicts. */
function stored(
  spec: RowSpec & { input?: number; abstained?: boolean; sufficient?: boolean },
): VerificationResult {
  const { input, abstained, sufficient, ...rest } = spec;
  const result = row({
    verify: true,
    runName: "cmp-run",
    ...rest,
    usage: input === undefined ? null : { answer_generation: { input, output: 1 } },
  });
  if (result.template !== null) {
    result.template.abstention_detected = abstained ?? false;
    result.template.sufficiency_detected = sufficient ?? null;
  }
  return result;
}

beforeAll(async () => {
  server = await startTestServer();
  const bench = Benchmark.create({ name: "cmp-bench" });
  bench.addQuestion("Which drug inhibits BCL2?", "venetoclax", { questionId: "q1" });
  bench.addQuestion("Which protein does imatinib inhibit?", "BCR-ABL", { questionId: "q2" });
  const { storage } = server.deps;
  await storage.saveBenchmark(bench);
  const run = await storage.startRun({ runName: "cmp-run", benchmarkName: "cmp-bench" });
  await storage.saveResults(run.id, [
    stored({ question: "q1", questionText: "Which drug inhibits BCL2?", resultId: "a1", input: 10 }),
    stored({
      question: "q2",
      questionText: "Which protein does imatinib inhibit?",
      resultId: "a2",
      verify: false,
      abstained: true,
      failure: { category: "abstention", stage: "abstention_check" },
      input: 30,
    }),
    stored({
      question: "q1",
      questionText: "Which drug inhibits BCL2?",
      answering: "other-model",
      resultId: "b1",
      sufficient: false,
      verify: false,
      failure: { category: "sufficiency", stage: "sufficiency_check" },
      input: 20,
    }),
  ]);
  await storage.finishRun(run.id, { status: "completed" });
});
afterAll(async () => {
  await server.close();
});

describe("POST /api/v2/verifications/compare-models", () => {
  test("two models of a stored run: summaries, heatmap cells read from the full rows, token statistics", async () => {
    const { status, json } = await callApi<Record<string, unknown>>(server.url, "POST", PATH, {
      run_names: ["cmp-run"],
      models: [
        { answering_model: "answerer", interface: "openai" },
        { answering_model: "other-model", interface: "openai", mcp_config: "[]" },
      ],
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: true, result_count: 3 });
    expect(Object.keys(json.model_summaries as object)).toEqual(["openai:answerer", "openai:other-model"]);
    expect(json.model_summaries).toMatchObject({
      "openai:answerer": { num_results: 2 },
      "openai:other-model": { num_results: 1 },
    });
    const cell = (overrides: Record<string, unknown> & { result_id: string }) => ({
      replicate: null,
      passed: true,
      abstained: false,
      insufficient: false,
      error: false,
      execution_type: "Standard",
      input_tokens: 0,
      output_tokens: 1,
      iterations: 0,
      ...overrides,
    });
    expect(json.heatmap_data).toEqual([
      {
        question_id: "q1",
        question_text: "Which drug inhibits BCL2?",
        keywords: [],
        results_by_model: {
          "openai:answerer": { replicates: [cell({ result_id: "a1", input_tokens: 10 })] },
          "openai:other-model": {
            replicates: [
              cell({ result_id: "b1", passed: false, insufficient: true, error: true, input_tokens: 20 }),
            ],
          },
        },
      },
      {
        question_id: "q2",
        question_text: "Which protein does imatinib inhibit?",
        keywords: [],
        results_by_model: {
          // abstention_detected is not in the stored digest: true here means the full row was read
          "openai:answerer": {
            replicates: [
              cell({ result_id: "a2", passed: false, abstained: true, error: true, input_tokens: 30 }),
            ],
          },
          "openai:other-model": { replicates: [] },
        },
      },
    ]);
    expect(json.question_token_data).toEqual([
      {
        question_id: "q1",
        question_text: "Which drug inhibits BCL2?",
        models: [
          {
            model_key: "openai:answerer",
            model_display_name: "openai:answerer",
            input_tokens_median: 10,
            input_tokens_std: 0,
            output_tokens_median: 1,
            output_tokens_std: 0,
          },
          {
            model_key: "openai:other-model",
            model_display_name: "openai:other-model",
            input_tokens_median: 20,
            input_tokens_std: 0,
            output_tokens_median: 1,
            output_tokens_std: 0,
          },
        ],
      },
      {
        question_id: "q2",
        question_text: "Which protein does imatinib inhibit?",
        models: [
          {
            model_key: "openai:answerer",
            model_display_name: "openai:answerer",
            input_tokens_median: 30,
            input_tokens_std: 0,
            output_tokens_median: 1,
            output_tokens_std: 0,
          },
        ],
      },
    ]);
  });

  test("no models → 422 naming body.models; an MCP config that is not a JSON list → 422 naming it", async () => {
    const none = await callApi(server.url, "POST", PATH, { run_names: ["cmp-run"], models: [] });
    expect(none.status).toBe(422);
    expect(none.json.error.code).toBe("invalid_request");
    expect(none.json.error.message).toMatch(/^body\.models: /);
    const bad = await callApi(server.url, "POST", PATH, {
      run_names: ["cmp-run"],
      models: [{ answering_model: "answerer", mcp_config: "files" }],
    });
    expect(bad.status).toBe(422);
    expect(bad.json.error.message).toBe(
      `body.models[0].mcp_config: expected a JSON array of MCP server names, e.g. '["files"]', found a string "files"`,
    );
  });

  test("neither or both references → 422; an unknown run → 404; an unknown job → 404", async () => {
    const models = [{ answering_model: "answerer" }];
    expect(await callApi(server.url, "POST", PATH, { models })).toEqual({
      status: 422,
      json: {
        error: {
          code: "invalid_request",
          message: "body: give exactly one of job_ids, run_names or run_ids",
        },
      },
    });
    expect(await callApi(server.url, "POST", PATH, { models, run_names: ["nope"] })).toEqual({
      status: 404,
      json: {
        error: {
          code: "run_not_found",
          message: 'no stored run is named "nope"; list the stored runs to find its name',
        },
      },
    });
    const job = await callApi(server.url, "POST", PATH, { models, job_ids: ["no-such-job"] });
    expect(job.status).toBe(404);
    expect(job.json.error.code).toBe("job_not_found");
  });

  test("rows but none of the models → 400 no_results_for_models; a replicate filter leaving nothing → 400 no_results", async () => {
    expect(
      await callApi(server.url, "POST", PATH, {
        run_names: ["cmp-run"],
        models: [{ answering_model: "answerer", interface: "langchain" }],
      }),
    ).toEqual({
      status: 400,
      json: {
        error: {
          code: "no_results_for_models",
          message:
            'no results for the models "langchain:answerer"; name an answering model_name, interface and MCP servers found in the results',
        },
      },
    });
    expect(
      await callApi(server.url, "POST", PATH, {
        run_names: ["cmp-run"],
        models: [{ answering_model: "answerer", interface: "openai" }],
        replicate: 2,
      }),
    ).toEqual({
      status: 400,
      json: {
        error: {
          code: "no_results",
          message: "no results to compare with replicate 2; check the references and filters",
        },
      },
    });
  });

  test("parsing_model keeps only that judge's rows", async () => {
    const models = [{ answering_model: "answerer", interface: "openai" }];
    const other = await callApi(server.url, "POST", PATH, {
      run_names: ["cmp-run"],
      models,
      parsing_model: "openai:another-judge",
    });
    expect(other.status).toBe(400);
    expect(other.json.error.message).toBe(
      'no results to compare with parsing model "openai:another-judge"; check the references and filters',
    );
    const judge = await callApi<{ model_summaries: Record<string, { num_results: number }> }>(
      server.url,
      "POST",
      PATH,
      { run_names: ["cmp-run"], models, parsing_model: "openai:judge" },
    );
    expect(judge.status).toBe(200);
    expect(judge.json.model_summaries["openai:answerer"]?.num_results).toBe(2);
  });
});
