import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { Benchmark } from "../../benchmark/index.js";
import { DataFeedItemSchema, DataFeedSchema } from "../../checkpoint/index.js";
import type { Storage } from "../../storage/index.js";
import {
  ApiError,
  errorResponses,
  jsonContent,
  PageQuerySchema,
  pageOf,
  pageSchema,
  type RouteGroup,
} from "../core/index.js";
import { connectionsOf, DbQuerySchema, libraryCall } from "../databases/index.js";

export const BenchmarkSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    version: z.string().nullable(),
    creator: z.string().nullable(),
    total_questions: z.number().int(),
    finished_count: z.number().int(),
    unfinished_count: z.number().int(),
    scenario_count: z
      .number()
      .int()
      .describe("Scenarios of a scenario benchmark (spec 08 §2.13), whose total_questions is 0"),
    created_at: z.string(),
    last_modified: z.string(),
  })
  .meta({ id: "StoredBenchmark" });

export const StoredCheckpointSchema = z
  .object({
    name: z.string(),
    checkpoint: DataFeedSchema.describe(
      "The whole JSON-LD checkpoint: every item as saved (author, sources, ...)",
    ),
  })
  .meta({ id: "StoredCheckpoint" });

export const CreateBenchmarkSchema = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  version: z.string().max(50).default("1.0.0"),
  creator: z.string().max(200).default("Unknown"),
});

const SaveBenchmarkSchema = z.object({
  checkpoint: DataFeedSchema.describe(
    "The benchmark's checkpoint; its questions become exactly the stored ones",
  ),
  detect_duplicates: z
    .boolean()
    .default(false)
    .describe("Only list the questions stored with other content; write nothing"),
});

const DuplicateSchema = z
  .object({
    question_id: z.string(),
    question_text: z.string(),
    old_version: DataFeedItemSchema,
    new_version: DataFeedItemSchema,
  })
  .meta({ id: "DuplicateQuestion" });

const SavedSchema = z.object({
  name: z.string(),
  question_count: z.number().int(),
  scenario_count: z.number().int().describe("More than 0 for a scenario benchmark"),
  last_modified: z.string().describe("UTC ISO-8601"),
});

const MergeSchema = z.object({
  checkpoint: DataFeedSchema,
  resolutions: z
    .record(z.string(), z.enum(["keep_old", "keep_new"]))
    .default({})
    .describe("Per duplicate question id; a missing one keeps the new version"),
});

const ImportResultsSchema = z.object({
  results_export: z
    .record(z.string(), z.unknown())
    .describe("A JSON results export (format 2.0 to 2.2), as `karenina verify --output x.json` writes it"),
  run_name: z.string().min(1).max(200).optional(),
  source_filename: z.string().max(300).optional(),
});

const NameParamsSchema = z.object({ name: z.string().min(1) });

const route = createRoute;

const listRoute = route({
  method: "get",
  path: "/api/v2/benchmarks",
  tags: ["benchmarks"],
  summary: "Stored benchmarks with question (or scenario) counts, by name",
  request: { query: DbQuerySchema.extend(PageQuerySchema.shape) },
  responses: {
    200: jsonContent(pageSchema(BenchmarkSummarySchema), "A page of benchmarks"),
    ...errorResponses(404, 422),
  },
});

const createBenchmark = route({
  method: "post",
  path: "/api/v2/benchmarks",
  tags: ["benchmarks"],
  summary: "Creates an empty benchmark",
  request: {
    query: DbQuerySchema,
    body: { ...jsonContent(CreateBenchmarkSchema, "Its metadata"), required: true },
  },
  responses: { 201: jsonContent(StoredCheckpointSchema, "Created"), ...errorResponses(404, 409, 422) },
});

const getBenchmark = route({
  method: "get",
  path: "/api/v2/benchmarks/{name}",
  tags: ["benchmarks"],
  summary: "A stored benchmark as its full checkpoint",
  request: { params: NameParamsSchema, query: DbQuerySchema },
  responses: { 200: jsonContent(StoredCheckpointSchema, "The checkpoint"), ...errorResponses(404, 422) },
});

