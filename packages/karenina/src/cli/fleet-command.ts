import type { Command } from "commander";
import {
  type Fleet,
  type FleetProgress,
  FleetRunNotFoundError,
  openFleet,
  resumeFleetRun,
} from "../distributed/index.js";
import { openStorage, type Storage } from "../storage/index.js";
import type { CliIo } from "./cli-io.js";
import { fleetResumeCommand, followAndReport } from "./fleet-follow.js";
import { table } from "./text-table.js";

interface DbOption {
  db: string;
}

/** Opens the fleet's database and its storage for one command, and closes both. */
export async function withFleet<T>(
  url: string,
  work: (fleet: Fleet, storage: Storage) => Promise<T>,
): Promise<T> {
  const fleet = await openFleet(url);
  try {
    const storage = await openStorage(url);
    try {
      return await work(fleet, storage);
    } finally {
      await storage.close();
    }
  } finally {
    await fleet.close();
  }
}

function progressRow(run: FleetProgress): string[] {
  const { stats } = run;
  return [
    run.runId,
    run.status,
    `${run.groupsDone}/${run.groupsTotal}`,
    String(run.tasksTotal),
    String(run.groupErrors),
    String(stats.calls),
    `$${stats.costUsd.toFixed(4)}`,
    run.queue,
    run.updatedAt.toISOString().replace(/\.\d+Z$/, "Z"),
  ];
}

const STATUS_COLUMNS = [
  { header: "run" },
  { header: "status" },
  { header: "groups done", right: true },
  { header: "tasks", right: true },
  { header: "errors", right: true },
  { header: "LLM calls", right: true },
  { header: "cost", right: true },
  { header: "queue" },
  { header: "updated" },
];

async function requireProgress(fleet: Fleet, runId: string): Promise<FleetProgress> {
  const progress = await fleet.runs.progress(runId);
  if (progress === null) throw new FleetRunNotFoundError(runId, fleet.database);
  return progress;
}

/** `karenina fleet status|cancel|resume|follow`. */
export function registerFleetCommands(program: Command, io: CliIo): void {
  const fleet = program
    .command("fleet")
    .description("Watch, cancel and resume distributed runs (verify --distributed; karenina worker)")
    .addHelpText(
      "after",
      `
A distributed run is planned and enqueued by karenina verify ... --distributed --db postgres://..., and run by
karenina worker processes on any number of machines. These commands look at and steer it from anywhere.

Examples:
  karenina fleet status --db postgres://karenina:secret@db.lab/karenina
  karenina fleet follow run_1a2b3c4d --db postgres://karenina:secret@db.lab/karenina
  karenina fleet cancel run_1a2b3c4d --db postgres://karenina:secret@db.lab/karenina
  karenina fleet resume run_1a2b3c4d --db postgres://karenina:secret@db.lab/karenina`,
    );
  fleet
    .command("status")
    .description("The distributed runs (newest first), or one run")
    .argument("[run]", "a run id")
    .requiredOption("--db <url>", "the fleet's PostgreSQL database")
    .option("--json", "print JSON")
    .action(async (runId: string | undefined, options: DbOption & { json?: boolean }) =>
      withFleet(options.db, async (fleetDb) => {
        const runs =
          runId === undefined ? await fleetDb.runs.list() : [await requireProgress(fleetDb, runId)];
        if (options.json) {
          io.out(`${JSON.stringify(runs, null, 2)}\n`);
          return;
        }
        if (runs.length === 0) {
          io.out(`no distributed runs in ${fleetDb.database}\n`);
          return;
        }
        io.out(`${table(STATUS_COLUMNS, runs.map(progressRow)).join("\n")}\n`);
        for (const run of runs.filter((r) => runId !== undefined && r.groupErrors > 0))
          for (const failure of await fleetDb.runs.groupErrors(run.runId, 10))
            io.out(
              `  ${failure.groupKey.replace(/\t/g, " | ")} on ${failure.worker ?? "?"}: ${failure.error}\n`,
            );
      }),
    );
  fleet
    .command("cancel")
    .description(
      "Cancel a running distributed run: workers stop its tasks in flight and skip its queued jobs",
    )
    .argument("<run>", "a run id")
    .requiredOption("--db <url>", "the fleet's PostgreSQL database")
    .action(async (runId: string, options: DbOption) =>
      withFleet(options.db, async (fleetDb) => {
        const status = await fleetDb.runs.cancel(runId);
        if (status === null) throw new FleetRunNotFoundError(runId, fleetDb.database);
        io.err(
          status === "cancelled"
            ? `cancelled ${runId}; finished results are kept. Resume with:\n  ${fleetResumeCommand(runId, fleetDb.database)}\n`
            : `${runId} is ${status}: nothing to cancel\n`,
        );
      }),
    );
  fleet
    .command("resume")
    .description("Enqueue again the tasks of a distributed run that have no result, then follow it")
    .argument("<run>", "a run id")
    .requiredOption("--db <url>", "the fleet's PostgreSQL database")
    .option("--detach", "enqueue and exit without following")
    .option("--no-progress", "no progress bar")
    .action(async (runId: string, options: DbOption & { detach?: boolean; progress?: boolean }) =>
      withFleet(options.db, async (fleetDb, storage) => {
        const startedAt = Date.now();
        const enqueued = await resumeFleetRun(fleetDb, storage, runId, { env: process.env });
        io.err(
          `${runId}: ${enqueued.enqueuedTasks} of ${enqueued.tasks} tasks enqueued again in ${enqueued.jobs} jobs on queue ${enqueued.queue}\n`,
        );
        if (options.detach) return;
        await followAndReport(fleetDb, storage, runId, io, {
          progress: options.progress !== false,
          startedAt,
        });
      }),
    );
  fleet
    .command("follow")
    .description(
      "Follow a distributed run until it ends: progress bar, summary and tables (Ctrl-C cancels it)",
    )
    .argument("<run>", "a run id")
    .requiredOption("--db <url>", "the fleet's PostgreSQL database")
    .option("--no-progress", "no progress bar")
    .action(async (runId: string, options: DbOption & { progress?: boolean }) =>
      withFleet(options.db, (fleetDb, storage) =>
        followAndReport(fleetDb, storage, runId, io, { progress: options.progress !== false }),
      ),
    );
}
