import { rm } from "node:fs/promises";
import type { Benchmark } from "../benchmark/index.js";
import type { ReplayStore } from "../llm/index.js";
import {
  defaultRunName,
  runStatePath,
  type ScenarioProgressEvent,
  type ScenarioRun,
  type VerificationConfig,
} from "../pipeline/index.js";
import { scenarioRecordsFromRows, writeResultsCsv, writeResultsJson } from "../results/index.js";
import { openStorage } from "../storage/index.js";
import { CliExit, type CliIo, EXIT } from "./cli-io.js";
import { DbRunSink } from "./db-runs.js";
import { untilInterrupted } from "./interruptible.js";
import type { RecordingRun } from "./recording-flags.js";
import { resultsReport } from "./results-report.js";
import { makeRunDirectory, type RunDirectory, RunManifestWriter } from "./run-directory.js";
import { type RunOutput, refuseToAppend, runOutput } from "./run-output.js";
import { writeRunTraces } from "./run-traces.js";
import type { VerifyOptions } from "./verify-config.js";

/** What `verify` has settled before it runs a scenario benchmark. */
export interface ScenarioVerifyRun {
  target: string;
  replay: ReplayStore | null;
  recording: RecordingRun | null;
  /** `--run-root`: the run directory (its results file is the run's output), its manifest and trace files. */
  runDirectory: RunDirectory | null;
  resumeCommand: string;
}

function executionLine(event: Extract<ScenarioProgressEvent, { type: "execution" }>): string {
  const { execution, done, total } = event;
  const [scenario, answering, parsing, replicate] = execution.combo_key.split("\t");
  const models = `${answering?.split(":")[1] ?? "?"} / ${parsing?.split(":")[1] ?? "?"}`;
  const outcomes = Object.entries(execution.outcome_results)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(" ");
  const failure = execution.terminal_failure;
  const why = failure === null ? "" : ` (${failure.category} at ${failure.node_id})`;
  return `[${done}/${total}] ${scenario} · ${models}${replicate ? ` · ${replicate}` : ""}: ${execution.status}${why} · ${execution.path.join(" → ")}${outcomes ? ` · ${outcomes}` : ""}`;
}

async function writeExport(
  run: ScenarioRun,
  options: VerifyOptions,
  startTime: number,
): Promise<string | undefined> {
  if (options.output === undefined) return undefined;
  const output = runOutput(options.output);
  if (output.export === null) return output.runLog;
  const metadata = {
    job_id: run.summary.runName ?? `scenario-run-${Math.trunc(startTime)}`,
    job_summary: { start_time: startTime, end_time: Date.now() / 1000 },
  };
  if (output.export.format === "json") {
    await writeResultsJson(output.export.path, run.results, {
      metadata,
      scenarioResults: scenarioRecordsFromRows(run.results, run.executions),
    });
  } else {
    // The original's CSV carries no scenario information (spec 08 §6.5): the turn rows only.
    await writeResultsCsv(output.export.path, run.results, { metadata });
  }
  await rm(output.runLog, { force: true });
  await rm(runStatePath(output.runLog), { force: true });
  return output.export.path;
}

/**
 * `karenina verify` on a scenario benchmark (spec 08 §5, quirk Q35 fixed: the original exits "No finished
 * templates"): every scenario × answering model × parsing model × replicate runs, one line per finished
 * execution on stderr, the run log appended execution by execution (`--resume` continues it), the export
 * (`.json` with `scenario_results`, or `.csv` of the turn rows) written when the run completes, then the
 * results tables with the scenario section. Exit code 1 when an execution stopped on a failure.
 */
