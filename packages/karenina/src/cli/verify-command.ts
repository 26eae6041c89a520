import { type Command, Option } from "commander";
import { Benchmark, selectQuestions } from "../benchmark/index.js";
import { type ManualTraces, readManualTracesFile } from "../llm/index.js";
import {
  ConfigError,
  dumpVerificationConfig,
  loadPreset,
  loadPriceTable,
  type ModelConfigInput,
  parseModelSpec,
  parseVerificationConfig,
  type RunSummary,
  SECRET_MASK,
} from "../pipeline/index.js";
import { DEFAULT_DB_FILE, openStorage } from "../storage/index.js";
import { TEMPLATE_ISOLATIONS, type TemplateIsolation } from "../templates/index.js";
import {
  AGENTIC_HELP,
  type AgenticOptions,
  addAgenticConfigOptions,
  addAgenticRunOptions,
  agenticRunOptions,
  applyAgenticOptions,
  checkAgenticRun,
} from "./agentic-options.js";
import { BUNDLED_EXAMPLE_CONFIG, BUNDLED_RECORDINGS } from "./bundled-example.js";
import { BUNDLED_EXAMPLE, type CliIo, CliUsageError, EXIT_CODES_HELP } from "./cli-io.js";
import { type CommandSession, commandSession } from "./command-session.js";
import { configErrorInFlagTerms } from "./config-flags.js";
import { DbRunSink } from "./db-runs.js";
import { RECORDED_DRY_RUN_NOTE, runDryRun } from "./dry-run-report.js";
import { runInteractively, runResultsReport, verifyReportOptions } from "./interactive-run.js";
import { assertModelsReachable } from "./preflight.js";
import { startPythonSandboxEarly } from "./python-sandbox-start.js";
import { QUESTION_SELECTOR_HELP, selectBenchmarkQuestions } from "./question-selector.js";
import { OUTCOME_HELP } from "./results-report.js";
import { endRun, SystemFailures } from "./run-outcome.js";
import { refuseToAppend, runOutput } from "./run-output.js";
import { NothingToVerifyError, skippedSummary, skippedText } from "./skipped-questions.js";

/** Options of `karenina verify`, as commander gives them. */
export interface VerifyOptions extends AgenticOptions {
  db?: string;
  isolation?: TemplateIsolation;
  answering?: string[];
  parsing?: string[];
  preset?: string;
  replicates?: number;
  concurrency?: number;
  mode?: "template_only" | "template_and_rubric" | "rubric_only";
  output?: string;
  resume?: boolean;
  cache?: string;
  prices?: string;
  abstention?: boolean;
  sufficiency?: boolean;
  deepJudgment?: "disabled" | "reasoning_only" | "full";
  endpointKeyEnv?: string;
  manualTraces?: string;
  refreshCache?: boolean;
  endpointLimit?: string[];
  question?: string[];
  progress?: boolean;
  failUnder?: number;
  dryRun?: boolean;
  json?: boolean;
  includeDrafts?: boolean;
  preflight?: boolean;
}

/**
 * The most replicates a run takes: more is almost always a typo, and its dry run alone would walk every task
 * for minutes.
 */
export const MAX_REPLICATES = 1_000;

const ENDPOINT_INTERFACES = new Set(["openai_endpoint", "openai", "google", "openrouter"]);

/** Turns a model SPEC into a model config; `openai_endpoint` keys come from `--endpoint-key-env` only. */
export function modelFromSpec(
  spec: string,
  env: NodeJS.ProcessEnv,
  keyEnv: string | undefined,
  manualTraces: ManualTraces | null = null,
): ModelConfigInput {
  if (spec === "manual" || spec.startsWith("manual:")) {
    if (manualTraces === null) {
      throw new CliUsageError(
        `model ${JSON.stringify(spec)}: the manual interface needs --manual-traces FILE`,
      );
    }
    return { interface: "manual", manual_traces: manualTraces } as ModelConfigInput;
  }
  const parsed = parseModelSpec(spec);
  const model: Record<string, unknown> = {
    id: parsed.modelName,
    model_name: parsed.modelName,
    interface: parsed.interface,
  };
  if (parsed.baseUrl !== null) {
    model[
      parsed.interface === "anthropic" || parsed.interface === "claude_tool"
        ? "anthropic_base_url"
        : "endpoint_base_url"
    ] = parsed.baseUrl;
  } else if (parsed.interface === "openai_endpoint") {
    throw new CliUsageError(
      `model ${JSON.stringify(spec)}: openai_endpoint needs @base_url, e.g. openai_endpoint:llama3.1@http://127.0.0.1:11434/v1`,
    );
  }
  if (parsed.interface === "openai_endpoint") {
    const key = keyEnv === undefined ? undefined : env[keyEnv];
    if (keyEnv !== undefined && !key) throw new CliUsageError(`--endpoint-key-env: ${keyEnv} is not set`);
    // Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the client must send one.
    model.endpoint_api_key = key ?? "not-needed";
  }
  if (
    !ENDPOINT_INTERFACES.has(parsed.interface) &&
    parsed.baseUrl !== null &&
    parsed.interface !== "anthropic"
  ) {
    throw new CliUsageError(`model ${JSON.stringify(spec)}: interface ${parsed.interface} takes no base URL`);
  }
  return model as ModelConfigInput;
}

