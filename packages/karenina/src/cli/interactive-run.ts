import type { Benchmark } from "../benchmark/index.js";
import type {
  ProgressEvent,
  RunVerificationOptions,
  VerificationConfig,
  VerificationRun,
} from "../pipeline/index.js";
import type { CliIo } from "./cli-io.js";
import type { DbRunSink } from "./db-runs.js";
import { createProgressDisplay } from "./progress-display.js";
import { type RunOutput, writeRunExport } from "./run-output.js";

/** How a command runs a benchmark in the terminal. */
export interface InteractiveRunOptions {
  /** Where results go; a .json or .csv export is written once the run completes. */
  output: RunOutput | null;
  /** Shows the live progress bar (on an interactive stderr). */
  progress: boolean;
  /** Also saves the run and each result, as it finishes, into a database. */
  sink: DbRunSink | null;
  /** Everything else the run takes (cache, replay, recording, resume, ...). */
  run: Omit<RunVerificationOptions, "signal" | "onProgress" | "output">;
}

/**
 * Runs a benchmark as `verify` and `demo` do: a live progress bar, Ctrl-C stopping the run cleanly (finished
 * results are kept), results streamed to the run log and the database sink, and the export written at the end
 * of a completed run.
 */
export async function runInteractively(
  benchmark: Benchmark,
  config: VerificationConfig,
  io: CliIo,
  options: InteractiveRunOptions,
): Promise<VerificationRun> {
  const { output, sink } = options;
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSigint);
  const display = createProgressDisplay(io, options.progress);
  let run: VerificationRun;
  try {
    run = await benchmark.runVerification(config, {
      ...options.run,
      signal: controller.signal,
      onProgress: (event: ProgressEvent) => {
        display.update(event);
        if (event.type === "start") sink?.start(event.runName);
        if (event.type === "result") sink?.add(event.result);
      },
      ...(output === null ? {} : { output: output.runLog }),
    });
  } finally {
    display.stop();
    process.off("SIGINT", onSigint);
  }
  if (output !== null && !run.summary.aborted) {
    await writeRunExport(output, { job_id: run.summary.runName }, benchmark.getGlobalRubric());
  }
  return run;
}