export async function verifyScenarios(
  benchmark: Benchmark,
  config: VerificationConfig,
  options: VerifyOptions,
  io: CliIo,
  run: ScenarioVerifyRun,
): Promise<void> {
  if (options.question !== undefined) {
    io.err(`warning: ${run.target} holds scenarios: question selections are ignored, every scenario runs\n`);
  }
  const output = options.output === undefined ? null : runOutput(options.output);
  if (output !== null && !options.resume) await refuseToAppend(output);
  const startTime = Date.now() / 1000;
  // Stored runs are found by name: a stored scenario run gets one (a run without --db keeps none, quirk Q30).
  const storage = options.db === undefined ? null : await openStorage(options.db);
  const sink = storage === null ? null : await DbRunSink.open(storage, benchmark, config);
  const name = sink !== null && !options.resume ? defaultRunName() : undefined;
  const directory = run.runDirectory;
  if (directory !== null) await makeRunDirectory(directory);
  const manifest =
    directory === null
      ? null
      : await RunManifestWriter.start(directory, {
          benchmarkPath: run.target,
          selectedQuestions: benchmark.scenarioCount,
          config,
        });
  let result: ScenarioRun;
  try {
    result = await runAndReport(benchmark, config, options, io, run, { output, sink, name, startTime });
    if (directory !== null) await writeRunTraces(directory.traces, result.results);
    await manifest?.finish({ status: "completed", runName: result.summary.runName });
    if (directory !== null) io.err(`run directory: ${directory.path}\n`);
  } catch (error) {
    const interrupted = error instanceof CliExit && error.code === EXIT.interrupted;
    await manifest?.finish(interrupted ? { status: "interrupted" } : { status: "failed", error });
    throw error;
  } finally {
    await storage?.close();
  }
  endScenarioRun(io, result);
}

/** Exit code 1 when an execution stopped on a failure, naming the first few. */
function endScenarioRun(io: CliIo, result: ScenarioRun): void {
  if (result.errors.length === 0) return;
  for (const entry of result.errors.slice(0, 5)) io.err(`${entry.description}\n`);
  io.err(
    `${result.errors.length} execution${result.errors.length === 1 ? "" : "s"} stopped on a failure (exit code 1)\n`,
  );
  throw new CliExit(EXIT.checkFailed);
}

async function runAndReport(
  benchmark: Benchmark,
  config: VerificationConfig,
  options: VerifyOptions,
  io: CliIo,
  run: ScenarioVerifyRun,
  context: { output: RunOutput | null; sink: DbRunSink | null; name: string | undefined; startTime: number },
): Promise<ScenarioRun> {
  const { output, sink, startTime } = context;
  const result: ScenarioRun = await untilInterrupted((signal) =>
    benchmark.runScenarios(config, {
      signal,
      ...(context.name === undefined ? {} : { runName: context.name }),
      ...(output === null ? {} : { output: output.runLog }),
      ...(options.resume ? { resume: true } : {}),
      ...(options.cache === undefined ? {} : { cacheDir: options.cache }),
      ...(run.replay === null ? {} : { replay: run.replay }),
      ...(run.recording === null ? {} : { recording: run.recording }),
      onProgress: (event) => {
        if (event.type === "warning") io.err(`warning: ${event.message}\n`);
        if (event.type === "start") sink?.start(event.runName ?? defaultRunName());
        if (event.type === "start" && event.resumed > 0)
          io.err(`resuming: ${event.resumed} of ${event.total} executions already done\n`);
        if (event.type === "execution") for (const row of event.rows) sink?.add(row);
        if (event.type === "execution" && options.progress !== false) io.err(`${executionLine(event)}\n`);
      },
    }),
  );
  const { summary } = result;
  if (summary.aborted) {
    io.err(`interrupted; resume with:\n  ${run.resumeCommand}\n`);
    throw new CliExit(EXIT.interrupted);
  }
  const written = await writeExport(result, options, startTime);
  const { stats } = summary;
  io.err(
    `${summary.runName ?? "scenario run"}: ${summary.total} executions (${summary.completed} completed, ${summary.limitReached} at the turn limit, ${summary.errored} stopped on a failure) · ${summary.turns} turns · ${stats.calls} LLM calls · ${summary.seconds.toFixed(1)} s${summary.resumed > 0 ? ` · ${summary.resumed} resumed` : ""}${written === undefined ? "" : ` · results: ${written}`}\n`,
  );
  io.out(
    await resultsReport(
      {
        file: written ?? "verify",
        format: "jsonl",
        kind: written === undefined ? "results not written to a file (no --output)" : "verify run",
        results: result.results,
        notes: [],
        skippedLines: 0,
        scenarios: scenarioRecordsFromRows(result.results, result.executions),
      },
      { colour: io.colour, json: options.json === true },
    ),
  );
  if (sink !== null) {
    const stored = await sink.finish(summary);
    if (stored !== null)
      io.err(`saved run ${stored.runName} (${stored.processedCount} results) in ${sink.database}\n`);
  }
  return result;
}
