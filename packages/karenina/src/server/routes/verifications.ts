import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { Benchmark } from "../../benchmark/index.js";
import {
  ConfigError,
  defaultRunName,
  dumpVerificationConfig,
  parseVerificationConfig,
} from "../../pipeline/index.js";
import {
  exportResultsCsv,
  exportResultsJson,
  ScenarioResultRecordSchema,
  type VerificationResult,
  VerificationResultSchema,
} from "../../results/index.js";
import { JOB_STATUSES, StorageNotFoundError } from "../../storage/index.js";
import { ApiError, errorResponses, jsonContent, PageQuerySchema, type RouteGroup } from "../core/index.js";
import { connectionsOf } from "../databases/index.js";
import { JobProgressSchema, type JobRunner, type JobView, jobNotFound, jobRunnerOf } from "../jobs/index.js";
import { mountProgressStreams } from "../progress/index.js";
import {
  compareByReference,
  exportFilename,
  exportModelsOfJob,
  fleetVerificationJobKind,
  jobScenarios,
  prepareVerificationJob,
  type ResultReference,
  referencesOf,
  runLogOfJob,
  storageOfReferences,
  summarizeByReference,
  VERIFICATION_JOB,
  type VerificationJobInput,
  verificationJobKind,
} from "../verification/index.js";
import { mountScenarioRoutes } from "./verification-scenarios.js";

const JobIdParams = z.object({ job_id: z.string().describe("The job's id (UUID)") });

export const StartVerificationSchema = z
  .object({
    config: z.record(z.string(), z.unknown()).describe("A VerificationConfig (spec 04 §2)"),
    benchmark_name: z.string().min(1).optional().describe("A benchmark stored in the server's database"),
    checkpoint: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "A JSON-LD checkpoint; it is saved in the database under its name (replacing one of that name)",
      ),
    question_ids: z.array(z.string()).min(1).optional().describe("Only these finished questions"),
    run_name: z.string().min(1).optional(),
  })
  .meta({ id: "StartVerification" });

export const JobViewSchema = JobProgressSchema.extend({
  created_at: z.string(),
  finished_at: z.string().nullable(),
  run_id: z.string().nullable(),
  outcome: z.unknown(),
  last_seq: z.number().int(),
}).meta({ id: "JobView" });

export const StartedSchema = z.object({
  success: z.literal(true),
  job_id: z.string(),
  run_name: z.string(),
  status: z.enum(JOB_STATUSES),
  message: z.string(),
});

const ResultsQuerySchema = z.object({
  cursor: z.string().optional().describe("From `next_cursor` of the previous page"),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  fields: z.enum(["summary", "full"]).default("full"),
});

const ResultSummarySchema = z.object({
  result_id: z.string(),
  question_id: z.string(),
  answering: z.unknown(),
  parsing: z.unknown(),
  replicate: z.number().int().nullable(),
  passed: z.boolean(),
  verify_result: z.unknown(),
  failure_category: z.string().nullable(),
});

const ResultsPageSchema = z.object({
  items: z.array(z.union([ResultSummarySchema, VerificationResultSchema])),
  next_cursor: z.string().nullable(),
  total: z.number().int(),
  scenario_results: z
    .array(ScenarioResultRecordSchema)
    .optional()
    .describe(
      "A scenario job's execution records (spec 08 §6.3), each finished execution once: on the first page only",
    ),
});

export const SummaryRequestSchema = z
  .object({
    job_ids: z.array(z.string().min(1)).min(1).optional().describe("Verification jobs"),
    run_names: z.array(z.string().min(1)).min(1).optional().describe("Stored runs, by name"),
    run_ids: z.array(z.string().min(1)).min(1).optional().describe("Stored runs, by id"),
    db: z
      .string()
      .min(1)
      .optional()
      .describe("The database connection holding the runs (default: the server's own database)"),
  })
  .meta({ id: "SummaryRequest" });

export const SummaryResponseSchema = z.object({
  success: z.literal(true),
  summary: z.unknown().describe("ResultSummary (spec 06 §3.1)"),
  result_count: z.number().int(),
});

