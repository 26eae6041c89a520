// The response and request types of the web app's database screens, inferred from the route schemas.
import type { z } from "zod";
import type { BenchmarkSummarySchema, CreateBenchmarkSchema } from "../routes/benchmarks.js";
import type { ConnectedSchema, ConnectionSchema, DatabaseListSchema } from "../routes/databases.js";
import type { RunImportedSchema, RunImportRequestSchema } from "../routes/run-imports.js";
import type { StoredRunSchema } from "../routes/stored-runs.js";

/** A named database connection (`GET /api/v2/databases/connections`). */
export type ApiDatabaseConnection = z.infer<typeof ConnectionSchema>;
/** The SQLite files of the database directory (`GET /api/v2/databases`). */
export type ApiDatabaseFiles = z.infer<typeof DatabaseListSchema>;
/** The answer of `POST /api/v2/databases/connections`. */
export type ApiConnected = z.infer<typeof ConnectedSchema>;
/** A stored benchmark with its question counts (`GET /api/v2/benchmarks`). */
export type ApiStoredBenchmark = z.infer<typeof BenchmarkSummarySchema>;
/** The body of `POST /api/v2/benchmarks`. */
export type ApiCreateBenchmark = z.input<typeof CreateBenchmarkSchema>;
/** A stored verification run (`GET /api/v2/verification-runs`). */
export type ApiStoredRun = z.infer<typeof StoredRunSchema>;
/** The body of `POST /api/v2/verification-runs/imports` (a results file to view). */
export type ApiRunImportRequest = z.input<typeof RunImportRequestSchema>;
/** Its answer. */
export type ApiRunImported = z.infer<typeof RunImportedSchema>;
