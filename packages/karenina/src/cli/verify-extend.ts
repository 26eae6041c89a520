/**
 * `karenina verify --extend PRIOR_RUN`: extends a prior run of the benchmark, reusing its answers (spec 04 §17,
 * 08 §10.1). `--extend-mode template` (default) runs the tuples the prior run lacks — new judges, answering
 * models or replicates — with the prior answers replayed; `--extend-mode rubric` scores the benchmark's rubric
 * traits on the prior answers and merges them onto its rows. All of the logic is here; `verify` calls
 * {@link verifyExtend} when `--extend` is given.
 */
import { type Command, Option } from "commander";
import type { Benchmark } from "../benchmark/index.js";
import type { ExtendedRun, ExtendOptions, ProgressEvent, VerificationConfig } from "../pipeline/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { runResultsReport, verifyReportOptions } from "./interactive-run.js";
import { untilInterrupted } from "./interruptible.js";
import { createProgressDisplay } from "./progress-display.js";
import { loadResults } from "./results-command.js";
import { endRun, SystemFailures, summaryLine } from "./run-outcome.js";
import { refuseToAppend, runOutput, writeRunExport } from "./run-output.js";
import type { VerifyOptions } from "./verify-config.js";

/** What `--extend-mode` takes: the kind of extension. */
export const EXTEND_MODES = ["template", "rubric"] as const;
export type ExtendMode = (typeof EXTEND_MODES)[number];

/** The options `--extend` and `--extend-mode` add to `verify`. */
export interface ExtendFlags {
  /** A prior run's results file (.jsonl run log or .json export): the run to extend. */
  extend?: string;
  extendMode?: ExtendMode;
}

/** Registers `--extend PRIOR_RUN` and `--extend-mode template|rubric` on `verify`. */
export function addExtendOptions(command: Command): Command {
  return command
    .option(
      "--extend <prior-run>",
      "extend a prior run (its .jsonl run log or .json export) reusing its answers: see --extend-mode",
    )
    .addOption(
      new Option(
        "--extend-mode <mode>",
        "with --extend: template (new judges, answering models or replicates; only the missing tuples run) or rubric (score the benchmark's rubric traits on the prior answers)",
      )
        .choices(EXTEND_MODES)
        .default("template"),
    );
}

/** The help text of `--extend`, for the end of `verify --help`. */
export const EXTEND_HELP = `
Extending a prior run (answers are replayed from it, never asked again):
  karenina verify bench.jsonld --extend run.jsonl -a openai:gpt-4.1-mini -p openai:gpt-4.1-mini -p anthropic:claude-haiku-4-5 -o extended.jsonl
      template mode (default): the models and --replicates state the whole extended run; the prior run's
      answering models must all be listed (new ones are answered live), its rows pass through unchanged and
      only the tuples it lacks run: new judges read the prior answers, new replicates are answered live.
  karenina verify bench.jsonld --extend run.jsonl --extend-mode rubric -a ... -p ... -o rescored.jsonl
      rubric mode: the benchmark's rubric traits are scored on the prior answers (same judges, same
      replicate count as the prior run; --mode template_only or rubric_only) and merged onto copies of its
      rows: same rows, same result ids. A trait the prior rows already score is an error: select the new
      traits with --rubric-trait-names.
  Scenario benchmarks cannot be extended yet.`;

/** Flags that make no sense with `--extend`, and why. */
function refuseFlags(options: VerifyOptions & ExtendFlags & { distributed?: boolean }): void {
  const refuse = (flag: string, why: string) => {
    throw new CliUsageError(`--extend cannot be combined with ${flag}: ${why}`);
  };
  if (options.replay !== undefined) refuse("--replay", "the extension replays the prior run's own answers");
  if (options.dryRun) refuse("--dry-run", "an extension has no dry run yet");
  if (options.distributed) refuse("--distributed", "an extension runs in this process");
  if (options.resume && options.extendMode === "rubric")
    refuse("--resume in rubric mode", "run it again; the answers are replayed, only the judge calls repeat");
}

/**
 * Runs `verify --extend`: loads the prior run, extends it as `--extend-mode` says, writes the merged rows to
 * `--output` (a .jsonl run log, or a .json/.csv export written at the end), and ends with the summary line and
 * the results tables of a run. The exit code is that of a run (`--fail-under` reads the new rows' pass rate).
 * @throws {CliUsageError} for a flag that cannot go with `--extend`; `ExtendRunError` (exit 1) when the prior
 *   run cannot be extended as asked.
 */
export async function verifyExtend(
  benchmark: Benchmark,
  config: VerificationConfig,
  options: VerifyOptions & ExtendFlags & { distributed?: boolean },
  io: CliIo,
  startedAt?: number,
): Promise<ExtendedRun> {
  if (options.extend === undefined) throw new CliUsageError("--extend: missing the prior run's results file");
  refuseFlags(options);
  const mode = options.extendMode ?? "template";
  const prior = await loadResults(options.extend);
  const output = options.output === undefined ? null : runOutput(options.output);
  if (output !== null && !options.resume) await refuseToAppend(output);
  const display = createProgressDisplay(io, options.progress !== false);
  const systemFailures = new SystemFailures();
  const startTime = Date.now() / 1000;
  const runOptions = (signal: AbortSignal): ExtendOptions => ({
    signal,
    ...(startedAt === undefined ? {} : { startedAt }),
    ...(output === null ? {} : { output: output.runLog }),
    ...(options.resume ? { resume: true } : {}),
    ...(options.question === undefined ? {} : { questionIds: options.question }),
    ...(options.cache === undefined ? {} : { cacheDir: options.cache }),
    onProgress: (event: ProgressEvent) => {
      if (event.type === "warning") io.err(`warning: ${event.message}\n`);
      if (event.type === "result") systemFailures.add(event.result);
      display.update(event);
    },
  });
  let run: ExtendedRun;
  try {
    run = await untilInterrupted((signal) =>
      mode === "rubric"
        ? benchmark.extendRubric(prior.results, config, runOptions(signal))
        : benchmark.extendTemplate(prior.results, config, runOptions(signal)),
    );
  } finally {
    display.stop();
  }
  if (output !== null && !run.summary.aborted) {
    const jobSummary = { start_time: startTime, end_time: Date.now() / 1000 };
    await writeRunExport(
      output,
      { job_id: run.runName, job_summary: jobSummary },
      benchmark.getGlobalRubric(),
    );
  }
  const written = output === null ? undefined : run.summary.aborted ? output.runLog : options.output;
  io.err(
    mode === "rubric"
      ? `extended ${options.extend} (rubric): ${run.results.length} rows re-scored from their saved answers\n`
      : `extended ${options.extend} (template): ${prior.results.length} prior rows kept, ${run.newResults.length} new\n`,
  );
  io.err(`${summaryLine(run.summary, written)}\n`);
  io.out(await runResultsReport(run, benchmark, verifyReportOptions(run, written, options, io)));
  endRun(io.err, run, {
    systemFailures,
    ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
  });
  return run;
}