const CompareRequestSchema = z
  .object({
    job_ids: z.array(z.string().min(1)).length(2).optional().describe("[before, after] verification jobs"),
    run_names: z.array(z.string().min(1)).length(2).optional().describe("[before, after] stored run names"),
    models: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("Only rows whose answering model's model_name is one of these"),
  })
  .meta({ id: "CompareRequest" });

const CompareSideSchema = z.object({
  job_id: z.string().optional(),
  run_name: z.string().optional(),
  result_count: z.number().int(),
});

const route = {
  start: createRoute({
    method: "post",
    path: "/api/v2/verifications",
    tags: ["verification"],
    summary: "Start a verification job of a stored benchmark or a posted checkpoint",
    request: { body: jsonContent(StartVerificationSchema, "What to verify, and how") },
    responses: {
      202: jsonContent(StartedSchema, "The job is queued"),
      ...errorResponses(400, 404, 409, 422),
    },
  }),
  list: createRoute({
    method: "get",
    path: "/api/v2/verifications",
    tags: ["verification"],
    summary: "Verification jobs, newest first",
    request: { query: PageQuerySchema.extend({ status: z.enum(JOB_STATUSES).optional() }) },
    responses: {
      200: jsonContent(
        z.object({
          items: z.array(JobViewSchema),
          page: z.number(),
          page_size: z.number(),
          total: z.number(),
        }),
        "A page of jobs",
      ),
      ...errorResponses(422),
    },
  }),
  progress: createRoute({
    method: "get",
    path: "/api/v2/verifications/{job_id}/progress",
    tags: ["verification"],
    summary: "A job's progress",
    request: { params: JobIdParams },
    responses: { 200: jsonContent(JobViewSchema, "The job"), ...errorResponses(404) },
  }),
  results: createRoute({
    method: "get",
    path: "/api/v2/verifications/{job_id}/results",
    tags: ["verification"],
    summary: "A page of a job's results (finished so far), by cursor",
    request: { params: JobIdParams, query: ResultsQuerySchema },
    responses: { 200: jsonContent(ResultsPageSchema, "A page of results"), ...errorResponses(400, 404, 422) },
  }),
  result: createRoute({
    method: "get",
    path: "/api/v2/verifications/{job_id}/results/{result_id}",
    tags: ["verification"],
    summary: "One full result row (with its trace)",
    request: { params: JobIdParams.extend({ result_id: z.string() }) },
    responses: { 200: jsonContent(VerificationResultSchema, "The result"), ...errorResponses(404) },
  }),
  export: createRoute({
    method: "get",
    path: "/api/v2/verifications/{job_id}/export",
    tags: ["verification"],
    summary: "A finished job's results as a JSON (v2.2) or CSV export file",
    request: { params: JobIdParams, query: z.object({ fmt: z.enum(["json", "csv"]).default("json") }) },
    responses: {
      200: {
        content: { "application/json": { schema: z.string() }, "text/csv": { schema: z.string() } },
        description: "The file",
      },
      ...errorResponses(404, 409),
    },
  }),
  cancel: createRoute({
    method: "delete",
    path: "/api/v2/verifications/{job_id}",
    tags: ["verification"],
    summary: "Cancel a job: in-flight calls aborted, finished rows kept",
    request: { params: JobIdParams },
    responses: { 200: jsonContent(JobViewSchema, "The job, cancelled"), ...errorResponses(404, 409) },
  }),
  resume: createRoute({
    method: "post",
    path: "/api/v2/verifications/{job_id}/resume",
    tags: ["verification"],
    summary: "Resume an interrupted job, skipping the tasks it finished",
    request: { params: JobIdParams },
    responses: { 202: jsonContent(JobViewSchema, "The job, queued again"), ...errorResponses(404, 409) },
  }),
  summary: createRoute({
    method: "post",
    path: "/api/v2/verifications/summary",
    tags: ["verification"],
    summary: "Summary of stored results, by reference to jobs, stored run names or stored run ids",
    request: { body: jsonContent(SummaryRequestSchema, "The jobs or runs whose results to summarise") },
    responses: {
      200: jsonContent(SummaryResponseSchema, "The summary"),
      ...errorResponses(404, 422),
    },
  }),
  compare: createRoute({
    method: "post",
    path: "/api/v2/verifications/compare",
    tags: ["verification"],
    summary: "Two sets of stored results compared row by row, by reference to jobs or stored run names",
    request: { body: jsonContent(CompareRequestSchema, "The two jobs or runs: before, then after") },
    responses: {
      200: jsonContent(
        z.object({
          success: z.literal(true),
          before: CompareSideSchema,
          after: CompareSideSchema,
          comparison: z
            .unknown()
            .describe("RunComparison (results/compare): pass rates, changed rows, questions"),
        }),
        "The comparison",
      ),
      ...errorResponses(404, 422),
    },
  }),
};

