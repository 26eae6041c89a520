import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  FACET_LIMIT,
  FACET_NAMES,
  ResultTableFilterSchema,
  ResultTableRowSchema,
  ResultTableSortSchema,
} from "../../result-table/index.js";
import {
  exportResultsCsvChunks,
  exportResultsJsonChunks,
  type VerificationResult,
  VerificationResultSchema,
} from "../../results/index.js";
import type { Storage } from "../../storage/index.js";
import {
  ApiError,
  errorResponses,
  jsonContent,
  PageQuerySchema,
  pageSchema,
  type RouteGroup,
} from "../core/index.js";
import { connectionsOf, DbQuerySchema, libraryCall } from "../databases/index.js";
import { ResultTableCache } from "../results-table/index.js";
import { VERIFICATION_JOB } from "../verification/index.js";

// The results view's table (spec 07 §1.6, §3): pages of table rows of some stored runs, filtered and sorted on
// the server, the filters' options as facets, one full result for the detail view, and the filtered rows
// exported.

const runIds = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(z.string().min(1)).min(1).max(50))
  .describe("The stored runs shown (repeat for several)");

/** `?db&run_id…` of every table route. */
const SourceQuerySchema = DbQuerySchema.extend({ run_id: runIds });

export const ResultTableQuerySchema = SourceQuerySchema.extend(ResultTableFilterSchema.shape)
  .extend(ResultTableSortSchema.shape)
  .extend(PageQuerySchema.shape);

export const ResultTablePageSchema = pageSchema(ResultTableRowSchema)
  .extend({ source_total: z.number().int().describe("Rows of the runs before filtering") })
  .meta({ id: "ResultTablePage" });

const FacetValueSchema = z.object({ value: z.string(), count: z.number().int() });

export const ResultTableFacetsSchema = z
  .object({
    total: z.number().int().describe("Rows of the runs"),
    facets: z
      .object(
        Object.fromEntries(FACET_NAMES.map((name) => [name, z.array(FacetValueSchema)])) as Record<
          (typeof FACET_NAMES)[number],
          z.ZodArray<typeof FacetValueSchema>
        >,
      )
      .describe(`Each filter's values, most frequent first: at most ${FACET_LIMIT}`),
    omitted: z
      .object(
        Object.fromEntries(FACET_NAMES.map((name) => [name, z.number().int()])) as Record<
          (typeof FACET_NAMES)[number],
          z.ZodNumber
        >,
      )
      .describe("How many distinct values of each filter were left out (the least frequent)"),
  })
  .meta({ id: "ResultTableFacets" });

export const ResultExportQuerySchema = SourceQuerySchema.extend(ResultTableFilterSchema.shape)
  .extend(ResultTableSortSchema.shape)
  .extend({ format: z.enum(["json", "csv"]).default("json") });

const ResultDetailQuerySchema = DbQuerySchema.extend({
  run_id: z
    .string()
    .optional()
    .describe("The run holding the result (when several runs hold that result id)"),
});

const tags = ["results table"];

const route = {
  page: createRoute({
    method: "get",
    path: "/api/v2/results",
    tags,
    summary: "A page of results-table rows of stored runs, filtered and sorted",
    request: { query: ResultTableQuerySchema },
    responses: {
      200: jsonContent(ResultTablePageSchema, "A page of rows; total counts the filtered rows"),
      ...errorResponses(404, 422),
    },
  }),
  facets: createRoute({
    method: "get",
    path: "/api/v2/results/facets",
    tags,
    summary: "The values of each multi-select filter over the runs' rows, with counts",
    request: { query: SourceQuerySchema },
    responses: { 200: jsonContent(ResultTableFacetsSchema, "Facets"), ...errorResponses(404, 422) },
  }),
  export: createRoute({
    method: "get",
    path: "/api/v2/results/export",
    tags,
    summary: "The filtered rows as the JSON (v2.2) or CSV export, as a download",
    request: { query: ResultExportQuerySchema },
    responses: {
      200: {
        description: "The export file",
        content: { "application/json": { schema: z.any() }, "text/csv": { schema: z.string() } },
      },
      ...errorResponses(404, 422),
    },
  }),
  detail: createRoute({
    method: "get",
    path: "/api/v2/results/{result_id}",
    tags,
    summary: "One stored result, whole (the detail view)",
    request: { params: z.object({ result_id: z.string().min(1).max(200) }), query: ResultDetailQuerySchema },
    responses: { 200: jsonContent(VerificationResultSchema, "The result"), ...errorResponses(404, 422) },
  }),
};

/** Rows loaded per query when exporting. */
const EXPORT_CHUNK = 500;

/**
 * The whole results of table rows (by result id, within the runs), in the rows' order, read a chunk at a time:
 * the export holds one chunk, not every result.
 */