/**
 * A preset's `openai_endpoint` models with their key given again: presets never store keys (they hold the
 * mask), so the key comes from `--endpoint-key-env`, or the placeholder local servers accept.
 */
function withEndpointKeys(
  config: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  keyEnv: string | undefined,
): Record<string, unknown> {
  const key = keyEnv === undefined ? "not-needed" : env[keyEnv];
  if (keyEnv !== undefined && !key) throw new CliUsageError(`--endpoint-key-env: ${keyEnv} is not set`);
  const resupply = (models: unknown) =>
    Array.isArray(models)
      ? models.map((model: Record<string, unknown>) =>
          model.interface === "openai_endpoint" &&
          (model.endpoint_api_key == null || model.endpoint_api_key === SECRET_MASK)
            ? { ...model, endpoint_api_key: key }
            : model,
        )
      : models;
  return {
    ...config,
    answering_models: resupply(config.answering_models),
    parsing_models: resupply(config.parsing_models),
  };
}

/** No checkpoint and no models: the bundled example, answered and judged from its recorded example responses. */
function usesRecordedExample(checkpoint: string | undefined, options: VerifyOptions): boolean {
  return checkpoint === undefined && !options.answering && !options.parsing && options.preset === undefined;
}

/**
 * The run config from verify's flags: the bundled example's (`recorded`), else the `--preset` one, else empty;
 * then the model flags and the other config flags on top. Also used by `karenina preset save`.
 * @throws {CliUsageError} when a model is missing or a model SPEC is unusable.
 */
export async function buildConfig(options: VerifyOptions, env: NodeJS.ProcessEnv, recorded: boolean) {
  const base = recorded
    ? BUNDLED_EXAMPLE_CONFIG
    : options.preset === undefined
      ? {}
      : withEndpointKeys(
          dumpVerificationConfig((await loadPreset(options.preset, { env })).config),
          env,
          options.endpointKeyEnv,
        );
  const input: Record<string, unknown> = { ...base };
  const traces = options.manualTraces === undefined ? null : await readManualTracesFile(options.manualTraces);
  const models = (specs: string[] | undefined) =>
    specs?.map((spec) => modelFromSpec(spec, env, options.endpointKeyEnv, traces));
  const answering = models(options.answering);
  const parsing = models(options.parsing);
  if (answering) input.answering_models = answering;
  if (parsing) input.parsing_models = parsing;
  if (!input.parsing_models)
    throw new CliUsageError("give at least one --parsing model (or a --preset that has one)");
  if (!input.answering_models)
    throw new CliUsageError("give at least one --answering model (or a --preset that has one)");
  if (options.replicates !== undefined) input.replicate_count = options.replicates;
  if (options.mode !== undefined) input.evaluation_mode = options.mode;
  if (options.abstention) input.abstention_enabled = true;
  if (options.sufficiency) input.sufficiency_enabled = true;
  if (options.deepJudgment !== undefined) input.deep_judgment_mode = options.deepJudgment;
  if (options.concurrency !== undefined) {
    input.async_enabled = true;
    input.async_max_workers = options.concurrency;
    input.max_concurrent_requests = options.concurrency;
  }
  applyAgenticOptions(input, options);
  try {
    return parseVerificationConfig(input, { env });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const fromFlags = Object.keys(input).filter(
      (field) => input[field] !== (base as Record<string, unknown>)[field],
    );
    throw configErrorInFlagTerms(error, {
      fromFlags: new Set(fromFlags),
      given: new Set(Object.keys(input)),
      specs: {
        ...(options.answering === undefined ? {} : { answering_models: options.answering }),
        ...(options.parsing === undefined ? {} : { parsing_models: options.parsing }),
      },
      preset: options.preset,
      env,
    });
  }
}

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

