import type { Command } from "commander";
import { Option } from "commander";
import { Benchmark, selectQuestions } from "../benchmark/index.js";
import type { ReplayStore } from "../llm/index.js";
import { loadPriceTable, savePreset, usesAgentPort, type VerificationConfig } from "../pipeline/index.js";
import { DEFAULT_DB_FILE, openStorage } from "../storage/index.js";
import { TEMPLATE_ISOLATIONS } from "../templates/index.js";
import { AGENTIC_HELP, addAgenticRunOptions, agenticRunOptions, checkAgenticRun } from "./agentic-options.js";
import { BUNDLED_RECORDINGS } from "./bundled-example.js";
import { BUNDLED_EXAMPLE, type CliIo, CliUsageError, EXIT_CODES_HELP } from "./cli-io.js";
import { type CommandSession, commandSession } from "./command-session.js";
import { DbRunSink } from "./db-runs.js";
import {
  addDistributedOptions,
  checkDistributedFlags,
  DISTRIBUTED_HELP,
  type DistributedFlags,
  endpointLimitsOf,
} from "./distributed-flags.js";
import { RECORDED_DRY_RUN_NOTE, runDryRun } from "./dry-run-report.js";
import { runInteractively, runResultsReport, verifyReportOptions } from "./interactive-run.js";
import { defaultCaptureDir } from "./original-flags.js";
import { assertModelsReachable } from "./preflight.js";
import { startPythonSandboxEarly } from "./python-sandbox-start.js";
import { QUESTION_SELECTOR_HELP, selectBenchmarkQuestions } from "./question-selector.js";
import {
  addRecordingOptions,
  checkRecordingFlags,
  RECORDING_HELP,
  REPLAYED_DRY_RUN_NOTE,
  type RecordingRun,
  ReplayMisses,
  recordingRun,
} from "./recording-flags.js";
import { OUTCOME_HELP } from "./results-report.js";
import { makeRunDirectory, planRunDirectory, type RunDirectory, RunManifestWriter } from "./run-directory.js";
import { endRun, SystemFailures, summaryLine } from "./run-outcome.js";
import { refuseToAppend, runOutput } from "./run-output.js";
import { writeRunTraces } from "./run-traces.js";
import { verifyScenarios } from "./scenario-verify.js";
import { NothingToVerifyError, skippedSummary, skippedText } from "./skipped-questions.js";
import {
  addConfigOptions,
  buildConfigWithNotes,
  collect,
  MAX_REPLICATES,
  usesRecordedExample,
  type VerifyOptions,
} from "./verify-config.js";
import { addExtendOptions, EXTEND_HELP, type ExtendFlags, verifyExtend } from "./verify-extend.js";
import {
  addOriginalRunOptions,
  applyWizard,
  checkRunFlags,
  loadReplay,
  resolveQuestionFlags,
} from "./verify-run-flags.js";

export { integer } from "./option-parsers.js";
export { summaryLine } from "./run-outcome.js";
export {
  addConfigOptions,
  buildConfig,
  buildConfigWithNotes,
  collect,
  MAX_REPLICATES,
  modelFromSpec,
  type VerifyOptions,
} from "./verify-config.js";

/** Commander's parser for a percentage (0 to 100). */
function percentage(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100) {
    throw new CliUsageError(
      `--fail-under: expected a pass rate in % from 0 to 100, found ${JSON.stringify(value)}`,
    );
  }
  return n;
}