function configOf(raw: unknown, env: Readonly<Record<string, string | undefined>>) {
  try {
    return parseVerificationConfig(raw, { env });
  } catch (error) {
    if (error instanceof ConfigError) {
      const details = error.problems.map((p) => ({
        field: `body.config.${String(p.path ?? "")}`,
        message: p.message,
      }));
      throw new ApiError(422, "invalid_request", `body.config: ${error.message}`, details);
    }
    throw error;
  }
}

const encodeCursor = (offset: number) => Buffer.from(String(offset)).toString("base64url");
function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = Number(Buffer.from(cursor, "base64url").toString());
  if (!Number.isInteger(offset) || offset < 0)
    throw new ApiError(
      400,
      "bad_cursor",
      "query.cursor: not a cursor this server gave; start again without it",
    );
  return offset;
}

function summaryRow(result: VerificationResult) {
  const { metadata } = result;
  return {
    result_id: metadata.result_id,
    question_id: metadata.question_id,
    answering: metadata.answering,
    parsing: metadata.parsing,
    replicate: metadata.replicate ?? null,
    passed: metadata.failure == null && result.template?.verify_result === true,
    verify_result: result.template?.verify_result ?? null,
    failure_category: metadata.failure?.category ?? null,
  };
}

/**
 * The export header's `job_summary` (spec 06 §2.1) from the job: its planned task count and counts, its times,
 * and `is_complete` false unless it completed (a cancelled or interrupted job's export is partial).
 */
function exportSummaryOf(job: JobView) {
  const end = job.finished_at === null ? null : Date.parse(job.finished_at) / 1000;
  return {
    total_questions: job.total,
    successful_count: job.successful,
    failed_count: job.failed,
    start_time: job.start_time,
    end_time: end,
    is_complete: job.status === "completed",
  };
}

/**
 * Refuses (422, before anything is queued or saved) a job that could verify nothing: a requested question id the
 * benchmark lacks, or no finished question among those selected (the original's "empty templates" and "no
 * requested id present").
 */
function refuseEmptySelection(benchmark: Benchmark, questionIds: readonly string[] | undefined): void {
  if (benchmark.isScenarioBenchmark) {
    refuseScenarioSelection(benchmark, questionIds);
    return;
  }
  const unknown = (questionIds ?? []).filter((id) => !benchmark.has(id));
  if (unknown.length > 0)
    throw new ApiError(
      422,
      "invalid_request",
      `body.question_ids: ${unknown.map((id) => JSON.stringify(id)).join(", ")} not in benchmark ${JSON.stringify(benchmark.name)}; use ids of its questions`,
    );
  const selected = questionIds ?? benchmark.getQuestionIds();
  if (!selected.some((id) => benchmark.isFinished(id)))
    throw new ApiError(
      422,
      "invalid_request",
      `body: benchmark ${JSON.stringify(benchmark.name)} has no finished question to verify${questionIds === undefined ? "" : " among body.question_ids"}; finish questions (with their templates) first`,
    );
}

/** A scenario benchmark runs every scenario: question ids do not apply, and it needs at least one scenario. */
function refuseScenarioSelection(benchmark: Benchmark, questionIds: readonly string[] | undefined): void {
  if (questionIds !== undefined)
    throw new ApiError(
      422,
      "invalid_request",
      `body.question_ids: benchmark ${JSON.stringify(benchmark.name)} holds scenarios, not questions; leave question_ids out to run every scenario`,
    );
  if (benchmark.getScenarios().length === 0)
    throw new ApiError(
      422,
      "invalid_request",
      `body: benchmark ${JSON.stringify(benchmark.name)} has no scenario to run; add scenarios first`,
    );
}

