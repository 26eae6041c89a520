// The response and request types of the web app's run-setup screens, inferred from the route schemas.
import type { z } from "zod";
import type { ModelDefaultsSchema } from "../config/defaults-file.js";
import type { JobEventSchema, JobUsageTotalsSchema, TaskUsageSchema } from "../jobs/job-events.js";
import type { McpPresetSchema } from "../presets/index.js";
import type { StoredCheckpointSchema } from "../routes/benchmarks.js";
import type { ModelInterfaceSchema, ModelInterfacesSchema } from "../routes/interfaces.js";
import type { McpServerToolsSchema } from "../routes/mcp.js";
import type { PresetListItemSchema, PresetSchema } from "../routes/presets.js";
import type { TraceSetSchema } from "../routes/traces.js";
import type { JobViewSchema, StartedSchema, StartVerificationSchema } from "../routes/verifications.js";
import type { JobScenariosSchema, ScenarioGraphViewSchema } from "../verification/index.js";

/** `GET /api/v2/interfaces`. */
export type ModelInterfaces = z.infer<typeof ModelInterfacesSchema>;
export type ModelInterface = z.infer<typeof ModelInterfaceSchema>;
/** `GET /api/v2/config/defaults`. */
export type ModelDefaults = z.infer<typeof ModelDefaultsSchema>;
/** `GET /api/v2/benchmarks/{name}`. */
export type StoredCheckpoint = z.infer<typeof StoredCheckpointSchema>;
/** `POST /api/v2/verifications` body and answer. */
export type StartVerificationRequest = z.input<typeof StartVerificationSchema>;
export type StartedVerification = z.infer<typeof StartedSchema>;
/** `GET /api/v2/verifications/{job_id}/progress`, `DELETE /api/v2/verifications/{job_id}`. */
export type VerificationJobView = z.infer<typeof JobViewSchema>;
/** One event of `/ws/verification-progress/{job_id}` (or its SSE twin). */
export type JobStreamEvent = z.infer<typeof JobEventSchema>;
/** A job's running token and cost totals (`usage_totals` of its progress and events). */
export type JobUsageTotals = z.infer<typeof JobUsageTotalsSchema>;
/** A task's tokens (`usage` of a `task_completed` event). */
export type TaskTokens = z.infer<typeof TaskUsageSchema>;
/** `GET /api/v2/presets` items and `GET /api/v2/presets/{id}`. */
export type PresetListItem = z.infer<typeof PresetListItemSchema>;
export type StoredVerificationPreset = z.infer<typeof PresetSchema>;
/** An MCP server preset, and `POST /api/v2/mcp/servers/validation`'s answer. */
export type McpPreset = z.infer<typeof McpPresetSchema>;
export type McpServerTools = z.infer<typeof McpServerToolsSchema>;
/** `POST /api/v2/traces`. */
export type ManualTraceSet = z.infer<typeof TraceSetSchema>;
/** `GET /api/v2/verifications/{job_id}/scenarios`, `GET /api/v2/verification-runs/{run_id}/scenarios`. */
export type JobScenarios = z.infer<typeof JobScenariosSchema>;
/** One scenario's graph in a {@link JobScenarios}. */
export type ScenarioGraphDrawing = z.infer<typeof ScenarioGraphViewSchema>;
/** One execution's record in a {@link JobScenarios} (spec 08 §6.3). */
export type ScenarioExecutionRecord = JobScenarios["scenario_results"][number];
/** One scenario's summary in a {@link JobScenarios}. */
export type ScenarioSummary = JobScenarios["summary"][number];
