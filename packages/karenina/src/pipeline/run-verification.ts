import { compactManifest } from "../agentic/index.js";
import type { DynamicRubric, Rubric } from "../model/index.js";
import { canonicalKey, isVerificationResult, rowOutcome, type VerificationResult } from "../results/index.js";
import { runBatch, type TaskFailure } from "./batch.js";
import {
  dumpVerificationConfig,
  type VerificationConfig,
  verificationConfigWarnings,
} from "./config/index.js";
import { taskPlan } from "./planning.js";
import { finishedKeys, RunLogWriter, readRunLog } from "./run-log/index.js";
import { RUN_STATE_FORMAT, type RunState, runStatePath, writeRunState } from "./run-state.js";
import type { RunStatsSnapshot } from "./run-stats.js";

export type { RunStatsSnapshot } from "./run-stats.js";

import { openRunServices, type RunServiceOptions } from "./run-services.js";
import { type PipelineQuestion, taskKey, type VerificationTask } from "./task.js";

/** What a run reports as it goes. */
export type ProgressEvent =
  /** A config warning (spec 04 §2.2, see `verificationConfigWarnings`), reported before `start`. */
  | { type: "warning"; message: string }
  | { type: "start"; total: number; resumed: number; runName: string }
  | { type: "task-start"; task: VerificationTask }
  | {
      type: "result";
      result: VerificationResult;
      done: number;
      total: number;
      /** Results so far that passed, failed and were verified, as {@link RunSummary} counts them. */
      passed: number;
      failed: number;
      verified: number;
      stats: RunStatsSnapshot;
    }
  | { type: "end"; summary: RunSummary };

/** The totals of a run, for its one-line summary. */
export interface RunSummary extends RunStatsSnapshot {
  runName: string;
  /** Tasks of the run, including those finished by an earlier (resumed) attempt. */
  total: number;
  /** Results produced now. */
  completed: number;
  /** Results carried over from the run log. */
  resumed: number;
  /** Results that passed: no failure, template verification ran and gave true (`rowOutcome` "passed"). */
  passed: number;
  /** Results that failed: the result has a failure, or verification did not give true (`rowOutcome` "failed"). */
  failed: number;
  /** Results whose template verification ran. The pass rate is `passRateOf(passed, failed)`, not over these. */
  verified: number;
  /** Tasks that threw outside their stages. */
  taskErrors: number;
  /** The run was cancelled before every task finished. */
  aborted: boolean;
  seconds: number;
}

/** Options of {@link runVerification}. */
export interface RunVerificationOptions extends RunServiceOptions {
  globalRubric?: Rubric | null;
  globalDynamicRubric?: DynamicRubric | null;
  runName?: string;
  onProgress?: (event: ProgressEvent) => void;
  /** A JSONL run log: each finished result is appended (and fsynced) as it completes. */
  output?: string;
  /** Skip the tasks whose results are already in `output`. */
  resume?: boolean;
  /** Task keys (`resultTaskKey`) not to run, besides those a resume skips: e.g. the tuples of a prior run being extended. */
  skipKeys?: ReadonlySet<string>;
  /** Keep results in memory and return them (default true). Turn off for very large runs. */
  keepResults?: boolean;
  /**
   * When the run's wall clock starts (epoch milliseconds), e.g. when the command that runs it started, so
   * `summary.seconds` and the run state's `started_at` include the preparation before the first task.
   * Default: when `runVerification` is called.
   */
  startedAt?: number;
}

/** A finished (or cancelled) run. */
export interface VerificationRun {
  /** Every result of the run (resumed ones first), unless `keepResults` was false. */
  results: VerificationResult[];
  failures: TaskFailure[];
  summary: RunSummary;
}

/** Passed, failed and verified results, counted as `rowOutcome` and `passRate` define them. */
class OutcomeTally {
  #passed = 0;
  #failed = 0;
  #verified = 0;

  constructor(results: readonly VerificationResult[] = []) {
    for (const result of results) this.add(result);
  }

  add(result: VerificationResult): void {
    const outcome = rowOutcome(result);
    if (outcome === "passed") this.#passed++;
    if (outcome === "failed") this.#failed++;
    if (result.template?.template_verification_performed === true) this.#verified++;
  }

