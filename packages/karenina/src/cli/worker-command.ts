import type { Command } from "commander";
import { DEFAULT_LEASE, DEFAULT_QUEUE, runFleetWorker, type WorkerEvent } from "../distributed/index.js";
import type { CliIo } from "./cli-io.js";
import { integer } from "./option-parsers.js";

interface WorkerOptions {
  db: string;
  queue: string;
  concurrency: number;
  name?: string;
  workspaceRoot?: string;
  lease: number;
  quiet?: boolean;
}

function groupName(key: string): string {
  return key.replace(/\t/g, " | ");
}

/** A worker's event as the line it prints (null: not printed). */
export function workerEventLine(event: WorkerEvent, quiet: boolean): string | null {
  switch (event.type) {
    case "ready":
      return `worker ${event.worker} taking jobs of queue ${event.queue}, ${event.concurrency} at a time (Ctrl-C: finish the jobs in hand and stop)`;
    case "group-start":
      return quiet ? null : `${event.job.runId}: ${groupName(event.job.groupKey)}: ${event.tasks} task(s)`;
    case "group-skip":
      return quiet ? null : `${event.job.runId}: ${groupName(event.job.groupKey)}: skipped (${event.reason})`;
    case "group-end":
      return event.error === null
        ? quiet
          ? null
          : `${event.job.runId}: ${groupName(event.job.groupKey)}: ${event.results} result(s) in ${event.seconds.toFixed(1)} s`
        : `${event.job.runId}: ${groupName(event.job.groupKey)}: failed: ${event.error}`;
    case "run-cancelled":
      return `${event.runId}: cancelled; its tasks in hand were stopped`;
    case "run-completed":
      return `${event.runId}: completed`;
    case "error":
      return `error: ${event.message}`;
  }
}

/** `karenina worker`. */
export function registerWorkerCommand(program: Command, io: CliIo): void {
  program
    .command("worker")
    .description("Take tasks of distributed runs from a queue in PostgreSQL and store their results")
    .requiredOption("--db <url>", "the fleet's PostgreSQL database: postgres://user:pass@host:5432/db")
    .option("--queue <name>", "the queue to take jobs from", DEFAULT_QUEUE)
    .option(
      "--concurrency <n>",
      "answer groups in hand at once (each: one answer and its judges)",
      integer("--concurrency", 1, 1_000),
      4,
    )
    .option("--name <name>", "this worker's name in the database and in errors (default host:pid)")
    .option(
      "--workspace-root <dir>",
      "this machine's copy (or mount) of the runs' workspace root, when it is not at the path the run was planned with",
    )
    .option(
      "--lease <seconds>",
      "how long a job stays held without renewal: a worker that dies loses its jobs to the others after about this long",
      integer("--lease", 2, 3_600),
      DEFAULT_LEASE.leaseSeconds,
    )
    .option("--quiet", "print only errors and run endings")
    .addHelpText(
      "after",
      `
Start one (or more) per machine; each takes jobs of the queue until stopped (Ctrl-C or SIGTERM: it finishes
the jobs in hand first). Every worker needs the database, the providers' API keys in its environment (keys are
never stored in the database), and, for agentic runs with workspaces, the workspace root at the planned path
(a shared file system) or --workspace-root pointing at its copy. A worker killed mid-task loses nothing: its
jobs are taken again by the others once its lease lapses, and results are stored by result_id, one per task.

Examples:
  karenina worker --db postgres://karenina:secret@db.lab:5432/karenina
  karenina worker --db postgres://karenina:secret@db.lab:5432/karenina --concurrency 8 --workspace-root /mnt/ws

Enqueue a run with: karenina verify bench.jsonld -a ... -p ... --distributed --db postgres://...
Watch, cancel and resume runs with: karenina fleet --help`,
    )
    .action(async (options: WorkerOptions) => {
      const stop = new AbortController();
      const onSignal = () => {
        if (stop.signal.aborted) process.exit(130);
        io.err("stopping: finishing the jobs in hand (Ctrl-C again to quit now; they will be taken again)\n");
        stop.abort();
      };
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      try {
        await runFleetWorker({
          url: options.db,
          queue: options.queue,
          concurrency: options.concurrency,
          lease: { leaseSeconds: options.lease, checkSeconds: Math.max(1, Math.ceil(options.lease / 2)) },
          ...(options.name === undefined ? {} : { name: options.name }),
          ...(options.workspaceRoot === undefined ? {} : { workspaceRoot: options.workspaceRoot }),
          signal: stop.signal,
          onEvent: (event) => {
            const line = workerEventLine(event, options.quiet === true);
            if (line !== null) io.err(`${line}\n`);
          },
        });
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    });
}
