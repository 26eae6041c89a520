import type { Benchmark, BenchmarkRunOptions } from "../benchmark/index.js";
import type { ProgressEvent, VerificationConfig, VerificationRun } from "../pipeline/index.js";
import type { VerificationResult } from "../results/index.js";
import type { CliIo } from "./cli-io.js";
import type { DbRunSink } from "./db-runs.js";
import { untilInterrupted } from "./interruptible.js";
import { createProgressDisplay } from "./progress-display.js";
import { type ResultsGrouping, type ResultsReportOptions, resultsReport } from "./results-report.js";
import { type RunOutput, writeRunExport } from "./run-output.js";
import { shellCommand } from "./shell-words.js";

/** How a command runs a benchmark in the terminal. */
export interface InteractiveRunOptions {
  /** Where results go; a .json or .csv export is written once the run completes. */
  output: RunOutput | null;
  /** Shows the live progress bar (on an interactive stderr). */
  progress: boolean;
  /** Also saves the run and each result, as it finishes, into a database. */
  sink: DbRunSink | null;
  /**
   * Everything else the run takes (questions, cache, replay, recording, resume, ...). Results are always
   * kept: the run ends with their summary tables ({@link runResultsReport}).
   */
  run: Omit<BenchmarkRunOptions, "signal" | "onProgress" | "output" | "keepResults">;
  /** Sees each result as it finishes (e.g. to count failures of a system cause). */
  onResult?: (result: VerificationResult) => void;
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
  const display = createProgressDisplay(io, options.progress);
  const startTime = Date.now() / 1000;
  let run: VerificationRun;
  try {
    run = await untilInterrupted((signal) =>
      benchmark.runVerification(config, {
        ...options.run,
        keepResults: true,
        signal,
        onProgress: (event: ProgressEvent) => {
          if (event.type === "warning") io.err(`warning: ${event.message}\n`);
          display.update(event);
          if (event.type === "start") sink?.start(event.runName);
          if (event.type === "result") {
            sink?.add(event.result);
            options.onResult?.(event.result);
          }
        },
        ...(output === null ? {} : { output: output.runLog }),
      }),
    );
  } finally {
    display.stop();
  }
  if (output !== null && !run.summary.aborted) {
    // The job's epoch times, as the original's export fills `job_summary` (total_duration is derived).
    const jobSummary = { start_time: startTime, end_time: Date.now() / 1000 };
    await writeRunExport(
      output,
      { job_id: run.summary.runName, job_summary: jobSummary },
      benchmark.getGlobalRubric(),
    );
  }
  return run;
}

/** Results in the order of their questions in the benchmark (they finish in any order). */
function inQuestionOrder(results: readonly VerificationResult[], benchmark: Benchmark): VerificationResult[] {
  const order = new Map(benchmark.getQuestionIds().map((id, index) => [id, index]));
  const rank = (result: VerificationResult) => order.get(result.metadata.question_id) ?? order.size;
  return [...results].sort((a, b) => rank(a) - rank(b));
}

/** How a run's results are named and laid out by {@link runResultsReport}. */
export interface RunResultsReportOptions extends Omit<ResultsReportOptions, "by"> {
  /** What the report header names: the results file, or the run. */
  source: string;
  /** What kind of results they are, e.g. `verify run`. */
  kind: string;
  by?: ResultsGrouping;
}

/**
 * The summary tables a run ends with, in `verify` and `demo` alike: those of `karenina results` (one piece
 * of code for both), for the run's results in the benchmark's question order (resumed ones included). Empty
 * when the run has no result to summarize (unless `json` asks for the summary object anyway).
 */
export async function runResultsReport(
  run: VerificationRun,
  benchmark: Benchmark,
  options: RunResultsReportOptions,
): Promise<string> {
  if (run.results.length === 0 && !options.json) return "";
  const { source, kind, ...layout } = options;
  return resultsReport(
    {
      file: source,
      format: "jsonl",
      kind,
      results: inQuestionOrder(run.results, benchmark),
      notes: [],
      skippedLines: 0,
    },
    layout,
  );
}

/**
 * How `verify` names its results in the tables it ends with: the file it wrote (or, without `--output`, the
 * run), and the command that shows one result in full (from the file, or from the database with `--db`).
 */
export function verifyReportOptions(
  run: VerificationRun,
  written: string | undefined,
  options: { prices?: string | undefined; db?: string | undefined },
  io: CliIo,
): RunResultsReportOptions {
  const show =
    written !== undefined
      ? ["karenina", "show", written, "QUESTION"]
      : options.db !== undefined
        ? ["karenina", "show", run.summary.runName, "QUESTION", "--db", options.db]
        : undefined;
  return {
    source: written ?? "verify",
    kind: written === undefined ? "results not written to a file (no --output)" : "verify run",
    prices: options.prices,
    colour: io.colour,
    showCommand: show === undefined ? undefined : shellCommand(show),
  };
}
