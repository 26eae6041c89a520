import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { RubricSchema, rubricTraitNames, validateRubricForReadiness } from "../../model/index.js";
import { errorResponses, jsonContent, type RouteGroup } from "../core/index.js";

export const RubricValidationRequestSchema = z
  .object({ rubric: RubricSchema.describe("A rubric as a checkpoint stores it (spec 03 §6)") })
  .meta({ id: "RubricValidationRequest" });

export const RubricValidationSchema = z
  .object({
    rubric: z.record(z.string(), z.unknown()).describe("The rubric as the library reads it, defaults filled"),
    trait_names: z.array(z.string()),
    readiness_errors: z
      .array(z.object({ source: z.string(), error: z.string() }))
      .describe("What would keep a run from using it (spec 01 §4.9); empty when ready"),
  })
  .meta({ id: "RubricValidation" });

const validation = createRoute({
  method: "post",
  path: "/api/v2/rubrics/validation",
  tags: ["rubrics"],
  summary: "Check a rubric with the checkpoint's own schema, without storing it anywhere",
  description:
    'There is no server-wide "current rubric" (spec 07 §2.5): the global rubric travels inside each verification request and is saved with its benchmark. This route only checks one, with the same schema the checkpoint uses (literal classes, higher_is_better and deep-judgment settings kept).',
  request: { body: { ...jsonContent(RubricValidationRequestSchema, "The rubric"), required: true } },
  responses: { 200: jsonContent(RubricValidationSchema, "The rubric is valid"), ...errorResponses(422) },
});

/** Rubrics (spec 07 §2.2) without the original's process-wide singleton: validation only. */
export const rubricRoutes: RouteGroup = (app) => {
  app.openapi(validation, (c) => {
    const { rubric } = c.req.valid("json");
    return c.json(
      {
        rubric,
        trait_names: rubricTraitNames(rubric),
        readiness_errors: validateRubricForReadiness(rubric, "global"),
      },
      200,
    );
  });
};
