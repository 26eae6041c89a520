import type { Benchmark } from "../benchmark/index.js";
import {
  type AnswerGroup,
  answerGroups,
  type PipelineQuestion,
  resultTaskKey,
  taskPlan,
  type VerificationConfig,
} from "../pipeline/index.js";
import type { Storage } from "../storage/index.js";
import { FleetRunNotFoundError } from "./errors.js";
import type { Fleet } from "./fleet.js";
import type { FleetJob, FleetRunSettings } from "./fleet-runs.js";
import { type FleetRunInputs, fleetRunInputs, storedFleetConfig } from "./run-inputs.js";
import { DEFAULT_QUEUE, FleetQueue } from "./task-queue.js";

/** What {@link startFleetRun} plans and enqueues. */
export interface StartFleetRunOptions {
  benchmark: Benchmark;
  config: VerificationConfig;
  /** The selected questions (`selectQuestions`), in benchmark order. */
  questions: readonly PipelineQuestion[];
  settings: Omit<FleetRunSettings, "questionIds">;
  queue?: string;
}

/** What was enqueued. */
export interface EnqueuedRun {
  runId: string;
  queue: string;
  /** Tasks of the run (question × answering × parsing × replicate), done before included. */
  tasks: number;
  /** Tasks enqueued now. */
  enqueuedTasks: number;
  /** Jobs (answer groups) enqueued now. */
  jobs: number;
}

function jobOf(runId: string, group: AnswerGroup, resumed = false): FleetJob {
  return {
    runId,
    groupKey: group.key,
    questionId: group.questionId,
    answerer: group.answerer,
    parsers: group.parsers,
    replicate: group.replicate,
    ...(resumed ? { resumed } : {}),
  };
}

/** The tasks of a config over `questions` (skipped ones included). */
function taskCount(questions: number, config: VerificationConfig): number {
  return questions * config.answering_models.length * config.parsing_models.length * config.replicate_count;
}

async function enqueue(fleet: Fleet, queueName: string, jobs: readonly FleetJob[]): Promise<void> {
  const queue = await FleetQueue.open(fleet.url, queueName);
  try {
    await queue.enqueue(jobs);
  } finally {
    await queue.close();
  }
}

/**
 * Plans a distributed run and enqueues its answer groups for the fleet's workers: the benchmark is saved, the
 * run started in `storage` (its id is the run name), the checkpoint, config and settings stored for the
 * workers, then one job per answer group (a question × an answering model × a replicate, with its judges).
 */
export async function startFleetRun(
  fleet: Fleet,
  storage: Storage,
  options: StartFleetRunOptions,
): Promise<EnqueuedRun> {
  const { benchmark, config, questions, settings } = options;
  const queue = options.queue ?? DEFAULT_QUEUE;
  const runId = settings.runName;
  const plan = taskPlan(questions, config, { globalRubric: benchmark.getGlobalRubric(), runName: runId });
  const jobs = [...answerGroups(plan, config)].map((group) => jobOf(runId, group));
  const storedConfig = storedFleetConfig(config);
  await storage.saveBenchmark(benchmark);
  await storage.startRun({
    runId,
    runName: runId,
    benchmarkName: benchmark.name,
    config: storedConfig,
    totalQuestions: questions.length,
  });
  await fleet.runs.create({
    runId,
    queue,
    benchmarkName: benchmark.name,
    checkpoint: JSON.stringify(benchmark.toCheckpoint({ saveDeepJudgmentConfig: true })),
    config: storedConfig,
    settings: { ...settings, questionIds: questions.map((q) => q.id) },
    tasksTotal: plan.total,
    groupKeys: jobs.map((job) => job.groupKey),
  });
  await enqueue(fleet, queue, jobs);
  return { runId, queue, tasks: plan.total, enqueuedTasks: plan.total, jobs: jobs.length };
}

/**
 * Resumes a distributed run (cancelled, or whose groups failed): the tasks without a stored result are
 * enqueued again, from the stored checkpoint and config (API keys from `env`).
 * @throws {FleetRunNotFoundError} for an unknown run.
 */
export async function resumeFleetRun(
  fleet: Fleet,
  storage: Storage,
  runId: string,
  options: { env: NodeJS.ProcessEnv },
): Promise<EnqueuedRun> {
  const run = await fleet.runs.get(runId);
  if (run === null) throw new FleetRunNotFoundError(runId, fleet.database);
  const inputs: FleetRunInputs = await fleetRunInputs(run, { env: options.env });
  try {
    const done = new Set<string>();
    for await (const page of storage.readResultDigests({ runId }))
      for (const r of page) done.add(resultTaskKey(r));
    const questions = [...inputs.questions.values()];
    const plan = taskPlan(questions, inputs.config, {
      globalRubric: inputs.benchmark.getGlobalRubric(),
      runName: runId,
      skipKeys: done,
    });
    const jobs = [...answerGroups(plan, inputs.config)].map((group) => jobOf(runId, group, true));
    await storage.startRun({
      runId,
      runName: run.settings.runName,
      benchmarkName: run.benchmarkName,
      config: run.config,
      totalQuestions: questions.length,
    });
    await fleet.runs.resume(
      runId,
      jobs.map((job) => job.groupKey),
    );
    await enqueue(fleet, run.queue, jobs);
    return {
      runId,
      queue: run.queue,
      tasks: taskCount(questions.length, inputs.config),
      enqueuedTasks: plan.total,
      jobs: jobs.length,
    };
  } finally {
    await inputs.benchmark.close();
  }
}