  counts(): { passed: number; failed: number; verified: number } {
    return { passed: this.#passed, failed: this.#failed, verified: this.#verified };
  }
}

/** The resume key of a stored result. */
export function resultTaskKey(result: VerificationResult): string {
  const { metadata } = result;
  return taskKey(
    metadata.question_id,
    canonicalKey(metadata.answering),
    canonicalKey(metadata.parsing),
    metadata.replicate,
  );
}

async function priorResults(options: RunVerificationOptions): Promise<VerificationResult[]> {
  if (!options.resume || options.output === undefined) return [];
  const log = await readRunLog<VerificationResult>(options.output, { accept: isVerificationResult });
  return finishedKeys(log.results, resultTaskKey).results;
}

/**
 * A fully complete batch compacts its workspace capture manifest (spec 05 §12.8): `manifest.jsonl` becomes
 * `manifest.json`. An interrupted one leaves the JSONL, which its resume appends to.
 */
async function compactCaptureManifest(config: VerificationConfig): Promise<void> {
  const outputDir = config.workspace_output_dir;
  if (config.workspace_output_mode === "none" || outputDir === null || outputDir === "") return;
  await compactManifest(outputDir);
}

/**
 * Runs a verification (spec 04 §15): plans the tasks, runs them with the config's concurrency through one
 * scheduler, appends each result to the run log as it finishes, and resolves to the results and a summary.
 * Progress, including every result, is streamed through `onProgress`.
 */
export async function runVerification(
  questions: readonly PipelineQuestion[],
  config: VerificationConfig,
  options: RunVerificationOptions = {},
): Promise<VerificationRun> {
  const started = options.startedAt ?? Date.now();
  const prior = await priorResults(options);
  const runName = options.runName ?? prior.find((r) => r.metadata.run_name)?.metadata.run_name ?? undefined;
  const plan = taskPlan(questions, config, {
    globalRubric: options.globalRubric ?? null,
    globalDynamicRubric: options.globalDynamicRubric ?? null,
    ...(runName === undefined ? {} : { runName }),
    skipKeys: new Set([...prior.map(resultTaskKey), ...(options.skipKeys ?? [])]),
  });
  const effectiveRunName = plan.runName;
  const { services, close: closeServices } = await openRunServices(config, options);
  const keep = options.keepResults ?? true;
  const results: VerificationResult[] = keep ? [...prior] : [];
  const total = plan.total + prior.length;
  let done = prior.length;
  const outcomes = new OutcomeTally(prior);
  const writer = options.output === undefined ? null : await RunLogWriter.open(options.output);
  const statePath = options.output === undefined ? null : runStatePath(options.output);
  const state: RunState = {
    format: RUN_STATE_FORMAT,
    run_name: effectiveRunName,
    total_tasks: total,
    resumed: prior.length,
    started_at: new Date(started).toISOString(),
    updated_at: new Date().toISOString(),
    finished: false,
    aborted: false,
    config: statePath === null ? {} : dumpVerificationConfig(config),
  };
  if (statePath !== null) {
    try {
      await writeRunState(statePath, state);
    } catch (error) {
      await writer?.close();
      await closeServices();
      throw error;
    }
  }
  const snapshot = () => services.stats.snapshot();
  for (const message of verificationConfigWarnings(config))
    options.onProgress?.({ type: "warning", message });
  options.onProgress?.({ type: "start", total, resumed: prior.length, runName: effectiveRunName });
  let outcome: Awaited<ReturnType<typeof runBatch>>;
  try {
    outcome = await runBatch(plan, config, services, {
      onStart: (task) => options.onProgress?.({ type: "task-start", task }),
      onResult: async (result) => {
        await writer?.append(result);
        if (keep) results.push(result);
        done++;
        outcomes.add(result);
        options.onProgress?.({
          type: "result",
          result,
          done,
          total,
          ...outcomes.counts(),
          stats: snapshot(),
        });
      },
    });
  } finally {
    await writer?.close();
    await closeServices();
  }
  const summary: RunSummary = {
    ...snapshot(),
    runName: effectiveRunName,
    total,
    completed: outcome.completed,
    resumed: prior.length,
    ...outcomes.counts(),
    taskErrors: outcome.failures.length,
    aborted: outcome.aborted,
    seconds: (Date.now() - started) / 1000,
  };
  if (statePath !== null) {
    await writeRunState(statePath, {
      ...state,
      updated_at: new Date().toISOString(),
      finished: !outcome.aborted,
      aborted: outcome.aborted,
    });
  }
  if (!outcome.aborted && outcome.failures.length === 0) await compactCaptureManifest(config);
  options.onProgress?.({ type: "end", summary });
  return { results, failures: outcome.failures, summary };
}