const saveBenchmark = route({
  method: "put",
  path: "/api/v2/benchmarks/{name}",
  tags: ["benchmarks"],
  summary: "Saves a benchmark: its stored questions become exactly those sent, in one transaction",
  request: {
    params: NameParamsSchema,
    query: DbQuerySchema,
    body: { ...jsonContent(SaveBenchmarkSchema, "The checkpoint"), required: true },
  },
  responses: {
    200: jsonContent(
      z.union([SavedSchema, z.object({ duplicates: z.array(DuplicateSchema) })]),
      "Saved, or (detect_duplicates) the duplicates",
    ),
    ...errorResponses(404, 422),
  },
});

const resolveDuplicates = route({
  method: "post",
  path: "/api/v2/benchmarks/{name}/duplicates",
  tags: ["benchmarks"],
  summary: "Merges questions into a stored benchmark, keeping the old or new version of each duplicate",
  request: {
    params: NameParamsSchema,
    query: DbQuerySchema,
    body: { ...jsonContent(MergeSchema, "The questions and the resolutions"), required: true },
  },
  responses: {
    200: jsonContent(
      SavedSchema.extend({ kept_old_count: z.number().int(), kept_new_count: z.number().int() }),
      "Merged and saved",
    ),
    ...errorResponses(404, 422),
  },
});

const deleteBenchmark = route({
  method: "delete",
  path: "/api/v2/benchmarks/{name}",
  tags: ["benchmarks"],
  summary: "Deletes a benchmark with its verification runs",
  request: { params: NameParamsSchema, query: DbQuerySchema },
  responses: {
    200: jsonContent(
      z.object({ deleted_questions: z.number().int(), deleted_runs: z.number().int() }),
      "Deleted",
    ),
    ...errorResponses(404, 422),
  },
});

const importResults = route({
  method: "post",
  path: "/api/v2/benchmarks/{name}/results",
  tags: ["benchmarks"],
  summary: "Imports a JSON results export into a new run of the benchmark",
  request: {
    params: NameParamsSchema,
    query: DbQuerySchema,
    body: { ...jsonContent(ImportResultsSchema, "The export"), required: true },
  },
  responses: {
    201: jsonContent(
      z.object({
        run_id: z.string(),
        run_name: z.string(),
        imported_count: z.number().int(),
        skipped_count: z.number().int().describe("Rows of questions the benchmark does not hold"),
      }),
      "Imported",
    ),
    ...errorResponses(404, 422),
  },
});

/**
 * The checkpoint a client sent, checked as a checkpoint file is (nesting, `__proto__` keys, schema) and named as
 * the path says. It reads the raw body, not the schema's output: a parsed copy would have silently dropped keys
 * such as `__proto__` that must be refused.
 */
async function benchmarkFromClient(c: Context, name: string): Promise<Benchmark> {
  const raw = (await c.req.json()) as { checkpoint?: unknown };
  const bench = await libraryCall(async () =>
    Benchmark.parse(JSON.stringify(raw.checkpoint), { file: "body.checkpoint" }),
  );
  bench.name = name;
  return bench;
}

async function savedAnswer(storage: Storage, bench: Benchmark) {
  const saved = await storage.saveBenchmark(bench);
  const stored = (await storage.listBenchmarks()).find((b) => b.name === saved.name);
  return {
    name: saved.name,
    question_count: saved.questionCount,
    scenario_count: saved.scenarioCount,
    last_modified: stored?.updatedAt ?? "",
  };
}

