import { z } from "zod";

/** Execution statuses (spec 08 §2.11); `timeout` is read but never written (quirk Q2). */
export const ScenarioStatusSchema = z.enum(["completed", "limit_reached", "error", "timeout"]);

export const ScenarioTerminalFailureSchema = z.object({
  node_id: z.string(),
  category: z.string(),
  stage: z.string(),
  reason: z.string(),
});

/**
 * What a run log keeps of one scenario execution besides its turn rows (which precede it): the combo it ran
 * (quirk Q23: turns run by an override model keep their combo), its true status (Q29: `limit_reached` stays
 * so) and its evaluated outcomes (Q32). One JSON line `{"scenario_execution": {...}}` after the combo's rows.
 */
export const ScenarioExecutionSummarySchema = z.object({
  /** `<scenario>\t<ansKey>\t<parseKey>[\trep<N>]` of the base models (spec 08 §5.1 step 5). */
  combo_key: z.string(),
  scenario_id: z.string(),
  status: ScenarioStatusSchema,
  replicate: z.int().nullable(),
  path: z.array(z.string()),
  turn_count: z.int(),
  outcome_results: z.record(z.string(), z.union([z.boolean(), z.number(), z.null()])),
  terminal_failure: ScenarioTerminalFailureSchema.nullable(),
  /** `metadata.result_id` of the execution's turn rows, in turn order. */
  result_ids: z.array(z.string()),
});
export type ScenarioExecutionSummary = z.output<typeof ScenarioExecutionSummarySchema>;

export const ScenarioExecutionLineSchema = z.object({ scenario_execution: ScenarioExecutionSummarySchema });
export type ScenarioExecutionLine = z.output<typeof ScenarioExecutionLineSchema>;

/** Whether a run-log line is a scenario execution line (not a result row). */
export function isScenarioExecutionLine(value: unknown): value is ScenarioExecutionLine {
  return ScenarioExecutionLineSchema.safeParse(value).success;
}
