import { Benchmark } from "../benchmark/index.js";
import { type Fleet, followFleetRun } from "../distributed/index.js";
import type { VerificationRun } from "../pipeline/index.js";
import type { Storage } from "../storage/index.js";
import { CliExit, type CliIo, EXIT } from "./cli-io.js";
import { runResultsReport } from "./interactive-run.js";
import { createProgressDisplay } from "./progress-display.js";
import { endRun, SystemFailures, summaryLine } from "./run-outcome.js";
import { shellCommand } from "./shell-words.js";

/** How {@link followAndReport} shows a distributed run. */
export interface FollowReportOptions {
  progress: boolean;
  /** `--fail-under` in %. */
  failUnder?: number;
  /** When the command started (epoch ms), for the summary's seconds. */
  startedAt?: number;
}

/** `karenina fleet resume RUN --db URL`, quoted for a shell. */
export function fleetResumeCommand(runId: string, database: string): string {
  return shellCommand(["karenina", "fleet", "resume", runId, "--db", database]);
}

/**
 * Follows a distributed run in the terminal as `verify` shows a local one: the live progress bar, then the
 * summary line and the summary tables of `karenina results` over the stored results. Ctrl-C cancels the run
 * (its workers stop its tasks in flight) and prints the command that resumes it.
 */
export async function followAndReport(
  fleet: Fleet,
  storage: Storage,
  runId: string,
  io: CliIo,
  options: FollowReportOptions,
): Promise<void> {
  const display = createProgressDisplay(io, options.progress);
  const systemFailures = new SystemFailures();
  const onSigint = () => {
    io.err(`\ncancelling run ${runId}: its workers stop its tasks in flight…\n`);
    void fleet.runs.cancel(runId);
  };
  process.once("SIGINT", onSigint);
  let followed: Awaited<ReturnType<typeof followFleetRun>>;
  try {
    followed = await followFleetRun(fleet, storage, runId, {
      ...(options.startedAt === undefined ? {} : { startedAt: options.startedAt }),
      onProgress: (event) => {
        display.update(event);
        if (event.type === "result") systemFailures.add(event.result);
      },
    });
  } finally {
    display.stop();
    process.off("SIGINT", onSigint);
  }
  const { summary } = followed;
  const stored = await fleet.runs.get(runId);
  io.err(`${summaryLine(summary, undefined)} · results: run ${runId} in ${fleet.database}\n`);
  for (const failure of await fleet.runs.groupErrors(runId, 5)) {
    io.err(
      `answer group ${failure.groupKey.replace(/\t/g, " | ")} failed on ${failure.worker ?? "a worker"}: ${failure.error}\n`,
    );
  }
  const results = await storage.loadResults({ runId });
  const run: VerificationRun = { results, failures: [], summary };
  if (stored !== null) {
    const benchmark = Benchmark.parse(stored.checkpoint, { file: `distributed run ${runId}` });
    io.out(
      await runResultsReport(run, benchmark, {
        source: `run ${runId}`,
        kind: `distributed run (${fleet.database})`,
        colour: io.colour,
        showCommand: shellCommand(["karenina", "show", runId, "QUESTION", "--db", fleet.database]),
      }),
    );
  }
  if (summary.taskErrors > 0 && !summary.aborted) {
    io.err(
      `${summary.taskErrors} answer group${summary.taskErrors === 1 ? "" : "s"} could not run (exit code 1); run them again with:\n  ${fleetResumeCommand(runId, fleet.database)}\n`,
    );
  }
  endRun(io.err, run, {
    systemFailures,
    resumeCommand: fleetResumeCommand(runId, fleet.database),
    ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
  });
  if (summary.taskErrors > 0) throw new CliExit(EXIT.checkFailed);
}