async function* wholeResults(
  storage: Storage,
  runs: readonly string[],
  resultIds: readonly string[],
): AsyncGenerator<VerificationResult> {
  for (let start = 0; start < resultIds.length; start += EXPORT_CHUNK) {
    const slice = resultIds.slice(start, start + EXPORT_CHUNK);
    const byId = new Map<string, VerificationResult>();
    for (const runId of runs)
      for (const result of await storage.loadResults({ runId, resultIds: slice }))
        if (!byId.has(result.metadata.result_id)) byId.set(result.metadata.result_id, result);
    for (const id of slice) {
      const result = byId.get(id);
      if (result !== undefined) yield result;
    }
  }
}

/**
 * A response body written as the chunks come (and only as fast as the client reads). The first chunk is read
 * before the response starts, so a failure reading the rows is still an error response; a later one aborts
 * the transfer (the client sees a truncated download, not a complete-looking file).
 */
async function streamedBody(chunks: AsyncGenerator<string>): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const first = await chunks.next();
  let pending: IteratorResult<string> | null = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await chunks.next());
        pending = null;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/**
 * The run ids the database holds. A verification job started but not yet running has no run row yet (its run
 * id is its job id): its table is empty, not missing, so a page that opens a job's results at once gets no 404.
 * Other unknown run ids are refused (a 404 naming them, not an empty table).
 */
async function storedRuns(storage: Storage, runs: readonly string[]): Promise<string[]> {
  const stored: string[] = [];
  const missing: string[] = [];
  for (const runId of runs) {
    if ((await storage.getRun(runId)) !== null) stored.push(runId);
    else if (!(await isStartingJob(storage, runId))) missing.push(runId);
  }
  if (missing.length > 0)
    throw ApiError.notFound(`stored run ${missing.map((id) => JSON.stringify(id)).join(", ")}`);
  return stored;
}

async function isStartingJob(storage: Storage, runId: string): Promise<boolean> {
  const job = await storage.getJob(runId);
  return (
    job !== null && job.kind === VERIFICATION_JOB && (job.status === "pending" || job.status === "running")
  );
}

const emptyFacets = () => ({
  total: 0,
  facets: Object.fromEntries(FACET_NAMES.map((name) => [name, []])) as Record<
    (typeof FACET_NAMES)[number],
    []
  >,
  omitted: Object.fromEntries(FACET_NAMES.map((name) => [name, 0])) as Record<
    (typeof FACET_NAMES)[number],
    0
  >,
});

/** The results table routes (spec 07 §1.6 "Table"). */
export const resultsExplorerRoutes: RouteGroup = (app, deps) => {
  const connections = connectionsOf(deps);
  const cache = new ResultTableCache();

  app.openapi(route.facets, async (c) => {
    const query = c.req.valid("query");
    const storage = connections.storage(query.db);
    const out = await libraryCall(async () => {
      const runs = await storedRuns(storage, query.run_id);
      return runs.length === 0 ? emptyFacets() : cache.facets(query.db, storage, runs);
    });
    return c.json(out, 200);
  });

  app.openapi(route.export, async (c) => {
    const { db, run_id, format, sort, order, ...filter } = c.req.valid("query");
    const storage = connections.storage(db);
    const metadata = { job_id: run_id.join("+") };
    const body = await libraryCall(async () => {
      const runs = await storedRuns(storage, run_id);
      const { rows } =
        runs.length === 0 ? { rows: [] } : await cache.select(db, storage, runs, filter, { sort, order });
      const ids = rows.map((row) => row.result_id);
      const read = () => wholeResults(storage, runs, ids);
      return streamedBody(
        format === "csv"
          ? exportResultsCsvChunks(read, { metadata })
          : exportResultsJsonChunks(read, { metadata }),
      );
    });
    const stamp = new Date().toISOString().replace(/\D/gu, "").slice(0, 14);
    c.header("content-disposition", `attachment; filename="results_${stamp}.${format}"`);
    return c.body(body, 200, {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json",
    });
  });

  app.openapi(route.page, async (c) => {
    const { db, run_id, sort, order, page, page_size, ...filter } = c.req.valid("query");
    const storage = connections.storage(db);
    const { items, total, sourceTotal } = await libraryCall(async () => {
      const runs = await storedRuns(storage, run_id);
      return runs.length === 0
        ? { items: [], total: 0, sourceTotal: 0 }
        : cache.page(db, storage, runs, filter, { sort, order }, page, page_size);
    });
    return c.json({ items: [...items], page, page_size, total, source_total: sourceTotal }, 200);
  });

  app.openapi(route.detail, async (c) => {
    const { result_id } = c.req.valid("param");
    const query = c.req.valid("query");
    const storage = connections.storage(query.db);
    const [row] = await libraryCall(() =>
      storage.loadResults({
        resultIds: [result_id],
        ...(query.run_id === undefined ? {} : { runId: query.run_id }),
        limit: 1,
      }),
    );
    if (row === undefined) throw ApiError.notFound(`result ${JSON.stringify(result_id)}`);
    return c.json(row, 200);
  });
};
