import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { Benchmark, selectQuestions } from "../../benchmark/index.js";
import {
  dumpVerificationConfig,
  type Env,
  finishedKeys,
  parseVerificationConfig,
  readRunLog,
  resultTaskKey,
  type VerificationConfig,
} from "../../pipeline/index.js";
import { isVerificationResult, rowOutcome, type VerificationResult } from "../../results/index.js";
import type { JobContext, JobKind } from "../jobs/index.js";
import { ResultSaver } from "./result-saver.js";
import { precomputeRunSummary } from "./run-summary.js";
import { runScenarioJob } from "./scenario-job.js";
import { writeScenarioGraphs } from "./scenario-job-files.js";
import { taskUsage, UsageTotals } from "./task-usage.js";

/** The kind name of verification jobs. */
export const VERIFICATION_JOB = "verification";

/** What a verification job's row holds (its config with keys masked; the raw one is in the job folder, 0600). */
export const VerificationJobInputSchema = z.object({
  benchmark_name: z.string(),
  run_name: z.string(),
  question_ids: z.array(z.string()).nullable(),
  config: z.record(z.string(), z.unknown()),
});
export type VerificationJobInput = z.infer<typeof VerificationJobInputSchema>;

const CHECKPOINT_FILE = "checkpoint.jsonld";
const CONFIG_FILE = "config.json";
const RUN_LOG_FILE = "results.jsonl";

/** The run log of the job whose folder is `dir` (a scenario job's holds its execution lines too). */
export const runLogOfJob = (dir: string) => join(dir, RUN_LOG_FILE);

/**
 * Writes what a job needs to run again after a restart into its folder: the benchmark as it was at start (so a
 * resume verifies the same questions) and the config as sent (API keys included: owner-only file).
 */
export async function prepareVerificationJob(
  dir: string,
  benchmark: Benchmark,
  rawConfig: unknown,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, CHECKPOINT_FILE), benchmark.serialize());
  const configPath = join(dir, CONFIG_FILE);
  await writeFile(configPath, JSON.stringify(rawConfig), { mode: 0o600 });
  await chmod(configPath, 0o600);
  await writeScenarioGraphs(dir, benchmark);
}

/** Whether a result finished without a failure (the stored run's "successful"). */
export const succeeded = (result: VerificationResult) => result.metadata.failure == null;

/** The per-task summary a `task_completed` event carries, so a results table fills live (spec 07 §2.3). */
export function resultSummary(result: VerificationResult) {
  const { metadata } = result;
  return {
    result_id: metadata.result_id,
    question_id: metadata.question_id,
    answering: metadata.answering,
    parsing: metadata.parsing,
    replicate: metadata.replicate ?? null,
    passed: rowOutcome(result) === "passed",
    failure_category: metadata.failure?.category ?? null,
  };
}

async function priorResults(runLog: string): Promise<VerificationResult[]> {
  const log = await readRunLog<VerificationResult>(runLog, { accept: isVerificationResult }).catch(
    () => null,
  );
  return log === null ? [] : finishedKeys(log.results, resultTaskKey).results;
}

/**
 * Verification jobs: run a stored benchmark's questions, appending each result to the job's run log (fsynced)
 * and saving it into the stored run whose id is the job id. A resume skips the tasks the log holds and first
 * re-saves them (idempotent by result id), so a crash between the log and the database loses nothing.
 */
export function verificationJobKind(env: Env): JobKind<VerificationJobInput> {
  return {
    kind: VERIFICATION_JOB,
    resumable: true,
    parseInput: (stored) => VerificationJobInputSchema.parse(stored),
    run: (job) => runVerificationJob(job, env),
  };
}

/** What {@link prepareVerificationJob} wrote into a job's folder: the benchmark and the config (keys from `env`). */
export async function loadVerificationJob(
  dir: string,
  env: Env,
): Promise<{ benchmark: Benchmark; config: VerificationConfig }> {
  const benchmark = Benchmark.parse(await readFile(join(dir, CHECKPOINT_FILE), "utf8"));
  const config = parseVerificationConfig(JSON.parse(await readFile(join(dir, CONFIG_FILE), "utf8")), { env });
  return { benchmark, config };
}

async function runVerificationJob(job: JobContext<VerificationJobInput>, env: Env): Promise<unknown> {
  const { input, storage } = job;
  const { benchmark, config } = await loadVerificationJob(job.dir, env);
  const runLog = runLogOfJob(job.dir);
  await storage.startRun({
    runId: job.id,
    runName: input.run_name,
    benchmarkName: input.benchmark_name,
    config: dumpVerificationConfig(config),
  });
  await job.linkRun(job.id);
  if (benchmark.isScenarioBenchmark) return runScenarioJob(job, env, benchmark, config, runLog);
  const prior = job.resuming ? await priorResults(runLog) : [];
  if (prior.length > 0) await storage.saveResults(job.id, prior);
  const saver = new ResultSaver(storage, job.id);
  const usageTotals = new UsageTotals();
  // A template that does not load fails its own rows, not the job (as in the original server): the others run.
  const { questions } = await selectQuestions(benchmark, config, {
    ...(input.question_ids === null ? {} : { questionIds: input.question_ids }),
    unusable: "fail",
  });
  const run = await benchmark.runVerification(config, {
    runName: input.run_name,
    questions,
    signal: job.signal,
    output: runLog,
    resume: job.resuming,
    keepResults: false,
    // the search keys are read from the server's environment (`ServerDeps.env`), as the config is
    env,
    onProgress: (event) => {
      if (event.type === "start") {
        const successful = prior.filter(succeeded).length;
        job.plan(event.total, { processed: prior.length, successful, failed: prior.length - successful });
        for (const result of prior) usageTotals.add(taskUsage(result));
        job.reportUsage(usageTotals.value);
      } else if (event.type === "task-start") {
        job.taskStarted({
          key: event.task.key,
          question_id: event.task.question.id,
          replicate: event.task.replicate,
        });
      } else if (event.type === "result") {
        saver.add(event.result);
        const usage = taskUsage(event.result);
        usageTotals.add(usage);
        job.reportUsage(usageTotals.value);
        const { metadata } = event.result;
        job.taskCompleted(
          {
            key: resultTaskKey(event.result),
            question_id: metadata.question_id,
            replicate: metadata.replicate ?? null,
          },
          succeeded(event.result),
          { result_summary: resultSummary(event.result), ...usage },
        );
      }
    },
  });
  await saver.flushed();
  for (const failure of run.failures) {
    job.taskFailed(
      { key: failure.task.key, question_id: failure.task.question.id, replicate: failure.task.replicate },
      failure.error instanceof Error ? failure.error.message : String(failure.error),
    );
  }
  if (job.stopReason !== "shutdown") {
    await storage.finishRun(job.id, {
      status: run.summary.aborted ? "cancelled" : "completed",
      summary: run.summary,
    });
    precomputeRunSummary(storage, job.id);
  }
  return { summary: run.summary };
}
