import type { Benchmark } from "../../benchmark/index.js";
import {
  type Env,
  finishedExecutions,
  readScenarioRunLog,
  ScenarioExecutionFailure,
  type ScenarioRunLog,
  type VerificationConfig,
} from "../../pipeline/index.js";
import { type ScenarioResultRecord, scenarioRecordsFromRows } from "../../results/index.js";
import { TurnQuestions } from "../../storage/index.js";
import type { JobContext } from "../jobs/index.js";
import { ResultSaver } from "./result-saver.js";
import { precomputeRunSummary } from "./run-summary.js";
import { taskUsage, UsageTotals } from "./task-usage.js";

/** A job's run log, empty when it is missing or unreadable (a job that has not started one). */
function jobRunLog(runLog: string): Promise<ScenarioRunLog> {
  return readScenarioRunLog(runLog).catch(() => ({ rows: [], executions: [] }));
}

/** The `scenario_results` records (spec 08 §6.3) of a scenario job's run log, in execution order. */
export async function scenarioResultsOfRunLog(runLog: string): Promise<ScenarioResultRecord[]> {
  const { rows, executions } = await jobRunLog(runLog);
  return scenarioRecordsFromRows(rows, executions);
}

/** The scenario of a combo key (`<scenario>\t<answering>\t<parsing>[\trep<N>]`). */
const scenarioOfCombo = (key: string) => key.split("\t")[0] ?? key;

/** A job task of an execution: its combo key, its scenario in place of a question, its replicate. */
const executionTask = (key: string, scenarioId: string, replicate: number | null) => ({
  key,
  question_id: scenarioId,
  replicate,
});

/**
 * A verification job of a scenario benchmark (spec 08 §5): every execution (scenario × models × replicate) is
 * one job task; its turn rows are saved into the stored run when it finishes, together, as the run log keeps
 * them (rows, then the execution's summary line). A resume re-saves the log's finished executions and runs the
 * others from their first turn.
 */
export async function runScenarioJob(
  job: JobContext<{ run_name: string }>,
  env: Env,
  benchmark: Benchmark,
  config: VerificationConfig,
  runLog: string,
): Promise<unknown> {
  const prior = job.resuming ? finishedExecutions(await jobRunLog(runLog)).rows : [];
  const questions = new TurnQuestions(job.storage, benchmark);
  await questions.store(prior);
  if (prior.length > 0) await job.storage.saveResults(job.id, prior);
  const saver = new ResultSaver(job.storage, job.id);
  // Each execution's rows are saved once their questions are: in order, one execution after another.
  let saving: Promise<void> = Promise.resolve();
  const usageTotals = new UsageTotals();
  const run = await benchmark.runScenarios(config, {
    runName: job.input.run_name,
    signal: job.signal,
    output: runLog,
    resume: job.resuming,
    env,
    onProgress: (event) => {
      if (event.type === "start") {
        job.plan(event.total, { processed: event.resumed, successful: event.resumed, failed: 0 });
        for (const row of prior) usageTotals.add(taskUsage(row));
        job.reportUsage(usageTotals.value);
      } else if (event.type === "combo-start") {
        job.taskStarted({ key: event.key, question_id: scenarioOfCombo(event.key) });
      } else if (event.type === "turn") {
        usageTotals.add(taskUsage(event.result));
        job.reportUsage(usageTotals.value);
      } else if (event.type === "execution") {
        const { execution, rows } = event;
        saving = saving.then(async () => {
          await questions.store(rows);
          for (const row of rows) saver.add(row);
        });
        job.taskCompleted(
          executionTask(execution.combo_key, execution.scenario_id, execution.replicate),
          execution.status !== "error",
          { scenario_execution: execution },
        );
      }
    },
  });
  await saving;
  await saver.flushed();
  for (const error of run.errors) {
    // An execution that stopped on a failure is already counted failed by its `execution` event.
    if (error.error instanceof ScenarioExecutionFailure) continue;
    job.taskFailed({ key: error.description, question_id: error.description }, errorMessage(error.error));
  }
  if (job.stopReason !== "shutdown") {
    await job.storage.finishRun(job.id, {
      status: run.summary.aborted ? "cancelled" : "completed",
      summary: run.summary,
    });
    precomputeRunSummary(job.storage, job.id);
  }
  return { summary: run.summary };
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
