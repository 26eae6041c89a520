import { resolve } from "node:path";
import { selectQuestions } from "../../benchmark/index.js";
import { type FollowedRun, followFleetRun, resumeFleetRun, startFleetRun } from "../../distributed/index.js";
import { type Env, type ProgressEvent, resultTaskKey } from "../../pipeline/index.js";
import type { VerificationResult } from "../../results/index.js";
import type { ServerFleet } from "../core/index.js";
import { EventLog, type JobContext, type JobKind, type JobTask } from "../jobs/index.js";
import { precomputeRunSummary } from "./run-summary.js";
import { taskUsage, UsageTotals } from "./task-usage.js";
import {
  loadVerificationJob,
  resultSummary,
  succeeded,
  VERIFICATION_JOB,
  type VerificationJobInput,
  VerificationJobInputSchema,
} from "./verification-job.js";

/**
 * Verification jobs of a `--distributed` server: the job plans its run on the fleet (`startFleetRun`: the run
 * id is the job's run name; workers store the results in the same database), then follows it, reporting each
 * stored result as an in-process job reports its own. Cancelling the job cancels the fleet run (workers abort
 * their calls in flight); a server that stops leaves the job `interrupted` and the run going on, and the next
 * server follows it again at start ({@link JobKind.continuesElsewhere}).
 */
export function fleetVerificationJobKind(server: ServerFleet, env: Env): JobKind<VerificationJobInput> {
  return {
    kind: VERIFICATION_JOB,
    resumable: true,
    parseInput: (stored) => VerificationJobInputSchema.parse(stored),
    continuesElsewhere: async (row) =>
      row.runId !== null && (await server.fleet.runs.progress(row.runId)) !== null,
    run: (job) => runFleetJob(job, server, env),
  };
}

/** The fleet run of a job: its run name. */
const fleetRunOf = (job: JobContext<VerificationJobInput>) => job.input.run_name;

async function runFleetJob(
  job: JobContext<VerificationJobInput>,
  server: ServerFleet,
  env: Env,
): Promise<unknown> {
  const { fleet } = server;
  const runId = fleetRunOf(job);
  const existing = job.resuming ? await fleet.runs.progress(runId) : null;
  if (existing === null) await enqueueRun(job, server, env);
  else if (!job.reattached && existing.status !== "running") {
    // A client resumed it: what has no result yet is enqueued again.
    if ((await job.storage.countResults({ runId })) < existing.tasksTotal)
      await resumeFleetRun(fleet, job.storage, runId, { env: env as NodeJS.ProcessEnv });
  }
  await job.linkRun(runId);
  const followed = await followJob(job, server, runId);
  if (followed.detached) return { summary: followed.summary, fleet_run: runId };
  for (const failure of await fleet.runs.groupErrors(runId, 10_000))
    job.taskFailed(groupTask(failure.groupKey), `${failure.error} (worker ${failure.worker ?? "unknown"})`);
  if (followed.progress.status === "cancelled") job.endCancelled();
  await job.storage.finishRun(runId, {
    status: followed.summary.aborted ? "cancelled" : "completed",
    summary: followed.summary,
  });
  precomputeRunSummary(job.storage, runId);
  return { summary: followed.summary, fleet_run: runId };
}

/** Plans the job's run on the fleet, with the questions and settings an in-process job would use. */
async function enqueueRun(
  job: JobContext<VerificationJobInput>,
  server: ServerFleet,
  env: Env,
): Promise<void> {
  const { input } = job;
  const { benchmark, config } = await loadVerificationJob(job.dir, env);
  try {
    const { questions } = await selectQuestions(benchmark, config, {
      ...(input.question_ids === null ? {} : { questionIds: input.question_ids }),
      unusable: "fail",
    });
    await startFleetRun(server.fleet, job.storage, {
      benchmark,
      config,
      questions,
      queue: server.queue,
      settings: {
        runName: input.run_name,
        includeDrafts: false,
        isolation: benchmark.isolation,
        workspaceRoot: benchmark.workspaceRoot === null ? null : resolve(benchmark.workspaceRoot),
        agentCommands: false,
        // Keys never go into the database: workers read theirs from their environment.
        endpointKeyEnv: null,
        endpointLimits: {},
        prices: null,
        sharedCache: server.sharedCache,
        cacheMode: "use",
      },
    });
  } finally {
    await benchmark.close();
  }
}

/** An answer group as a job task (its key starts with its question's id). */
function groupTask(groupKey: string): JobTask {
  return { key: groupKey, question_id: groupKey.split("\t")[0] ?? groupKey };
}

/** The result ids the job's earlier attempts reported as `task_completed`. */
async function reportedResults(eventLog: string): Promise<Set<string>> {
  const ids = new Set<string>();
  await EventLog.replay(eventLog, 0, (event) => {
    const summary = (event as { result_summary?: { result_id?: unknown } }).result_summary;
    if (event.type === "task_completed" && typeof summary?.result_id === "string") ids.add(summary.result_id);
  }).catch(() => undefined);
  return ids;
}

/**
 * Follows the fleet run, feeding the job's progress: each stored result a `task_completed` (once: a result an
 * earlier attempt reported is only counted). Cancel cancels the run and waits for its end; shutdown detaches.
 */
async function followJob(
  job: JobContext<VerificationJobInput>,
  server: ServerFleet,
  runId: string,
): Promise<FollowedRun> {
  const { fleet } = server;
  const reported = job.resuming ? await reportedResults(job.eventLog) : new Set<string>();
  const detach = new AbortController();
  const onAbort = () => {
    if (job.stopReason === "cancel") void fleet.runs.cancel(runId).catch(() => undefined);
    else detach.abort();
  };
  job.signal.addEventListener("abort", onAbort, { once: true });
  if (job.signal.aborted) onAbort();
  const counts = { processed: 0, successful: 0, failed: 0 };
  let total = 0;
  const usage = new UsageTotals();
  const onResult = (result: VerificationResult) => {
    const fields = taskUsage(result);
    usage.add(fields);
    job.reportUsage(usage.value);
    counts.processed++;
    if (succeeded(result)) counts.successful++;
    else counts.failed++;
    if (reported.has(result.metadata.result_id)) return job.plan(total, counts);
    const { metadata } = result;
    job.taskCompleted(
      {
        key: resultTaskKey(result),
        question_id: metadata.question_id,
        replicate: metadata.replicate ?? null,
      },
      succeeded(result),
      { result_summary: resultSummary(result), ...fields },
    );
  };
  try {
    return await followFleetRun(fleet, job.storage, runId, {
      signal: detach.signal,
      ...(server.pollMs === undefined ? {} : { pollMs: server.pollMs }),
      onProgress: (event: ProgressEvent) => {
        if (event.type === "start") {
          total = event.total;
          job.plan(total, { ...counts });
        } else if (event.type === "result") onResult(event.result);
      },
    });
  } finally {
    job.signal.removeEventListener("abort", onAbort);
  }
}
