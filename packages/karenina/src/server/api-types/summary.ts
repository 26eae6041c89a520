// The request and response types of the web app's summary and comparison panel, inferred from the route schemas.
import type { z } from "zod";
import type { CompareModelsRequestSchema, CompareModelsResponseSchema } from "../routes/model-comparison.js";
import type { SummaryRequestSchema, SummaryResponseSchema } from "../routes/verifications.js";

/** `POST /api/v2/verifications/summary` body. */
export type ApiSummaryRequest = z.input<typeof SummaryRequestSchema>;
/** Its response; `summary` is a `ResultSummary` (typed as unknown by the schema). */
export type ApiSummaryResponse = z.infer<typeof SummaryResponseSchema>;
/** `POST /api/v2/verifications/compare-models` body. */
export type ApiCompareModelsRequest = z.input<typeof CompareModelsRequestSchema>;
/** Its response; `model_summaries` values are `ResultSummary`. */
export type ApiCompareModelsResponse = z.infer<typeof CompareModelsResponseSchema>;