function resumeCommand(args: readonly string[]): string {
  const quoted = args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`));
  return ["karenina", ...quoted, ...(args.includes("--resume") ? [] : ["--resume"])].join(" ");
}

/** `karenina verify`. */
export function registerVerifyCommand(
  program: Command,
  io: CliIo,
  rawArgs: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  session: CommandSession = commandSession().session,
): void {
  const verify = addConfigOptions(
    program
      .command("verify")
      .description(
        "Run a benchmark: every finished question against each answering model, judged by each parsing model",
      )
      .argument("[checkpoint]", "benchmark checkpoint (.jsonld); default: the bundled example benchmark")
      // Extra operands are refused by checkRunFlags, which can say what the original's forms mean here.
      .allowExcessArguments(true),
  )
    .option("--preset <name>", "start from a saved preset (name or path); flags override it")
    .option(
      "-o, --output <file>",
      "results file: .jsonl is appended to as each result finishes; .json (format v2.2) or .csv is written at the end, from <file>.results.jsonl kept beside it meanwhile. A run log that already holds results is refused unless --resume",
    )
    .option("--resume", "continue the run in --output: skip the tasks whose results are already there")
    .option(
      "--cache <dir>",
      "cache LLM responses in this directory (reruns with the same inputs make no calls)",
    )
    .option("--refresh-cache", "with --cache: call the models anyway and overwrite the cached responses")
    .option(
      "--endpoint-limit <url=n>",
      "at most n calls in flight to this base URL (repeatable), e.g. http://127.0.0.1:11434/v1=4",
      collect,
    )
    .option("--manual-traces <file>", 'answers for "-a manual": a JSON object {md5(question text): trace}')
    .option(
      "--prices <file>",
      "JSON price table overriding the built-in one: {model: {input_per_million, output_per_million}}",
    )
    .option(
      "-q, --question <question>",
      `verify only this question: ${QUESTION_SELECTOR_HELP} (repeatable)`,
      collect,
    )
    .option("--include-drafts", "verify unfinished questions (drafts) too")
    .option("--no-preflight", "skip the check of each model's key and endpoint before the first call")
    .option("--no-progress", "no progress bar")
    .option(
      "--db <url>",
      `also save the benchmark, the run and each result as it finishes into a database: a SQLite file (e.g. ${DEFAULT_DB_FILE}) or postgres://user:pass@host/db`,
    )
    .option(
      "--fail-under <pass-rate>",
      "exit 1 when the pass rate (passed / (passed + failed), in %, as every summary shows it) is below this, e.g. 80: for CI",
      percentage,
    )
    .option(
      "--dry-run",
      "call nothing and write nothing: print the tasks, LLM calls, estimated tokens and cost per model",
    )
    .option("--json", "with --dry-run: print the plan as JSON")
    .addOption(
      new Option(
        "--isolation <mode>",
        "how far apart the checkpoint's Python code runs: checkpoint (its own interpreter, reset between questions) or strict (reset before every evaluation)",
      )
        .choices(TEMPLATE_ISOLATIONS)
        .default("checkpoint"),
    );
  addExtendOptions(
    addDistributedOptions(addAgenticRunOptions(addRecordingOptions(addOriginalRunOptions(verify)))),
  )
    .addHelpText(
      "after",
      `
Model SPECs: interface:model[@base_url]
  openai_endpoint:llama3.1@http://127.0.0.1:11434/v1   any OpenAI-compatible server (Ollama, vLLM, llama.cpp)
  openai:gpt-4.1-mini                                   OPENAI_API_KEY
  anthropic:claude-haiku-4-5                            ANTHROPIC_API_KEY
  google:gemini-2.5-flash                               GOOGLE_GENERATIVE_AI_API_KEY
  openrouter:meta-llama/llama-3.1-8b-instruct           OPENROUTER_API_KEY
  manual  (with --manual-traces FILE)                   pre-recorded answers keyed by the MD5 of the question

Examples:
  karenina verify                                  # the bundled example, from recorded example responses, offline
  karenina verify -a openai:gpt-4.1-mini -p openai:gpt-4.1-mini      # the bundled example, live
  karenina verify bench.jsonld -a openai_endpoint:llama3.1@http://127.0.0.1:11434/v1 \\
      -p openai_endpoint:llama3.1@http://127.0.0.1:11434/v1 -o run.jsonl
  karenina verify bench.jsonld -a openai:gpt-4.1-mini -a anthropic:claude-haiku-4-5 -p openai:gpt-4.1-mini \\
      --mode template_and_rubric --replicates 3 -o run.jsonl
  karenina verify bench.jsonld --preset nightly -o run.jsonl --resume     # continue an interrupted run
  karenina verify bench.jsonld --preset nightly -o run.jsonl --db karenina.db   # and keep it in SQLite
  karenina verify bench.jsonld -a openai:gpt-4.1-mini -p openai:gpt-4.1 --abstention --dry-run \\
      --cache .karenina-cache        # calls, tokens and cost before spending anything

Each finished result is appended to the run log as one JSON line (the original's result shape): --output
itself for .jsonl, <output>.results.jsonl for a .json or .csv export written when the run completes. A run
log that already holds results is never appended to by a new run: continue it with --resume, or choose
another --output. A summary line goes to stderr. Ctrl-C stops cleanly: finished results are kept and the command to resume is printed.

The run ends with the summary tables of karenina results on stdout (pass rate, by model pair, failures by
category with their most common reasons, rubric traits, tokens and cost; coloured on a terminal, not when
piped or with NO_COLOR); karenina show RUN QUESTION prints one result in full.
${OUTCOME_HELP}
-q/--question takes ${QUESTION_SELECTOR_HELP}.
The Python original's flags work too, applied only when given (docs/verify-flags.md maps each one):
  karenina verify bench.jsonld --preset nightly --questions 0-5,8 --temperature 0 --run-root runs
  karenina verify bench.jsonld --interactive --mode advanced      # a guided prompt for questions, models, options

Only finished questions are verified: drafts (imported without --finished), questions without a template
and questions whose template does not load are left out, and the plan and the run say which, why, and the
command that brings them in (karenina checkpoint finish FILE --questions IDS|all). A run that would verify
no question stops with exit code 2. Before the first LLM call, each answering and parsing model is checked
(preflight): its API key is set and its endpoint answers GET <base>/models within 5 s without refusing the
key; a model that fails stops the run with exit code 2 (--no-preflight skips the check).
${EXIT_CODES_HELP}`,
    )
    .addHelpText("after", AGENTIC_HELP)
    .addHelpText("after", RECORDING_HELP)
    .addHelpText("after", DISTRIBUTED_HELP)
    .addHelpText("after", EXTEND_HELP)
    .action(
      (
        checkpoint: string | undefined,
        options: VerifyOptions & DistributedFlags & ExtendFlags,
        command: Command,
      ) => verifyAction(checkpoint, command.args.slice(1), options, { io, rawArgs, env, session }),
    );
}

