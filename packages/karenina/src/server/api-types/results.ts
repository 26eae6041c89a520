// The response and request types of the web app's results screens, inferred from the route schemas.
import type { z } from "zod";
import type {
  ResultExportQuerySchema,
  ResultTableFacetsSchema,
  ResultTablePageSchema,
  ResultTableQuerySchema,
} from "../routes/results-explorer.js";

/** A page of `GET /api/v2/results`. */
export type ResultTablePage = z.infer<typeof ResultTablePageSchema>;
/** The body of `GET /api/v2/results/facets`. */
export type ResultTableFacetsResponse = z.infer<typeof ResultTableFacetsSchema>;
/** The query parameters of `GET /api/v2/results` (as sent: strings, repeatable). */
export type ResultTableQuery = z.input<typeof ResultTableQuerySchema>;
/** The query parameters of `GET /api/v2/results/export`. */
export type ResultExportQuery = z.input<typeof ResultExportQuerySchema>;