/** Commander's parser for an integer option of at least `min` (and at most `max`, when given). */
export function integer(name: string, min: number, max?: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new CliUsageError(`${name}: expected an integer >= ${min}, found ${JSON.stringify(value)}`);
    if (max !== undefined && n > max)
      throw new CliUsageError(`${name}: at most ${max.toLocaleString("en-US")}, found ${value}`);
    return n;
  };
}

/** Commander's accumulator for a repeatable option. */
export const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** `--endpoint-limit url=n` values as a map. */
function endpointLimits(values: readonly string[]): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const value of values) {
    const at = value.lastIndexOf("=");
    const limit = Number(value.slice(at + 1));
    if (at <= 0 || !Number.isInteger(limit) || limit < 1) {
      throw new CliUsageError(`--endpoint-limit: expected URL=N with N >= 1, found ${JSON.stringify(value)}`);
    }
    limits[value.slice(0, at)] = limit;
  }
  return limits;
}

/** The one-line run summary printed to stderr. */
export function summaryLine(summary: RunSummary, output: string | undefined): string {
  const cost =
    summary.costUsd > 0 || summary.unpricedCalls === 0 ? `$${summary.costUsd.toFixed(4)}` : "cost unknown";
  const parts = [
    `${summary.runName}: ${summary.completed + summary.resumed}/${summary.total} done`,
    `${summary.passed} passed, ${summary.failed} failed${summary.taskErrors > 0 ? `, ${summary.taskErrors} errors` : ""}`,
    `${summary.calls} LLM calls${summary.replayedCalls > 0 ? ` (${summary.replayedCalls} replayed from recordings)` : ""}, ${summary.cacheHits} cache hits`,
    `${summary.inputTokens} in / ${summary.outputTokens} out tokens, ${cost}${summary.unpricedCalls > 0 && summary.costUsd > 0 ? "+ (some models unpriced)" : ""}`,
    `${summary.seconds.toFixed(1)} s`,
  ];
  if (summary.resumed > 0) parts.push(`${summary.resumed} resumed`);
  if (output !== undefined) parts.push(`results: ${output}`);
  return parts.join(" · ");
}