/** What the action of `verify` gets from its registration. */
interface VerifyContext {
  io: CliIo;
  rawArgs: readonly string[];
  env: NodeJS.ProcessEnv;
  session: CommandSession;
}

/** `-q`, `--question-ids` and `--questions` as question ids in `options.question`. */
function chooseQuestions(benchmark: Benchmark, options: VerifyOptions, target: string): void {
  resolveQuestionFlags(benchmark, options, target);
  // Ids, indexes and starts of question texts, as ids from here on.
  if (options.question !== undefined)
    options.question = selectBenchmarkQuestions(benchmark, options.question, target);
}

/** Where a capture mode given without a directory captures: the run directory's, or beside a .json output. */
function defaultCapture(options: VerifyOptions, runDirectory: RunDirectory | null): void {
  const mode = options.captureWorkspaces ?? options.workspaceOutputMode;
  if (
    mode === undefined ||
    mode === "none" ||
    options.captureDir !== undefined ||
    options.workspaceOutputDir !== undefined
  )
    return;
  const dir = defaultCaptureDir(runDirectory?.path ?? null, options.output);
  if (dir !== undefined) options.captureDir = dir;
}

async function verifyAction(
  checkpoint: string | undefined,
  extra: readonly string[],
  options: VerifyOptions & DistributedFlags & ExtendFlags,
  context: VerifyContext,
): Promise<void> {
  const { io, env } = context;
  checkRunFlags(checkpoint, extra, options);
  const target = checkpoint ?? BUNDLED_EXAMPLE;
  let benchmark: Benchmark | null = null;
  if (options.interactive) {
    benchmark = await Benchmark.load(target, { isolation: options.isolation });
    chooseQuestions(benchmark, options, target);
    await applyWizard(benchmark, options, io);
  }
  const recorded = usesRecordedExample(checkpoint, options);
  checkRecordingFlags(options, recorded);
  checkDistributedFlags(options, recorded);
  if (recorded) {
    io.err(
      `No checkpoint given: verifying the bundled example ${BUNDLED_EXAMPLE}\n` +
        `with its recorded example responses (${BUNDLED_RECORDINGS}): written by hand for this demo, not produced by\n` +
        "any model. No API key or network is used. Give --answering and --parsing models to run it live.\n\n",
    );
  }
  const runDirectory =
    options.runRoot === undefined ? null : planRunDirectory(options.runRoot, options.runLabel);
  if (runDirectory !== null) options.output = runDirectory.results;
  defaultCapture(options, runDirectory);
  const { config, notes } = await buildConfigWithNotes(options, env, recorded);
  for (const note of notes) io.err(`${note}\n`);
  if (config.replicate_count > MAX_REPLICATES) {
    throw new CliUsageError(
      `replicates: at most ${MAX_REPLICATES.toLocaleString("en-US")}, found ${config.replicate_count} (replicate_count of --preset ${options.preset}); lower it with --replicates N`,
    );
  }
  checkAgenticRun(config, options);
  for (const warning of unusedCommandsWarning(config, options)) io.err(`warning: ${warning}\n`);
  if (options.wizard?.presetName != null) {
    const file = await savePreset(config, options.wizard.presetName, { env });
    io.err(`saved preset "${options.wizard.presetName}" to ${file}\n`);
  }
  if (benchmark === null) {
    benchmark = await Benchmark.load(target, { isolation: options.isolation });
    chooseQuestions(benchmark, options, target);
  }
  if (benchmark.isScenarioBenchmark && options.extend === undefined)
    return scenarioRun(benchmark, config, options, context, { target, runDirectory });
  startPythonSandboxEarly(benchmark, config, io, context.session, {
    ...(options.question === undefined ? {} : { questionIds: options.question }),
    includeDrafts: options.includeDrafts === true,
  });
  if (options.extend !== undefined) {
    await verifyExtend(benchmark, config, options, io, context.session.startedAt);
    return;
  }
  const replay = await loadReplay(options);
  const recording = await recordingRun(options);
  if (options.dryRun) return dryRun(benchmark, config, options, { io, target, recorded, replay, recording });
  return liveRun(benchmark, config, options, context, {
    target,
    recorded,
    replay,
    recording,
    runDirectory,
  });
}

