// The request and response types of the rubric editor's validation, inferred from the route schemas.
import type { z } from "zod";
import type { RubricValidationRequestSchema, RubricValidationSchema } from "../routes/rubrics.js";

/** `POST /api/v2/rubrics/validation` body and answer. */
export type RubricValidationRequest = z.input<typeof RubricValidationRequestSchema>;
export type RubricValidation = z.infer<typeof RubricValidationSchema>;
