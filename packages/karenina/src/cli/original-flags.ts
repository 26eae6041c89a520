/**
 * The Python original's `karenina verify` flags that shape the run config (spec 06 §5.1), beside our own:
 * the model overrides (`--answering-model`, `--interface`, ...), `--temperature`, the tri-state switches,
 * the embedding check, rubric deep judgment, the trace flags and the async settings. Only the flags the user
 * passed are applied (spec 06 §5.1.1, "Recommended TS"), on top of the preset or the other flags.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Command, Option } from "commander";
import { isKnownInterface } from "../pipeline/index.js";
import { CliUsageError } from "./cli-io.js";

/**
 * The most replicates a run takes: more is almost always a typo, and its dry run alone would walk every task
 * for minutes.
 */
export const MAX_REPLICATES = 1_000;

/** The `--help` heading of the original's flags, and the default one. */
export const ORIGINAL_FLAGS_GROUP = "Flags of the Python original (spec 06 §5.1), beside ours:";
export const DEFAULT_GROUP = "Options:";

/** Evaluation modes, as `--mode` and `--evaluation-mode` take them. */
export const EVALUATION_MODES = ["template_only", "template_and_rubric", "rubric_only"] as const;
export type EvaluationMode = (typeof EVALUATION_MODES)[number];

/** The wizard's modes (`--interactive --mode basic|advanced`). */
export const WIZARD_MODES = ["basic", "advanced"] as const;
export type WizardMode = (typeof WIZARD_MODES)[number];

const DEEP_JUDGMENT_MODES = ["disabled", "reasoning_only", "full"] as const;
type DeepJudgmentMode = (typeof DEEP_JUDGMENT_MODES)[number];
const RUBRIC_DEEP_JUDGMENT_MODES = ["disabled", "enable_all", "use_checkpoint", "custom"] as const;

/** The config flags of the original, as commander gives them. */
export interface OriginalConfigOptions {
  answeringModel?: string;
  answeringProvider?: string;
  answeringId?: string;
  parsingModel?: string;
  parsingProvider?: string;
  parsingId?: string;
  interface?: string;
  temperature?: number;
  replicateCount?: number;
  evaluationMode?: EvaluationMode;
  embeddingCheck?: boolean;
  embeddingThreshold?: number;
  embeddingModel?: string;
  deepJudgmentRubricMode?: (typeof RUBRIC_DEEP_JUDGMENT_MODES)[number];
  deepJudgmentRubricExcerpts?: boolean;
  deepJudgmentRubricMaxExcerpts?: number;
  deepJudgmentRubricFuzzyThreshold?: number;
  deepJudgmentRubricRetryAttempts?: number;
  deepJudgmentRubricSearch?: boolean;
  deepJudgmentRubricSearchTool?: string;
  deepJudgmentRubricConfig?: string;
  useFullTraceForTemplate?: boolean;
  useFinalMessageForTemplate?: boolean;
  useFullTraceForRubric?: boolean;
  useFinalMessageForRubric?: boolean;
  /** False with `--no-async` (commander's default for a lone `--no-` option is true). */
  async?: boolean;
  asyncWorkers?: number;
  workspaceOutputMode?: "none" | "full" | "produced";
  workspaceOutputDir?: string;
  workspaceOutputExclude?: string[];
}

/** Commander's parser for a number in [min, max] (integers only when `integer`). */
function numberIn(flag: string, min: number, max: number, integer = false) {
  return (value: string): number => {
    const n = Number(value);
    const kind = integer ? "an integer" : "a number";
    if (value.trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max)
      throw new CliUsageError(
        `${flag}: expected ${kind} from ${min} to ${max === Number.MAX_SAFE_INTEGER ? "up" : max}, found ${JSON.stringify(value)}`,
      );
    return n;
  };
}

/** `--deep-judgment [mode]`: a mode, or on its own `full` (the original's flag). */
function deepJudgmentMode(value: string): DeepJudgmentMode {
  if ((DEEP_JUDGMENT_MODES as readonly string[]).includes(value)) return value as DeepJudgmentMode;
  throw new CliUsageError(
    `--deep-judgment: expected ${DEEP_JUDGMENT_MODES.join(", ")} or nothing (full), found ${JSON.stringify(value)}; a checkpoint goes before the flag, or write --deep-judgment=full`,
  );
}