/**
 * `--allow-commands` reaches only answering models that work as agents in a workspace: with agentic parsing, MCP
 * servers or a deep agent. Says so when none does (the run then offers `run_command` to no one).
 */
function unusedCommandsWarning(config: VerificationConfig, options: VerifyOptions): string[] {
  if (options.allowCommands !== true || config.agentic_parsing) return [];
  if (config.answering_models.some((model) => usesAgentPort(model))) return [];
  return [
    "--allow-commands: no answering model works as an agent here (tools come with --agentic-parsing, MCP servers or a deep agent), so no model is offered run_command",
  ];
}

/** A scenario benchmark runs its scenarios (see `verifyScenarios`); the QA-only flags are refused. */
async function scenarioRun(
  benchmark: Benchmark,
  config: VerificationConfig,
  options: VerifyOptions & DistributedFlags,
  context: VerifyContext,
  { target, runDirectory }: { target: string; runDirectory: RunDirectory | null },
): Promise<void> {
  for (const [flag, given] of [
    ["--dry-run", options.dryRun],
    ["--distributed", options.distributed],
  ] as const) {
    if (given)
      throw new CliUsageError(`${target} holds scenarios: ${flag} is not available for scenario runs yet`);
  }
  const replay = await loadReplay(options);
  const recording = await recordingRun(options);
  if (recording?.mode !== "replay" && options.preflight !== false)
    await assertModelsReachable(config, { env: context.env });
  return verifyScenarios(benchmark, config, options, context.io, {
    target,
    replay,
    recording,
    runDirectory,
    resumeCommand: resumeCommand(context.rawArgs),
  });
}

async function dryRun(
  benchmark: Benchmark,
  config: VerificationConfig,
  options: VerifyOptions,
  run: {
    io: CliIo;
    target: string;
    recorded: boolean;
    replay: ReplayStore | null;
    recording: RecordingRun | null;
  },
): Promise<void> {
  const prices = options.prices === undefined ? undefined : await loadPriceTable(options.prices);
  await runDryRun(run.io, {
    benchmark,
    checkpoint: run.target,
    config,
    ...agenticRunOptions(options),
    json: options.json === true,
    ...(options.question === undefined ? {} : { questionIds: options.question }),
    ...(options.includeDrafts ? { includeDrafts: true } : {}),
    ...(options.cache === undefined ? {} : { cacheDir: options.cache }),
    ...(prices === undefined || options.prices === undefined
      ? {}
      : { prices: { table: prices, file: options.prices } }),
    ...(options.resume && options.output !== undefined
      ? { resumeLog: runOutput(options.output).runLog }
      : {}),
    ...(run.recorded ? { notes: [RECORDED_DRY_RUN_NOTE] } : {}),
    ...(run.recording?.mode === "replay" ? { notes: [REPLAYED_DRY_RUN_NOTE] } : {}),
    ...(run.replay === null ? {} : { replay: run.replay }),
  });
}

