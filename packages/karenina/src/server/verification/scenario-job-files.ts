import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Benchmark } from "../../benchmark/index.js";
import {
  type ScenarioExecutionsSummary,
  type ScenarioResultRecord,
  ScenarioResultRecordSchema,
  summarizeScenarios,
} from "../../results/index.js";
import { type ScenarioGraphView, ScenarioGraphViewSchema, scenarioGraphView } from "./scenario-graph-view.js";
import { scenarioResultsOfRunLog } from "./scenario-job.js";

/** The graphs of a scenario job's benchmark, written at its start; no such file: the job verifies questions. */
const GRAPHS_FILE = "scenario-graphs.json";

/** Keeps the graphs of a scenario benchmark in its job's folder (nothing for a benchmark of questions). */
export async function writeScenarioGraphs(dir: string, benchmark: Benchmark): Promise<void> {
  if (!benchmark.isScenarioBenchmark) return;
  const graphs = benchmark.getScenarios().map(scenarioGraphView);
  await writeFile(join(dir, GRAPHS_FILE), JSON.stringify(graphs));
}

/** The graphs {@link writeScenarioGraphs} kept, or null for a job of questions. */
export async function readScenarioGraphs(dir: string): Promise<ScenarioGraphView[] | null> {
  const text = await readFile(join(dir, GRAPHS_FILE), "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  return text === null ? null : z.array(ScenarioGraphViewSchema).parse(JSON.parse(text));
}

const OutcomeSummarySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("boolean"), count: z.int(), passed: z.int(), pass_rate: z.number().nullable() }),
  z.object({ kind: z.literal("number"), count: z.int(), mean: z.number(), min: z.number(), max: z.number() }),
  z.object({ kind: z.literal("mixed"), count: z.int() }),
]);

/** What the executions of one scenario came to (`summarizeScenarios`). */
export const ScenarioExecutionsSummarySchema = z.object({
  scenario_id: z.string(),
  executions: z.int(),
  statuses: z.record(z.string(), z.int()),
  mean_turns: z.number(),
  outcomes: z.record(z.string(), OutcomeSummarySchema),
});
// The library's summary type and this schema are one shape: a change to either fails the typecheck here.
const SAME_SUMMARY: [ScenarioExecutionsSummary] extends [z.infer<typeof ScenarioExecutionsSummarySchema>]
  ? [z.infer<typeof ScenarioExecutionsSummarySchema>] extends [ScenarioExecutionsSummary]
    ? true
    : never
  : never = true;
void SAME_SUMMARY;

/** A job's scenarios: their graphs, one record per finished execution, and a summary per scenario. */
export const JobScenariosSchema = z
  .object({
    scenarios: z.array(ScenarioGraphViewSchema),
    scenario_results: z.array(ScenarioResultRecordSchema),
    summary: z.array(ScenarioExecutionsSummarySchema),
  })
  .meta({ id: "JobScenarios" });
export type JobScenarios = z.infer<typeof JobScenariosSchema>;

/**
 * The scenarios of the job whose folder is `dir` and whose run log is `runLog`: empty for a job of questions;
 * the records are built from the log's turn rows and execution lines (`scenarioRecordsFromRows`).
 */
export async function jobScenarios(dir: string, runLog: string): Promise<JobScenarios> {
  const scenarios = await readScenarioGraphs(dir);
  if (scenarios === null) return { scenarios: [], scenario_results: [], summary: [] };
  const records: ScenarioResultRecord[] = await scenarioResultsOfRunLog(runLog);
  return { scenarios, scenario_results: records, summary: summarizeScenarios(records) };
}