/** Benchmarks in a database: list, create, get, save, merge duplicates, delete, import results (spec 07 §2.2). */
export const benchmarkRoutes: RouteGroup = (app, deps) => {
  const connections = connectionsOf(deps);

  app.openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
    const stored = await libraryCall(() => connections.storage(query.db).listBenchmarks());
    const items = stored.map((b) => ({
      id: b.id,
      name: b.name,
      description: b.description,
      version: b.version,
      creator: b.creator,
      total_questions: b.questionCount,
      finished_count: b.finishedCount,
      unfinished_count: b.questionCount - b.finishedCount,
      scenario_count: b.scenarioCount,
      created_at: b.createdAt,
      last_modified: b.updatedAt,
    }));
    return c.json(pageOf(items, query), 200);
  });

  app.openapi(createBenchmark, async (c) => {
    const storage = connections.storage(c.req.valid("query").db);
    const body = c.req.valid("json");
    const exists = (await libraryCall(() => storage.listBenchmarks())).some((b) => b.name === body.name);
    if (exists) throw ApiError.conflict(`benchmark ${JSON.stringify(body.name)} exists`);
    const bench = Benchmark.create({
      name: body.name,
      version: body.version,
      creator: body.creator,
      ...(body.description === undefined ? {} : { description: body.description }),
    });
    await libraryCall(() => storage.saveBenchmark(bench));
    return c.json(
      { name: bench.name, checkpoint: bench.toCheckpoint({ saveDeepJudgmentConfig: true }) },
      201,
    );
  });

  app.openapi(getBenchmark, async (c) => {
    const { name } = c.req.valid("param");
    const storage = connections.storage(c.req.valid("query").db);
    const bench = await libraryCall(() => storage.loadBenchmark(name));
    return c.json({ name, checkpoint: bench.toCheckpoint({ saveDeepJudgmentConfig: true }) }, 200);
  });

  app.openapi(saveBenchmark, async (c) => {
    const { name } = c.req.valid("param");
    const storage = connections.storage(c.req.valid("query").db);
    const body = c.req.valid("json");
    const bench = await benchmarkFromClient(c, name);
    if (body.detect_duplicates) {
      const duplicates = await libraryCall(() => storage.findDuplicates(bench));
      return c.json(
        {
          duplicates: duplicates.map((d) => ({
            question_id: d.questionId,
            question_text: d.questionText,
            old_version: d.oldVersion,
            new_version: d.newVersion,
          })),
        },
        200,
      );
    }
    return c.json(await libraryCall(() => savedAnswer(storage, bench)), 200);
  });

  app.openapi(resolveDuplicates, async (c) => {
    const { name } = c.req.valid("param");
    const storage = connections.storage(c.req.valid("query").db);
    const body = c.req.valid("json");
    const bench = await benchmarkFromClient(c, name);
    const merged = await libraryCall(() => storage.mergeIntoStored(bench, body.resolutions));
    const saved = await libraryCall(() => savedAnswer(storage, merged.benchmark));
    return c.json({ ...saved, kept_old_count: merged.keptOld, kept_new_count: merged.keptNew }, 200);
  });

  app.openapi(deleteBenchmark, async (c) => {
    const { name } = c.req.valid("param");
    const storage = connections.storage(c.req.valid("query").db);
    const deleted = await libraryCall(() => storage.deleteBenchmark(name));
    return c.json({ deleted_questions: deleted.deletedQuestions, deleted_runs: deleted.deletedRuns }, 200);
  });

  app.openapi(importResults, async (c) => {
    const { name } = c.req.valid("param");
    const storage = connections.storage(c.req.valid("query").db);
    const body = c.req.valid("json");
    const outcome = await libraryCall(() =>
      storage.importVerificationResults(body.results_export, {
        benchmarkName: name,
        ...(body.run_name === undefined ? {} : { runName: body.run_name }),
        ...(body.source_filename === undefined ? {} : { sourceFilename: body.source_filename }),
      }),
    );
    return c.json(
      {
        run_id: outcome.runId,
        run_name: outcome.runName,
        imported_count: outcome.imported,
        skipped_count: outcome.skipped,
      },
      201,
    );
  });
};
