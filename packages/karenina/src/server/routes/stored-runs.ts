import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  type VerificationResult,
  VerificationResultMetadataSchema,
  VerificationResultSchema,
} from "../../results/index.js";
import { type ResultQuery, RUN_STATUSES, type RunFilter, type RunInfo } from "../../storage/index.js";
import { errorResponses, jsonContent, PageQuerySchema, pageSchema, type RouteGroup } from "../core/index.js";
import { connectionsOf, DbQuerySchema, libraryCall } from "../databases/index.js";

export const StoredRunSchema = z
  .object({
    id: z.string(),
    run_name: z.string(),
    benchmark_name: z.string(),
    status: z.enum(RUN_STATUSES),
    total_questions: z.number().int().nullable(),
    processed_count: z.number().int(),
    successful_count: z.number().int(),
    failed_count: z.number().int(),
    start_time: z.string(),
    end_time: z.string().nullable(),
    error_message: z.string().nullable(),
    created_at: z.string(),
    is_imported: z.boolean().describe("Created by a results import, not by running a verification"),
  })
  .meta({ id: "StoredRun" });

/** The fields of a result a table shows; the full row (with traces) is `fields=full`. */
const ResultSummarySchema = VerificationResultMetadataSchema.pick({
  result_id: true,
  question_id: true,
  question_text: true,
  answering: true,
  parsing: true,
  replicate: true,
  failure: true,
  caveats: true,
  execution_time: true,
  timestamp: true,
  run_name: true,
})
  .extend({ verify_result: z.boolean().nullable() })
  .meta({ id: "StoredResultSummary" });

const RunsQuerySchema = DbQuerySchema.extend(PageQuerySchema.shape).extend({
  benchmark_name: z.string().optional(),
  status: z.enum(RUN_STATUSES).optional(),
});

const ResultsQuerySchema = DbQuerySchema.extend(PageQuerySchema.shape).extend({
  run_id: z.string().optional(),
  run_name: z.string().optional(),
  benchmark_name: z.string().optional(),
  question_id: z.string().optional(),
  answering_model: z.string().optional().describe("The answering model's model_name"),
  passed: z.enum(["true", "false"]).optional().describe("true: no failure and verify_result true"),
  fields: z.enum(["summary", "full"]).default("summary"),
});

const listRuns = createRoute({
  method: "get",
  path: "/api/v2/verification-runs",
  tags: ["stored runs"],
  summary: "Stored verification runs, newest first",
  request: { query: RunsQuerySchema },
  responses: { 200: jsonContent(pageSchema(StoredRunSchema), "A page of runs"), ...errorResponses(404, 422) },
});

const listResults = createRoute({
  method: "get",
  path: "/api/v2/verification-results",
  tags: ["stored runs"],
  summary: "Stored verification results matching every filter given, in saving order",
  request: { query: ResultsQuerySchema },
  responses: {
    200: jsonContent(
      pageSchema(z.union([ResultSummarySchema, VerificationResultSchema])),
      "A page of results (summaries, or full rows with fields=full)",
    ),
    ...errorResponses(404, 422),
  },
});

function runRow(run: RunInfo) {
  return {
    id: run.id,
    run_name: run.runName,
    benchmark_name: run.benchmarkName,
    status: run.status,
    total_questions: run.totalQuestions,
    processed_count: run.processedCount,
    successful_count: run.successfulCount,
    failed_count: run.failedCount,
    start_time: run.startTime,
    end_time: run.endTime,
    error_message: run.errorMessage,
    created_at: run.createdAt,
    is_imported: run.isImported,
  };
}

function summaryRow(result: VerificationResult) {
  const m = result.metadata;
  return {
    result_id: m.result_id,
    question_id: m.question_id,
    question_text: m.question_text,
    answering: m.answering,
    parsing: m.parsing,
    replicate: m.replicate,
    failure: m.failure,
    caveats: m.caveats,
    execution_time: m.execution_time,
    timestamp: m.timestamp,
    run_name: m.run_name,
    verify_result: result.template?.verify_result ?? null,
  };
}

/** Stored runs and results of a database, filtered and paged (spec 07 §2.2 "Databases and stored runs"). */
export const storedRunRoutes: RouteGroup = (app, deps) => {
  const connections = connectionsOf(deps);

  app.openapi(listRuns, async (c) => {
    const query = c.req.valid("query");
    const storage = connections.storage(query.db);
    const filter: RunFilter = {
      ...(query.benchmark_name === undefined ? {} : { benchmarkName: query.benchmark_name }),
      ...(query.status === undefined ? {} : { status: query.status }),
    };
    const [total, runs] = await libraryCall(() =>
      Promise.all([
        storage.countRuns(filter),
        storage.listRuns({ ...filter, limit: query.page_size, offset: (query.page - 1) * query.page_size }),
      ]),
    );
    const items = runs.map(runRow);
    return c.json({ items, page: query.page, page_size: query.page_size, total }, 200);
  });

  app.openapi(listResults, async (c) => {
    const query = c.req.valid("query");
    const storage = connections.storage(query.db);
    const filter: ResultQuery = {
      ...(query.run_id === undefined ? {} : { runId: query.run_id }),
      ...(query.run_name === undefined ? {} : { runName: query.run_name }),
      ...(query.benchmark_name === undefined ? {} : { benchmarkName: query.benchmark_name }),
      ...(query.question_id === undefined ? {} : { questionIds: [query.question_id] }),
      ...(query.answering_model === undefined ? {} : { answeringModel: query.answering_model }),
      ...(query.passed === undefined ? {} : { passed: query.passed === "true" }),
    };
    const [total, rows] = await libraryCall(() =>
      Promise.all([
        storage.countResults(filter),
        storage.loadResults({
          ...filter,
          limit: query.page_size,
          offset: (query.page - 1) * query.page_size,
        }),
      ]),
    );
    const items = query.fields === "full" ? rows : rows.map(summaryRow);
    return c.json({ items, page: query.page, page_size: query.page_size, total }, 200);
  });
};