async function liveRun(
  benchmark: Benchmark,
  config: VerificationConfig,
  options: VerifyOptions & DistributedFlags,
  context: VerifyContext,
  run: {
    target: string;
    recorded: boolean;
    replay: ReplayStore | null;
    recording: RecordingRun | null;
    runDirectory: RunDirectory | null;
  },
): Promise<void> {
  const { io, env } = context;
  const { target, recorded, runDirectory } = run;
  // The bundled example replays its own recordings; --record / --replay-recordings give a run's.
  const recording = recorded ? { dir: BUNDLED_RECORDINGS, mode: "replay" as const } : run.recording;
  const prices = options.prices === undefined ? undefined : await loadPriceTable(options.prices);
  const limits = options.endpointLimit === undefined ? undefined : endpointLimitsOf(options.endpointLimit);
  const output = options.output === undefined ? null : runOutput(options.output);
  if (output !== null && !options.resume && runDirectory === null) await refuseToAppend(output);
  const selection = await selectQuestions(benchmark, config, {
    unusable: "skip",
    includeDrafts: options.includeDrafts === true,
    ...(options.question === undefined ? {} : { questionIds: options.question }),
  });
  const questionsGiven = { questionsGiven: options.question !== undefined };
  if (selection.questions.length === 0)
    throw new NothingToVerifyError(target, selection.skipped, questionsGiven);
  for (const line of skippedText(selection.skipped, target, questionsGiven)) io.err(`${line}\n`);
  if (recording?.mode !== "replay" && options.preflight !== false)
    await assertModelsReachable(config, { env });
  if (options.distributed) {
    // The fleet's parts (PostgreSQL, the queue) load only for a distributed run.
    const { runDistributed } = await import("./distributed-run.js");
    return runDistributed(benchmark, config, selection.questions, options, io, context.session.startedAt);
  }
  if (runDirectory !== null) await makeRunDirectory(runDirectory);
  const manifest =
    runDirectory === null
      ? null
      : await RunManifestWriter.start(runDirectory, {
          benchmarkPath: target,
          selectedQuestions: selection.questions.length,
          config,
        });
  const systemFailures = new SystemFailures();
  const misses = new ReplayMisses();
  const storage = options.db === undefined ? null : await openStorage(options.db);
  const sink = storage === null ? null : await DbRunSink.open(storage, benchmark, config);
  try {
    const verification = await runInteractively(benchmark, config, io, {
      output,
      progress: options.progress !== false,
      sink,
      onResult: (result) => {
        systemFailures.add(result);
        misses.add(result);
      },
      run: {
        questions: selection.questions,
        startedAt: context.session.startedAt,
        ...(options.resume ? { resume: true } : {}),
        ...(options.cache === undefined ? {} : { cacheDir: options.cache }),
        ...(options.refreshCache ? { cacheMode: "refresh" as const } : {}),
        ...(limits === undefined ? {} : { endpointLimits: limits }),
        ...(recording === null ? {} : { recording }),
        ...(run.replay === null ? {} : { replay: run.replay }),
        ...(prices === undefined ? {} : { prices }),
        ...agenticRunOptions(options),
      },
    }).catch(async (error: unknown) => {
      await manifest?.finish({ status: "failed", error });
      throw error;
    });
    const { summary } = verification;
    if (runDirectory !== null) await writeRunTraces(runDirectory.traces, verification.results);
    await manifest?.finish({
      status: summary.aborted ? "interrupted" : "completed",
      runName: summary.runName,
    });
    const written = output === null ? undefined : summary.aborted ? output.runLog : options.output;
    const skipped = selection.skipped.length === 0 ? "" : ` · ${skippedSummary(selection.skipped)}`;
    io.err(`${summaryLine(summary, written)}${skipped}\n`);
    if (runDirectory !== null) io.err(`run directory: ${runDirectory.path}\n`);
    io.out(
      await runResultsReport(
        verification,
        benchmark,
        verifyReportOptions(verification, written, options, io),
      ),
    );
    if (sink !== null) {
      const stored = await sink.finish(summary);
      if (stored !== null)
        io.err(`saved run ${stored.runName} (${stored.processedCount} results) in ${sink.database}\n`);
    }
    const shown = options.verbose ? verification.failures : verification.failures.slice(0, 5);
    for (const line of misses.lines(recording?.dir ?? "")) io.err(`${line}\n`);
    for (const failure of shown) {
      const error = failure.error;
      const detail = options.verbose && error instanceof Error && error.stack ? error.stack : String(error);
      io.err(`task ${failure.task.key.replace(/\t/g, " | ")} failed: ${detail}\n`);
    }
    endRun(io.err, verification, {
      systemFailures,
      resumeCommand: resumeCommand(context.rawArgs),
      ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
    });
  } finally {
    await storage?.close();
  }
}
