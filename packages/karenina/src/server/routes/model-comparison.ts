import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  ModelComparisonError,
  ModelComparisonOptionsSchema,
  ModelComparisonSchema,
} from "../../results/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup } from "../core/index.js";
import { connectionsOf } from "../databases/index.js";
import { jobRunnerOf } from "../jobs/index.js";
import { compareModelsByReference, referencesOf, storageOfReferences } from "../verification/index.js";

export const CompareModelsRequestSchema = ModelComparisonOptionsSchema.extend({
  job_ids: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe("Verification jobs whose results to compare"),
  run_names: z.array(z.string().min(1)).min(1).optional().describe("Stored runs, by name"),
  run_ids: z.array(z.string().min(1)).min(1).optional().describe("Stored runs, by id"),
  db: z
    .string()
    .min(1)
    .optional()
    .describe("The database connection holding the runs (default: the server's own database)"),
}).meta({ id: "CompareModelsRequest" });

export const CompareModelsResponseSchema = ModelComparisonSchema.extend({
  success: z.literal(true),
  result_count: z.number().int().describe("Rows read from the references (before the filters)"),
}).meta({ id: "ModelComparison" });

const compareModels = createRoute({
  method: "post",
  path: "/api/v2/verifications/compare-models",
  tags: ["verification"],
  summary:
    "Answering models compared on stored results (per-model summaries, heatmap, token statistics), by reference",
  request: {
    body: jsonContent(
      CompareModelsRequestSchema,
      "The jobs or runs, the models, and optionally a judge and a replicate",
    ),
  },
  responses: {
    200: jsonContent(CompareModelsResponseSchema, "The comparison"),
    ...errorResponses(400, 404, 422),
  },
});

/**
 * `POST /api/v2/verifications/compare-models`: the original's model comparison (its `POST
 * /api/v2/verifications/compare`; ours is the run-vs-run comparison), computed from stored rows by reference
 * (spec 07 §2.4) instead of the client posting every row.
 */
export const modelComparisonRoutes: RouteGroup = (app, deps, hooks) => {
  const runner = jobRunnerOf(deps, hooks);
  const connections = connectionsOf(deps);
  app.openapi(compareModels, async (c) => {
    const { job_ids, run_names, run_ids, db, ...options } = c.req.valid("json");
    const refs = referencesOf({ job_ids, run_names, run_ids });
    const storage = storageOfReferences(connections, db, refs);
    try {
      const { comparison, result_count } = await compareModelsByReference(storage, runner, refs, options);
      return c.json({ success: true as const, ...comparison, result_count }, 200);
    } catch (error) {
      if (error instanceof ModelComparisonError) throw new ApiError(400, error.reason, error.message);
      throw error;
    }
  });
};
