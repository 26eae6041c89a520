/**
 * The run config `karenina verify` builds from its flags (and `preset save`, `demo` with it): our flags, the
 * Python original's (original-flags.ts), the agentic ones, a preset and the wizard's answers, each applied
 * only when given.
 */
import { type Command, Option } from "commander";
import { type ManualTraces, readManualTracesFile } from "../llm/index.js";
import {
  ConfigError,
  dumpVerificationConfig,
  loadPreset,
  type ModelConfigInput,
  parseModelSpec,
  parseVerificationConfig,
  withEndpointKey,
} from "../pipeline/index.js";
import type { TemplateIsolation } from "../templates/index.js";
import { type AgenticOptions, addAgenticConfigOptions, applyAgenticOptions } from "./agentic-options.js";
import { BUNDLED_EXAMPLE_CONFIG } from "./bundled-example.js";
import { CliUsageError } from "./cli-io.js";
import { configErrorInFlagTerms } from "./config-flags.js";
import { integer } from "./option-parsers.js";
import {
  addOriginalConfigOptions,
  addTriStateOptions,
  applyOriginalConfigFlags,
  applyOriginalModelFlags,
  captureOptionsFromOriginal,
  type EvaluationMode,
  hasOriginalModelFlags,
  MAX_REPLICATES,
  modeValue,
  type OriginalConfigOptions,
  originalFlagOfField,
  type WizardMode,
} from "./original-flags.js";
import type { RecordingFlags } from "./recording-flags.js";
import type { WizardAnswers, WizardModel } from "./verify-wizard.js";

export { MAX_REPLICATES };
/** Options of `karenina verify`, as commander gives them. */
export interface VerifyOptions extends AgenticOptions, OriginalConfigOptions, RecordingFlags {
  db?: string;
  isolation?: TemplateIsolation;
  answering?: string[];
  parsing?: string[];
  preset?: string;
  replicates?: number;
  concurrency?: number;
  /** An evaluation mode, or with `--interactive` the wizard's mode. */
  mode?: EvaluationMode | WizardMode;
  output?: string;
  resume?: boolean;
  cache?: string;
  prices?: string;
  /** Tri-state: true with `--abstention`, false with `--no-abstention`, else unset. */
  abstention?: boolean;
  sufficiency?: boolean;
  deepJudgment?: "disabled" | "reasoning_only" | "full";
  endpointKeyEnv?: string;
  manualTraces?: string;
  refreshCache?: boolean;
  endpointLimit?: string[];
  question?: string[];
  questions?: string;
  questionIds?: string;
  progress?: boolean;
  verbose?: boolean;
  failUnder?: number;
  dryRun?: boolean;
  json?: boolean;
  includeDrafts?: boolean;
  preflight?: boolean;
  interactive?: boolean;
  runRoot?: string;
  runLabel?: string;
  replay?: string;
  progressiveSave?: boolean;
  /** The wizard's answers (`--interactive`), applied over the flags. */
  wizard?: WizardAnswers;
}

const ENDPOINT_INTERFACES = new Set([
  "openai_endpoint",
  "openai",
  "google",
  "openrouter",
  "mistral",
  "groq",
  "xai",
  "deepseek",
  "together",
  "ollama",
  "azure",
  "bedrock",
  "cohere",
]);

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
  return withEndpointKey(config, key as string);
}

/** No checkpoint and no models: the bundled example, answered and judged from its recorded example responses. */
export function usesRecordedExample(checkpoint: string | undefined, options: VerifyOptions): boolean {
  return (
    checkpoint === undefined &&
    !options.answering &&
    !options.parsing &&
    options.preset === undefined &&
    options.wizard === undefined &&
    !hasOriginalModelFlags(options)
  );
}

/** The wizard's models as model configs: its SPEC, then the provider, temperature and system prompt it asked. */
function wizardModels(
  models: readonly WizardModel[],
  env: NodeJS.ProcessEnv,
  keyEnv: string | undefined,
  traces: ManualTraces | null,
): ModelConfigInput[] {
  return models.map((model) => {
    const config = modelFromSpec(model.spec, env, keyEnv, traces) as Record<string, unknown>;
    if (config.interface === "manual") return config as ModelConfigInput;
    return {
      ...config,
      temperature: model.temperature,
      ...(model.provider === null ? {} : { model_provider: model.provider }),
      ...(model.systemPrompt === null ? {} : { system_prompt: model.systemPrompt }),
    } as ModelConfigInput;
  });
}