function resumeCommand(args: readonly string[]): string {
  const quoted = args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`));
  return ["karenina", ...quoted, ...(args.includes("--resume") ? [] : ["--resume"])].join(" ");
}

/**
 * The options that shape a run's config, shared by `verify` and `preset save`: models, replicates,
 * concurrency, evaluation mode, the optional checks, the endpoint key's variable and the agentic options.
 */
export function addConfigOptions(command: Command): Command {
  command
    .option("-a, --answering <spec>", "answering model interface:model[@base_url] (repeatable)", collect)
    .option("-p, --parsing <spec>", "judge (parsing) model interface:model[@base_url] (repeatable)", collect)
    .option(
      "-r, --replicates <n>",
      `runs per question and model pair (1 to ${MAX_REPLICATES})`,
      integer("--replicates", 1, MAX_REPLICATES),
    )
    .option(
      "-c, --concurrency <n>",
      "tasks and LLM calls in flight (default: the config's, 2 tasks / 16 calls)",
      integer("--concurrency", 1),
    )
    .addOption(
      new Option("-m, --mode <mode>", "what to evaluate").choices([
        "template_only",
        "template_and_rubric",
        "rubric_only",
      ]),
    )
    .option("--abstention", "detect refusals before parsing")
    .option("--sufficiency", "check that the answer holds what the template needs before parsing")
    .addOption(
      new Option("--deep-judgment <mode>", "template deep judgment").choices([
        "disabled",
        "reasoning_only",
        "full",
      ]),
    )
    .option("--endpoint-key-env <var>", "environment variable holding the API key of openai_endpoint models");
  return addAgenticConfigOptions(command);
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
      .argument("[checkpoint]", "benchmark checkpoint (.jsonld); default: the bundled example benchmark"),
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
      "exit 1 when the pass rate (passed / verified, in %, as the summary tables show it) is below this, e.g. 80: for CI",
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
  addAgenticRunOptions(verify)
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

Only finished questions are verified: drafts (imported without --finished), questions without a template
and questions whose template does not load are left out, and the plan and the run say which, why, and the
command that brings them in (karenina checkpoint finish FILE --questions IDS|all). A run that would verify
no question stops with exit code 2. Before the first LLM call, each answering and parsing model is checked
(preflight): its API key is set and its endpoint answers GET <base>/models within 5 s without refusing the
key; a model that fails stops the run with exit code 2 (--no-preflight skips the check).
${EXIT_CODES_HELP}`,
    )
    .addHelpText("after", AGENTIC_HELP)
    .action(async (checkpoint: string | undefined, options: VerifyOptions) => {
      if (options.resume && options.output === undefined)
        throw new CliUsageError("--resume needs --output (the run log to continue)");
      if (options.json && !options.dryRun) throw new CliUsageError("--json needs --dry-run");
      const recorded = usesRecordedExample(checkpoint, options);
      if (recorded) {
        io.err(
          `No checkpoint given: verifying the bundled example ${BUNDLED_EXAMPLE}\n` +
            `with its recorded example responses (${BUNDLED_RECORDINGS}): written by hand for this demo, not produced by\n` +
            "any model. No API key or network is used. Give --answering and --parsing models to run it live.\n\n",
        );
      }
      const config = await buildConfig(options, env, recorded);
      if (config.replicate_count > MAX_REPLICATES) {
        throw new CliUsageError(
          `replicates: at most ${MAX_REPLICATES.toLocaleString("en-US")}, found ${config.replicate_count} (replicate_count of --preset ${options.preset}); lower it with --replicates N`,
        );
      }
      checkAgenticRun(config, options);
      const limits = options.endpointLimit === undefined ? undefined : endpointLimits(options.endpointLimit);
      const benchmark = await Benchmark.load(checkpoint ?? BUNDLED_EXAMPLE, { isolation: options.isolation });
      // Ids, indexes and starts of question texts, as ids from here on.
      if (options.question !== undefined)
        options.question = selectBenchmarkQuestions(
          benchmark,
          options.question,
          checkpoint ?? BUNDLED_EXAMPLE,
        );
      startPythonSandboxEarly(benchmark, config, io, session, {
        ...(options.question === undefined ? {} : { questionIds: options.question }),
        includeDrafts: options.includeDrafts === true,
      });
      const prices = options.prices === undefined ? undefined : await loadPriceTable(options.prices);
      if (options.dryRun) {
        await runDryRun(io, {
          benchmark,
          checkpoint: checkpoint ?? BUNDLED_EXAMPLE,
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
          ...(recorded ? { notes: [RECORDED_DRY_RUN_NOTE] } : {}),
        });
        return;
      }
      const output = options.output === undefined ? null : runOutput(options.output);
      if (output !== null && !options.resume) await refuseToAppend(output);
      const target = checkpoint ?? BUNDLED_EXAMPLE;
      const selection = await selectQuestions(benchmark, config, {
        unusable: "skip",
        includeDrafts: options.includeDrafts === true,
        ...(options.question === undefined ? {} : { questionIds: options.question }),
      });
      const questionsGiven = { questionsGiven: options.question !== undefined };
      if (selection.questions.length === 0)
        throw new NothingToVerifyError(target, selection.skipped, questionsGiven);
      for (const line of skippedText(selection.skipped, target, questionsGiven)) io.err(`${line}\n`);
      if (!recorded && options.preflight !== false) await assertModelsReachable(config, { env });
      const systemFailures = new SystemFailures();
      const storage = options.db === undefined ? null : await openStorage(options.db);
      const sink = storage === null ? null : await DbRunSink.open(storage, benchmark, config);
      try {
        const run = await runInteractively(benchmark, config, io, {
          output,
          progress: options.progress !== false,
          sink,
          onResult: (result) => systemFailures.add(result),
          run: {
            questions: selection.questions,
            startedAt: session.startedAt,
            ...(options.resume ? { resume: true } : {}),
            ...(options.cache === undefined ? {} : { cacheDir: options.cache }),
            ...(options.refreshCache ? { cacheMode: "refresh" as const } : {}),
            ...(limits === undefined ? {} : { endpointLimits: limits }),
            ...(recorded ? { recording: { dir: BUNDLED_RECORDINGS, mode: "replay" as const } } : {}),
            ...(prices === undefined ? {} : { prices }),
            ...agenticRunOptions(options),
          },
        });
        const written = output === null ? undefined : run.summary.aborted ? output.runLog : options.output;
        const skipped = selection.skipped.length === 0 ? "" : ` · ${skippedSummary(selection.skipped)}`;
        io.err(`${summaryLine(run.summary, written)}${skipped}\n`);
        io.out(await runResultsReport(run, benchmark, verifyReportOptions(run, written, options, io)));
        if (sink !== null) {
          const stored = await sink.finish(run.summary);
          if (stored !== null)
            io.err(`saved run ${stored.runName} (${stored.processedCount} results) in ${sink.database}\n`);
        }
        for (const failure of run.failures.slice(0, 5))
          io.err(`task ${failure.task.key.replace(/\t/g, " | ")} failed: ${String(failure.error)}\n`);
        endRun(io.err, run, {
          systemFailures,
          resumeCommand: resumeCommand(rawArgs),
          ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
        });
      } finally {
        await storage?.close();
      }
    });
}