/** `--mode`: an evaluation mode, or with `--interactive` the wizard's `basic` / `advanced`. */
export function modeValue(value: string): EvaluationMode | WizardMode {
  if ((EVALUATION_MODES as readonly string[]).includes(value)) return value as EvaluationMode;
  if ((WIZARD_MODES as readonly string[]).includes(value)) return value as WizardMode;
  throw new CliUsageError(
    `--mode: expected an evaluation mode (${EVALUATION_MODES.join(", ")}) or, with --interactive, ${WIZARD_MODES.join(" or ")}; found ${JSON.stringify(value)}`,
  );
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/**
 * The switches whose positive form `addConfigOptions` defines (`--abstention`, `--sufficiency`), given
 * their negative form so a preset's setting can be turned off; and `--deep-judgment` with an optional mode.
 */
export function addTriStateOptions(command: Command): Command {
  return command
    .option("--abstention", "detect refusals before parsing")
    .option("--no-abstention", "do not detect refusals (overrides a --preset)")
    .option("--sufficiency", "check that the answer holds what the template needs before parsing")
    .option("--no-sufficiency", "do not check sufficiency (overrides a --preset)")
    .addOption(
      new Option(
        "--deep-judgment [mode]",
        "template deep judgment: disabled, reasoning_only or full (alone: full, as in the original)",
      )
        .preset("full")
        .argParser(deepJudgmentMode),
    )
    .addOption(new Option("--no-deep-judgment", "template deep judgment off").preset("disabled"));
}

/** The original's config flags: models, temperature, embedding check, rubric deep judgment, traces, async. */
export function addOriginalConfigOptions(command: Command): Command {
  command.optionsGroup(ORIGINAL_FLAGS_GROUP);
  command
    .option("--answering-model <name>", "answering model name (the original's form; -a SPEC is ours)")
    .option("--answering-provider <provider>", "answering model provider for --interface langchain")
    .option("--answering-id <id>", "answering model id (default answering-1, or the preset model's)")
    .option("--parsing-model <name>", "parsing (judge) model name (the original's form; -p SPEC is ours)")
    .option("--parsing-provider <provider>", "parsing model provider for --interface langchain")
    .option("--parsing-id <id>", "parsing model id (default parsing-1, or the preset model's)")
    .option(
      "--interface <interface>",
      "interface of the models given with --answering-model/--parsing-model, e.g. langchain, openrouter, claude_tool, openai, anthropic, manual (with manual the parser uses langchain)",
    )
    .option(
      "--temperature <float>",
      "sampling temperature of every answering and parsing model (0 to 2)",
      numberIn("--temperature", 0, 2),
    )
    .addOption(
      new Option("--replicate-count <n>", "the original's name of --replicates")
        .argParser(numberIn("--replicate-count", 1, MAX_REPLICATES, true))
        .conflicts("replicates"),
    )
    .addOption(
      new Option("--evaluation-mode <mode>", "the original's name of --mode (evaluation)").choices(
        EVALUATION_MODES,
      ),
    )
    .option(
      "--embedding-check",
      "when the template says wrong, compare the answer by embeddings and ask the judge",
    )
    .option("--no-embedding-check", "no embedding check (overrides a --preset or EMBEDDING_CHECK)")
    .option(
      "--embedding-threshold <float>",
      "similarity (0 to 1) from which the embedding check asks the judge (default 0.85)",
      numberIn("--embedding-threshold", 0, 1),
    )
    .option(
      "--embedding-model <name>",
      "embedding model of the check, served by the parsing model's endpoint",
    )
    .addOption(
      new Option("--deep-judgment-rubric-mode <mode>", "rubric deep judgment").choices(
        RUBRIC_DEEP_JUDGMENT_MODES,
      ),
    )
    .option("--deep-judgment-rubric-excerpts", "rubric deep judgment extracts excerpts (the default)")
    .option("--no-deep-judgment-rubric-excerpts", "rubric deep judgment without excerpts")
    .option(
      "--deep-judgment-rubric-max-excerpts <n>",
      "excerpts per trait (default 7)",
      numberIn("--deep-judgment-rubric-max-excerpts", 1, Number.MAX_SAFE_INTEGER, true),
    )
    .option(
      "--deep-judgment-rubric-fuzzy-threshold <float>",
      "fuzzy match threshold of excerpts, 0 to 1 (default 0.8)",
      numberIn("--deep-judgment-rubric-fuzzy-threshold", 0, 1),
    )
    .option(
      "--deep-judgment-rubric-retry-attempts <n>",
      "excerpt retries per trait (default 2)",
      numberIn("--deep-judgment-rubric-retry-attempts", 0, Number.MAX_SAFE_INTEGER, true),
    )
    .option(
      "--deep-judgment-rubric-search",
      "accepted for the original's scripts; has no effect (search is set per trait)",
    )
    .option("--deep-judgment-rubric-search-tool <name>", "search tool of rubric deep judgment (tavily)")
    .option(
      "--deep-judgment-rubric-config <file>",
      "JSON per-trait settings for --deep-judgment-rubric-mode custom",
    )
    .addOption(
      new Option("--use-full-trace-for-template", "parse the whole answering trace").conflicts(
        "useFinalMessageForTemplate",
      ),
    )
    .option("--use-final-message-for-template", "parse only the final message (the default)")
    .addOption(
      new Option(
        "--use-full-trace-for-rubric",
        "rubric traits see the whole answering trace (the default)",
      ).conflicts("useFinalMessageForRubric"),
    )
    .option("--use-final-message-for-rubric", "rubric traits see only the final message")
    .addOption(
      new Option("--no-async", "run one task at a time (the original's flag)").conflicts("concurrency"),
    )
    .addOption(
      new Option("--async-workers <n>", "tasks run at once (the original's flag; -c also caps LLM calls)")
        .argParser(numberIn("--async-workers", 1, Number.MAX_SAFE_INTEGER, true))
        .conflicts("concurrency"),
    )
    .addOption(
      new Option("--workspace-output-mode <mode>", "the original's name of --capture-workspaces")
        .choices(["none", "full", "produced"])
        .conflicts("captureWorkspaces"),
    )
    .addOption(
      new Option("--workspace-output-dir <dir>", "the original's name of --capture-dir").conflicts(
        "captureDir",
      ),
    )
    .addOption(
      new Option("--workspace-output-exclude <pattern>", "the original's name of --capture-exclude")
        .argParser(collect)
        .conflicts("captureExclude"),
    );
  return command.optionsGroup(DEFAULT_GROUP);
}

/** Whether any of the original's model flags was given (then the bundled example is not the target). */
export function hasOriginalModelFlags(options: OriginalConfigOptions): boolean {
  return [
    options.answeringModel,
    options.answeringProvider,
    options.answeringId,
    options.parsingModel,
    options.parsingProvider,
    options.parsingId,
    options.interface,
  ].some((value) => value !== undefined);
}

type Role = "answering" | "parsing";

/** What the model flags need besides the options: the preset's models and the manual answering model. */
export interface ModelFlagContext {
  /** The base config (the preset's), whose first model of a role the flags override. */
  base: Readonly<Record<string, unknown>>;
  /** Builds the manual answering model (`--interface manual`), from `--manual-traces`. */
  manualModel: () => Record<string, unknown>;
  /** Whether `-a` / `-p` SPECs give each role's models. */
  specs: Readonly<Record<Role, boolean>>;
}

const roleFlags = (options: OriginalConfigOptions, role: Role) =>
  role === "answering"
    ? { model: options.answeringModel, provider: options.answeringProvider, id: options.answeringId }
    : { model: options.parsingModel, provider: options.parsingProvider, id: options.parsingId };

const LANGCHAIN_STYLE = new Set(["langchain", "langchain_deep_agents"]);

/** The one model of a role the original's flags describe, over the base's first model of that role. */
function modelFromFlags(options: OriginalConfigOptions, role: Role, context: ModelFlagContext) {
  const flags = roleFlags(options, role);
  const letter = role === "answering" ? "a" : "p";
  if (
    context.specs[role] &&
    (flags.model !== undefined || flags.provider !== undefined || flags.id !== undefined)
  )
    throw new CliUsageError(
      `give the ${role} model either as -${letter} SPEC or with --${role}-model/--${role}-provider/--${role}-id, not both`,
    );
  const chosen = role === "parsing" && options.interface === "manual" ? "langchain" : options.interface;
  if (role === "answering" && options.interface === "manual") return context.manualModel();
  const models = context.base[`${role}_models`];
  const base = Array.isArray(models) ? (models[0] as Record<string, unknown> | undefined) : undefined;
  const model: Record<string, unknown> = base === undefined ? { temperature: 0.1 } : { ...base };
  if (base === undefined) {
    const missing = [
      ...(flags.model === undefined ? [`--${role}-model NAME`] : []),
      ...(chosen === undefined ? ["--interface NAME"] : []),
    ];
    if (missing.length > 0)
      throw new CliUsageError(
        `the ${role} model needs ${missing.join(" and ")} (no --preset gives one), or give it as -${letter} interface:model[@base_url]`,
      );
    model.id = flags.id ?? `${role}-1`;
  } else if (flags.id !== undefined) model.id = flags.id;
  if (flags.model !== undefined) model.model_name = flags.model;
  if (flags.provider !== undefined) model.model_provider = flags.provider;
  if (chosen !== undefined) model.interface = chosen;
  checkModelFlags(model, role);
  return model;
}

function checkModelFlags(model: Record<string, unknown>, role: Role): void {
  const letter = role === "answering" ? "a" : "p";
  const chosen = String(model.interface);
  if (!isKnownInterface(chosen))
    throw new CliUsageError(`--interface: unknown interface ${JSON.stringify(chosen)}`);
  if (chosen === "openai_endpoint" && !model.endpoint_base_url)
    throw new CliUsageError(
      `--interface openai_endpoint needs the server's base URL, which these flags cannot give: use -${letter} openai_endpoint:MODEL@http://HOST:PORT/v1 (or a --preset or --interactive)`,
    );
  if (LANGCHAIN_STYLE.has(chosen) && !model.model_provider)
    throw new CliUsageError(
      `--interface ${chosen} needs --${role}-provider (openai, anthropic or google_genai), or use -${letter} openai:MODEL / anthropic:MODEL / google:MODEL`,
    );
}

/**
 * Writes the models the original's flags describe into a config input: for each role with a model flag (or
 * `--interface`, when `-a`/`-p` do not give that role), one model over the base's first (the original's
 * rule); then `--temperature` on every non-manual model.
 * @throws {CliUsageError} for flags that contradict `-a`/`-p`, or that cannot make a usable model.
 */
export function applyOriginalModelFlags(
  input: Record<string, unknown>,
  options: OriginalConfigOptions,
  context: ModelFlagContext,
): void {
  if (options.interface !== undefined && context.specs.answering && context.specs.parsing)
    throw new CliUsageError(
      "--interface applies to models given with --answering-model/--parsing-model; -a and -p SPECs name their own interface (interface:model)",
    );
  for (const role of ["answering", "parsing"] as const) {
    const flags = roleFlags(options, role);
    const given =
      flags.model !== undefined ||
      flags.provider !== undefined ||
      flags.id !== undefined ||
      (options.interface !== undefined && !context.specs[role]);
    if (given) input[`${role}_models`] = [modelFromFlags(options, role, context)];
  }
  if (options.temperature === undefined) return;
  const temperature = options.temperature;
  for (const role of ["answering_models", "parsing_models"]) {
    const models = input[role];
    if (!Array.isArray(models)) continue;
    input[role] = models.map((model: Record<string, unknown>) =>
      model.interface === "manual" ? model : { ...model, temperature },
    );
  }
}

/** `--use-full-trace-for-X` / `--use-final-message-for-X` as a boolean, or undefined when neither is given. */
function traceFlag(full: boolean | undefined, final: boolean | undefined): boolean | undefined {
  if (full) return true;
  if (final) return false;
  return undefined;
}

async function readRubricConfig(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliUsageError(
      `--deep-judgment-rubric-config: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `--deep-judgment-rubric-config: ${file} is not JSON: ${(error as Error).message}`,
    );
  }
}

/**
 * Writes the original's non-model config flags into a config input, each only when given: replicate count,
 * evaluation mode, embedding check, rubric deep judgment (its custom config read from its file), the trace
 * flags and the async settings.
 * @returns notes for stderr (flags accepted without effect).
 * @throws {CliUsageError} for an unreadable `--deep-judgment-rubric-config` or a contradicting `--mode`.
 */
export async function applyOriginalConfigFlags(
  input: Record<string, unknown>,
  options: OriginalConfigOptions & { mode?: string },
): Promise<string[]> {
  const set = (field: string, value: unknown) => {
    if (value !== undefined) input[field] = value;
  };
  if (
    options.evaluationMode !== undefined &&
    options.mode !== undefined &&
    (EVALUATION_MODES as readonly string[]).includes(options.mode) &&
    options.mode !== options.evaluationMode
  )
    throw new CliUsageError(
      `--mode ${options.mode} and --evaluation-mode ${options.evaluationMode} disagree: give one of them`,
    );
  set("replicate_count", options.replicateCount);
  set("evaluation_mode", options.evaluationMode);
  set("embedding_check_enabled", options.embeddingCheck);
  set("embedding_check_threshold", options.embeddingThreshold);
  set("embedding_check_model", options.embeddingModel);
  set("deep_judgment_rubric_mode", options.deepJudgmentRubricMode);
  set("deep_judgment_rubric_global_excerpts", options.deepJudgmentRubricExcerpts);
  set("deep_judgment_rubric_max_excerpts_default", options.deepJudgmentRubricMaxExcerpts);
  set("deep_judgment_rubric_fuzzy_match_threshold_default", options.deepJudgmentRubricFuzzyThreshold);
  set("deep_judgment_rubric_excerpt_retry_attempts_default", options.deepJudgmentRubricRetryAttempts);
  set("deep_judgment_rubric_search_tool", options.deepJudgmentRubricSearchTool);
  if (options.deepJudgmentRubricConfig !== undefined)
    input.deep_judgment_rubric_config = await readRubricConfig(options.deepJudgmentRubricConfig);
  set(
    "use_full_trace_for_template",
    traceFlag(options.useFullTraceForTemplate, options.useFinalMessageForTemplate),
  );
  set(
    "use_full_trace_for_rubric",
    traceFlag(options.useFullTraceForRubric, options.useFinalMessageForRubric),
  );
  if (options.async === false) input.async_enabled = false;
  set("async_max_workers", options.asyncWorkers);
  return options.deepJudgmentRubricSearch
    ? [
        "note: --deep-judgment-rubric-search has no effect, as in the original: search is set per trait (deep_judgment_search_enabled in the checkpoint, or in --deep-judgment-rubric-config)",
      ]
    : [];
}

/** The flags of the original that set a config field, for error messages (over our flags' names). */
export function originalFlagOfField(options: OriginalConfigOptions): Record<string, string> {
  const flags: Record<string, string> = {
    embedding_check_enabled: "--embedding-check",
    embedding_check_threshold: "--embedding-threshold",
    embedding_check_model: "--embedding-model",
    deep_judgment_rubric_mode: "--deep-judgment-rubric-mode",
    deep_judgment_rubric_global_excerpts: "--deep-judgment-rubric-excerpts",
    deep_judgment_rubric_max_excerpts_default: "--deep-judgment-rubric-max-excerpts",
    deep_judgment_rubric_fuzzy_match_threshold_default: "--deep-judgment-rubric-fuzzy-threshold",
    deep_judgment_rubric_excerpt_retry_attempts_default: "--deep-judgment-rubric-retry-attempts",
    deep_judgment_rubric_search_tool: "--deep-judgment-rubric-search-tool",
    deep_judgment_rubric_config: "--deep-judgment-rubric-config",
    use_full_trace_for_template: "--use-full-trace-for-template",
    use_full_trace_for_rubric: "--use-full-trace-for-rubric",
  };
  if (options.replicateCount !== undefined) flags.replicate_count = "--replicate-count";
  if (options.evaluationMode !== undefined) flags.evaluation_mode = "--evaluation-mode";
  if (options.async === false) flags.async_enabled = "--no-async";
  if (options.asyncWorkers !== undefined) flags.async_max_workers = "--async-workers";
  if (options.answeringModel !== undefined || options.interface !== undefined)
    flags.answering_models = "--answering-model";
  if (options.parsingModel !== undefined || options.interface !== undefined)
    flags.parsing_models = "--parsing-model";
  return flags;
}

/** The capture flags of the original, under our names (`--workspace-output-mode` is `--capture-workspaces`). */
export function captureOptionsFromOriginal(options: OriginalConfigOptions): {
  captureWorkspaces?: "full" | "produced";
  captureDir?: string;
  captureExclude?: string[];
} {
  const mode = options.workspaceOutputMode;
  return {
    ...(mode === undefined || mode === "none" ? {} : { captureWorkspaces: mode }),
    ...(options.workspaceOutputDir === undefined ? {} : { captureDir: options.workspaceOutputDir }),
    ...(options.workspaceOutputExclude === undefined
      ? {}
      : { captureExclude: options.workspaceOutputExclude }),
  };
}

/**
 * Where workspaces are captured when a capture mode is given without a directory, as the original does:
 * the run directory's `workspaces/`, else `workspaces/` beside a `.json` output; undefined otherwise.
 */
export function defaultCaptureDir(
  runDirectory: string | null,
  output: string | undefined,
): string | undefined {
  if (runDirectory !== null) return join(runDirectory, "workspaces");
  if (output?.toLowerCase().endsWith(".json")) return join(dirname(output), "workspaces");
  return undefined;
}
