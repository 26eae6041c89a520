import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { importResultsAsRun, parseResultsText } from "../../run-import/index.js";
import { errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import { connectionsOf, DbQuerySchema, libraryCall } from "../databases/index.js";

export const RunImportRequestSchema = z
  .object({
    content: z.string().min(1).describe("The file's text: a .jsonl run log or a .json results export"),
    filename: z
      .string()
      .min(1)
      .max(300)
      .regex(/\.jsonl?$/i, "expected a .jsonl or .json file name")
      .describe("Its name: the extension says the format; the name becomes the new benchmark's"),
    run_name: z.string().min(1).max(200).optional(),
  })
  .meta({ id: "RunImportRequest" });

export const RunImportedSchema = z
  .object({
    run_id: z.string(),
    run_name: z.string(),
    benchmark_name: z.string().describe("The new benchmark holding the results' questions"),
    imported_count: z.number().int(),
  })
  .meta({ id: "RunImported" });

const importRun = createRoute({
  method: "post",
  path: "/api/v2/verification-runs/imports",
  tags: ["stored runs"],
  summary:
    "Stores a results file (run log or export) as an imported run, under a new benchmark of its questions",
  request: {
    query: DbQuerySchema,
    body: { ...jsonContent(RunImportRequestSchema, "The file"), required: true },
  },
  responses: { 201: jsonContent(RunImportedSchema, "Imported"), ...errorResponses(404, 413, 422) },
});

/** Results files uploaded to be viewed: stored as runs the results view opens (spec 07 §1.6 upload, §1.7). */
export const runImportRoutes: RouteGroup = (app, deps) => {
  const connections = connectionsOf(deps);
  app.openapi(importRun, async (c) => {
    const storage = connections.storage(c.req.valid("query").db);
    const body = c.req.valid("json");
    const imported = await libraryCall(async () =>
      importResultsAsRun(storage, parseResultsText(body.content, body.filename), {
        benchmarkName: body.filename,
        sourceFilename: body.filename,
        ...(body.run_name === undefined ? {} : { runName: body.run_name }),
      }),
    );
    return c.json(
      {
        run_id: imported.runId,
        run_name: imported.runName,
        benchmark_name: imported.benchmarkName,
        imported_count: imported.imported,
      },
      201,
    );
  });
};