async function requireJob(runner: JobRunner, id: string): Promise<JobView> {
  const view = await runner.get(id);
  if (view === null || view.kind !== VERIFICATION_JOB) throw jobNotFound(id);
  return view;
}

/** The scenario records of a job (none for a job of questions), from its run log. */
async function scenarioResultsOfJob(runner: JobRunner, jobId: string) {
  const dir = runner.jobDir(jobId);
  return (await jobScenarios(dir, runLogOfJob(dir))).scenario_results;
}

/** Verification jobs (spec 07 §2.2, §2.4): start, list, progress, results by cursor, export, cancel, resume, streams. */
export const verificationRoutes: RouteGroup = (app, deps, hooks) => {
  const runner = jobRunnerOf(deps, hooks);
  const fleet = deps.fleet ?? null;
  runner.register(fleet === null ? verificationJobKind(deps.env) : fleetVerificationJobKind(fleet, deps.env));
  // A fleet's jobs a stopped server left are followed again at start, not at the first request (once every
  // route group has registered its kinds).
  if (fleet !== null) setImmediate(() => void runner.recover().catch(() => undefined));

  app.openapi(route.start, async (c) => {
    const body = c.req.valid("json");
    if ((body.benchmark_name === undefined) === (body.checkpoint === undefined))
      throw new ApiError(
        422,
        "invalid_request",
        "body: give exactly one of benchmark_name (stored) or checkpoint (JSON-LD)",
      );
    const config = configOf(body.config, deps.env);
    let benchmark: Benchmark;
    if (body.checkpoint !== undefined) {
      benchmark = Benchmark.parse(JSON.stringify(body.checkpoint), { file: "body.checkpoint" });
      refuseEmptySelection(benchmark, body.question_ids);
      await deps.storage.saveBenchmark(benchmark);
    } else {
      try {
        benchmark = await deps.storage.loadBenchmark(body.benchmark_name as string);
      } catch (error) {
        if (error instanceof StorageNotFoundError)
          throw ApiError.notFound(`benchmark ${JSON.stringify(body.benchmark_name)}`);
        throw error;
      }
      refuseEmptySelection(benchmark, body.question_ids);
    }
    const runName = body.run_name ?? defaultRunName();
    if (fleet !== null && benchmark.isScenarioBenchmark)
      throw new ApiError(
        422,
        "invalid_request",
        `body: benchmark ${JSON.stringify(benchmark.name)} holds scenarios, which a fleet of workers does not run yet; serve without --distributed to run them`,
      );
    if (fleet !== null && (await fleet.fleet.runs.progress(runName)) !== null)
      throw new ApiError(
        409,
        "run_exists",
        `body.run_name: the fleet of ${fleet.fleet.database} already has a run ${JSON.stringify(runName)}; choose another run name`,
      );
    const input: VerificationJobInput = {
      benchmark_name: benchmark.name,
      run_name: runName,
      question_ids: body.question_ids ?? null,
      config: dumpVerificationConfig(config),
    };
    const id = crypto.randomUUID();
    await prepareVerificationJob(runner.jobDir(id), benchmark, body.config);
    const job = await runner.start(VERIFICATION_JOB, input, { id });
    return c.json(
      {
        success: true as const,
        job_id: job.job_id,
        run_name: runName,
        status: job.status,
        message: "verification job queued",
      },
      202,
    );
  });

  app.openapi(route.list, async (c) => {
    const query = c.req.valid("query");
    const { items, total } = await runner.list({ kind: VERIFICATION_JOB, ...query });
    return c.json({ items, page: query.page, page_size: query.page_size, total }, 200);
  });

  app.openapi(route.progress, async (c) =>
    c.json(await requireJob(runner, c.req.valid("param").job_id), 200),
  );

  app.openapi(route.results, async (c) => {
    const job = await requireJob(runner, c.req.valid("param").job_id);
    const query = c.req.valid("query");
    const offset = decodeCursor(query.cursor);
    if (job.run_id === null) return c.json({ items: [], next_cursor: null, total: 0 }, 200);
    // Summary fields are all in the rows' digests: a page of them parses a fraction of the full rows' JSON.
    const page = { runId: job.run_id, limit: query.limit, offset };
    const [rows, total] = await Promise.all([
      query.fields === "summary"
        ? deps.storage.loadResultDigestPage(page).then(({ digests }) => digests)
        : deps.storage.loadResults(page),
      deps.storage.countResults({ runId: job.run_id }),
    ]);
    const next = offset + rows.length;
    const scenarios = query.cursor === undefined ? await scenarioResultsOfJob(runner, job.job_id) : [];
    return c.json(
      {
        items: query.fields === "summary" ? rows.map(summaryRow) : rows,
        next_cursor: rows.length === query.limit && next < total ? encodeCursor(next) : null,
        total,
        ...(scenarios.length === 0 ? {} : { scenario_results: scenarios }),
      },
      200,
    );
  });

  app.openapi(route.result, async (c) => {
    const { job_id, result_id } = c.req.valid("param");
    const job = await requireJob(runner, job_id);
    const [row] =
      job.run_id === null
        ? []
        : await deps.storage.loadResults({ runId: job.run_id, resultIds: [result_id] });
    if (row === undefined) throw ApiError.notFound(`result ${JSON.stringify(result_id)} of job ${job_id}`);
    return c.json(row, 200);
  });

  app.openapi(route.export, async (c) => {
    const job = await requireJob(runner, c.req.valid("param").job_id);
    if (job.status === "pending" || job.status === "running")
      throw new ApiError(
        409,
        "job_not_finished",
        `job ${job.job_id} is ${job.status}; export it once it has finished or been cancelled`,
      );
    const rows = job.run_id === null ? [] : await deps.storage.loadResults({ runId: job.run_id });
    if (rows.length === 0)
      throw new ApiError(
        409,
        "no_results",
        `job ${job.job_id} is ${job.status} without any result; there is nothing to export`,
      );
    const models = await exportModelsOfJob(deps.storage, job.job_id);
    const metadata = {
      job_id: job.job_id,
      ...(models === undefined ? {} : { verification_config: models }),
      job_summary: exportSummaryOf(job),
    };
    const fmt = c.req.valid("query").fmt;
    c.header("content-disposition", `attachment; filename="${exportFilename(models, fmt)}"`);
    if (fmt === "csv")
      return c.body(exportResultsCsv(rows, { metadata }), 200, { "content-type": "text/csv; charset=utf-8" });
    const scenarioResults = await scenarioResultsOfJob(runner, job.job_id);
    const scenarios = scenarioResults.length === 0 ? {} : { scenarioResults };
    return c.body(exportResultsJson(rows, { metadata, ...scenarios }), 200, {
      "content-type": "application/json",
    });
  });

  app.openapi(route.cancel, async (c) => {
    const id = c.req.valid("param").job_id;
    await requireJob(runner, id);
    return c.json(await runner.cancel(id), 200);
  });

  app.openapi(route.resume, async (c) => {
    const id = c.req.valid("param").job_id;
    await requireJob(runner, id);
    return c.json(await runner.resume(id), 202);
  });

  app.openapi(route.summary, async (c) => {
    const body = c.req.valid("json");
    const refs = referencesOf(body);
    const storage = storageOfReferences(connectionsOf(deps), body.db, refs);
    const { summary, result_count } = await summarizeByReference(storage, runner, refs);
    return c.json({ success: true as const, summary, result_count }, 200);
  });

  app.openapi(route.compare, async (c) => {
    const body = c.req.valid("json");
    const [before, after] = referencesOf(body) as [ResultReference, ResultReference];
    const compared = await compareByReference(deps.storage, runner, before, after, body.models);
    return c.json(
      {
        success: true as const,
        before: { ...before, result_count: compared.before_count },
        after: { ...after, result_count: compared.after_count },
        comparison: compared.comparison,
      },
      200,
    );
  });

  mountScenarioRoutes(app, runner);

  mountProgressStreams(app, hooks, runner, {
    wsPath: "/ws/verification-progress/:job_id",
    ssePath: "/api/v2/verifications/:job_id/events",
    tag: "verification",
  });
};