/** Writes our own config flags into a config input (each only when given). */
function applyOwnConfigFlags(input: Record<string, unknown>, options: VerifyOptions): void {
  if (options.replicates !== undefined) input.replicate_count = options.replicates;
  if (options.mode !== undefined && options.mode !== "basic" && options.mode !== "advanced")
    input.evaluation_mode = options.mode;
  if (options.abstention !== undefined) input.abstention_enabled = options.abstention;
  if (options.sufficiency !== undefined) input.sufficiency_enabled = options.sufficiency;
  if (options.deepJudgment !== undefined) input.deep_judgment_mode = options.deepJudgment;
  if (options.concurrency !== undefined) {
    input.async_enabled = true;
    input.async_max_workers = options.concurrency;
    input.max_concurrent_requests = options.concurrency;
  }
}

/**
 * The run config from verify's flags: the bundled example's (`recorded`), else the `--preset` one, else empty;
 * then the model flags (ours, `-a`/`-p`, and the original's `--answering-model`...), the wizard's answers and
 * the other config flags on top, each applied only when given. Also used by `karenina preset save`.
 * @returns the config, and notes for stderr (flags accepted without effect).
 * @throws {CliUsageError} when a model is missing, a model SPEC is unusable or flags contradict each other.
 */
export async function buildConfigWithNotes(
  options: VerifyOptions,
  env: NodeJS.ProcessEnv,
  recorded: boolean,
) {
  if ((options.mode === "basic" || options.mode === "advanced") && !options.interactive)
    throw new CliUsageError(
      `--mode ${options.mode} chooses the wizard of --interactive; for the evaluation mode give --mode (or --evaluation-mode) template_only, template_and_rubric or rubric_only`,
    );
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
  applyOriginalModelFlags(input, options, {
    base,
    manualModel: () =>
      modelFromSpec("manual", env, options.endpointKeyEnv, traces) as Record<string, unknown>,
    specs: { answering: answering !== undefined, parsing: parsing !== undefined },
  });
  if (options.wizard !== undefined) {
    input.answering_models = wizardModels(options.wizard.answering, env, options.endpointKeyEnv, traces);
    input.parsing_models = wizardModels(options.wizard.parsing, env, options.endpointKeyEnv, traces);
  }
  if (!input.parsing_models)
    throw new CliUsageError(
      "give at least one --parsing model (-p SPEC, or --parsing-model NAME with --interface NAME), or a --preset that has one",
    );
  if (!input.answering_models)
    throw new CliUsageError(
      "give at least one --answering model (-a SPEC, or --answering-model NAME with --interface NAME), or a --preset that has one",
    );
  applyOwnConfigFlags(input, options);
  const notes = await applyOriginalConfigFlags(input, options);
  // What the person answered wins over the flags.
  if (options.wizard !== undefined) Object.assign(input, options.wizard.config);
  applyAgenticOptions(input, { ...options, ...captureOptionsFromOriginal(options) });
  if (options.workspaceOutputMode === "none") input.workspace_output_mode = "none";
  try {
    return { config: parseVerificationConfig(input, { env }), notes };
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
      flags: originalFlagOfField(options),
    });
  }
}

/**
 * The run config from verify's flags ({@link buildConfigWithNotes} without its notes). Also used by
 * `karenina preset save` and `karenina demo`.
 */
export async function buildConfig(options: VerifyOptions, env: NodeJS.ProcessEnv, recorded: boolean) {
  return (await buildConfigWithNotes(options, env, recorded)).config;
}

/** Commander's accumulator for a repeatable option. */
export const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

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
      new Option(
        "-m, --mode <mode>",
        "what to evaluate: template_only, template_and_rubric or rubric_only; with --interactive, the wizard's basic or advanced",
      ).argParser(modeValue),
    );
  addTriStateOptions(command).option(
    "--endpoint-key-env <var>",
    "environment variable holding the API key of openai_endpoint models",
  );
  addOriginalConfigOptions(command);
  return addAgenticConfigOptions(command);
}
