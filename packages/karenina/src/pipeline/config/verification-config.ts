import { z } from "zod";
import { schemaProblems } from "../../errors/index.js";
import { ErrorPatternConfigSchema, RetryPolicySchema } from "../../llm/index.js";
import { DeepJudgmentRubricCustomConfigSchema } from "../../rubrics/index.js";
import { ConfigError } from "./errors.js";
import {
  INTERFACES,
  type InterfaceSpec,
  MODEL_CONFIG_KEYS,
  type ModelConfig,
  ModelConfigSchema,
  SECRET_MASK,
} from "./model/index.js";

/** The system prompt every answering model without one gets (spec 04 §2 step 2). */
export const DEFAULT_ANSWERING_SYSTEM_PROMPT =
  "You are an expert assistant. Answer the question accurately and concisely.";

/** A suggestion for judge system prompts, offered by the interactive CLI only; never applied automatically. */
export const DEFAULT_PARSING_SYSTEM_PROMPT =
  "You are a validation assistant. Parse and validate responses against the given Pydantic template.";

/** User instructions appended to the pipeline's prompts, one per kind of call (spec 04 §2.5). */
export const PromptConfigSchema = z.strictObject({
  generation: z.string().nullable().default(null),
  parsing: z.string().nullable().default(null),
  abstention_detection: z.string().nullable().default(null),
  sufficiency_detection: z.string().nullable().default(null),
  rubric_evaluation: z.string().nullable().default(null),
  agentic_parsing: z.string().nullable().default(null),
  deep_judgment: z.string().nullable().default(null),
});
export type PromptConfig = z.output<typeof PromptConfigSchema>;

/** Top-level keys accepted as shortcuts and folded into `prompt_config` (spec 04 §2 step 4). */
const INSTRUCTION_SHORTCUTS = {
  generation_instructions: "generation",
  parsing_instructions: "parsing",
  abstention_detection_instructions: "abstention_detection",
  sufficiency_detection_instructions: "sufficiency_detection",
  rubric_evaluation_instructions: "rubric_evaluation",
  agentic_parsing_instructions: "agentic_parsing",
  deep_judgment_instructions: "deep_judgment",
} as const satisfies Readonly<Record<string, keyof PromptConfig>>;

/** Derived or retired keys the original drops silently on input. */
const LEGACY_KEYS = ["rubric_enabled", "deep_judgment_rubric_search_enabled"];

const exampleRef = z.union([z.string(), z.int()]);

/** Per-question few-shot selection (spec 04 §2.3). */
export const QuestionFewShotConfigSchema = z.strictObject({
  mode: z.enum(["all", "k-shot", "custom", "inherit"]).default("inherit"),
  k: z.int().nullable().default(null),
  selected_examples: z.array(exampleRef).nullable().default(null),
  excluded_examples: z.array(exampleRef).nullable().default(null),
});

/** Few-shot examples for the answering prompt (spec 04 §2.3). */
export const FewShotConfigSchema = z.strictObject({
  source: z.enum(["disabled", "question_pool", "global", "both"]).default("both"),
  pool_mode: z.enum(["all", "k-shot", "custom"]).default("all"),
  pool_k: z.int().default(3),
  question_configs: z.record(z.string(), QuestionFewShotConfigSchema).default({}),
  global_examples: z.array(z.strictObject({ question: z.string(), answer: z.string() })).default([]),
});
export type FewShotConfig = z.output<typeof FewShotConfigSchema>;

/** One web search hit, as the built-in Tavily search returns it (the original's `SearchResultItem`). */
export interface SearchResultItem {
  title: string;
  content: string;
  url: string;
}

/** What a search gives for one query: its hits, or free text. */
export type SearchResult = string | SearchResultItem[];

/**
 * A search tool: `"tavily"` (the built-in search through Tavily's HTTP API, with `TAVILY_API_KEY`) or a
 * function from query (or queries) to result (or one result per query).
 */
export type SearchTool =
  | string
  | ((
      query: string | string[],
    ) => Promise<SearchResult | SearchResult[] | string[]> | SearchResult | SearchResult[] | string[]);
const SearchToolSchema = z
  .union([z.string(), z.custom<Exclude<SearchTool, string>>((value) => typeof value === "function")])
  .default("tavily");

const VerificationConfigFields = z.strictObject({
  answering_models: z.array(ModelConfigSchema).default([]),
  parsing_models: z.array(ModelConfigSchema),
  replicate_count: z.int().min(1).default(1),
  parsing_only: z.boolean().default(false),
  evaluation_mode: z.enum(["template_only", "template_and_rubric", "rubric_only"]).default("template_only"),
  rubric_trait_names: z.array(z.string()).nullable().default(null),
  rubric_evaluation_strategy: z.enum(["batch", "sequential"]).nullable().default("batch"),
  agentic_rubric_strategy: z.enum(["individual", "shared"]).default("individual"),
  agentic_rubric_parallel: z.boolean().default(false),
  use_full_trace_for_template: z.boolean().default(false),
  use_full_trace_for_rubric: z.boolean().default(true),
  allow_partial_trace_scoring: z.boolean().default(true),
  abstention_enabled: z.boolean().default(false),
  sufficiency_enabled: z.boolean().default(false),
  include_extraction_hints: z.boolean().default(true),
  embedding_check_enabled: z.boolean().default(false),
  embedding_check_model: z.string().default("all-MiniLM-L6-v2"),
  embedding_check_threshold: z.number().min(0).max(1).default(0.85),
  async_enabled: z.boolean().default(true),
  async_max_workers: z.int().min(1).default(2),
  max_concurrent_requests: z.int().min(1).nullable().default(null),
  batch_timeout_seconds: z.number().positive().nullable().default(null),
  task_ordering: z
    .enum(["auto", "prefix_cache", "distribute_answerers", "generation_order", "random"])
    .default("auto"),
  answerer_concurrency_limits: z
    .union([z.int().min(1), z.record(z.string(), z.int().min(1))])
    .nullable()
    .default(null),
  request_timeout: z.number().positive().default(120.0),
  max_requeue_count: z.int().min(1).default(5),
  retry_policy: RetryPolicySchema.default(() => RetryPolicySchema.parse({})),
  custom_error_patterns: z.array(ErrorPatternConfigSchema).default([]),
  deep_judgment_mode: z.enum(["disabled", "reasoning_only", "full"]).default("disabled"),
  deep_judgment_max_excerpts_per_attribute: z.int().default(3),
  deep_judgment_fuzzy_match_threshold: z.number().default(0.8),
  deep_judgment_excerpt_retry_attempts: z.int().default(2),
  deep_judgment_search_enabled: z.boolean().default(false),
  deep_judgment_search_tool: SearchToolSchema,
  deep_judgment_rubric_mode: z
    .enum(["disabled", "enable_all", "use_checkpoint", "custom"])
    .default("disabled"),
  deep_judgment_rubric_global_excerpts: z.boolean().default(true),
  deep_judgment_rubric_config: DeepJudgmentRubricCustomConfigSchema.nullable().default(null),
  deep_judgment_rubric_max_excerpts_default: z.int().default(7),
  deep_judgment_rubric_fuzzy_match_threshold_default: z.number().default(0.8),
  deep_judgment_rubric_excerpt_retry_attempts_default: z.int().default(2),
  deep_judgment_rubric_search_tool: SearchToolSchema,
  few_shot_config: FewShotConfigSchema.nullable().default(null),
  prompt_config: PromptConfigSchema.nullable().default(null),
  agentic_parsing: z.boolean().default(false),
  agentic_parsing_trigger: z.enum(["always", "dynamic"]).default("always"),
  agentic_judge_context: z
    .enum(["workspace_only", "trace_and_workspace", "trace_only"])
    .default("workspace_only"),
  agentic_parsing_max_turns: z.int().min(1).default(15),
  agentic_parsing_timeout: z.number().min(0).default(120.0),
  agentic_parsing_materialize_trace: z.boolean().default(false),
  agentic_parsing_persist_trace: z.boolean().default(false),
  workspace_copy: z.boolean().default(true),
  workspace_cleanup: z.boolean().default(true),
  workspace_output_mode: z.enum(["none", "full", "produced"]).default("none"),
  workspace_output_dir: z.string().nullable().default(null),
  workspace_output_exclude_patterns: z.array(z.string()).default([]),
  /** Database autosave settings; only null is accepted until the storage layer defines them. */
  db_config: z.null().default(null),
  replay_parse_on_hydration_mismatch: z.enum(["fall_through", "strict"]).default("fall_through"),
  scenario_turn_limit: z.int().min(1).default(20),
});

type Fields = z.output<typeof VerificationConfigFields>;
type Problem = (path: PropertyKey[], message: string) => void;

function checkModels(config: Fields, problem: Problem): void {
  if (config.parsing_models.length === 0)
    problem(["parsing_models"], "at least one parsing model is required");
  if (config.answering_models.length === 0 && !config.parsing_only) {
    problem(["answering_models"], "at least one answering model is required (unless parsing_only)");
  }
  for (const role of ["answering_models", "parsing_models"] as const) {
    config[role].forEach((model, index) => {
      const spec = INTERFACES[model.interface] as InterfaceSpec | undefined;
      if (spec?.requiresProvider && !model.model_provider) {
        problem([role, index, "model_provider"], `is required for the ${model.interface} interface`);
      }
      if (role === "answering_models" && !model.system_prompt) {
        problem([role, index, "system_prompt"], "is required for answering models");
      }
    });
  }
}

function checkFewShot(config: Fields, problem: Problem): void {
  const fewShot = config.few_shot_config;
  if (fewShot === null || fewShot.source === "disabled") return;
  if (fewShot.pool_mode === "k-shot" && fewShot.pool_k < 1) {
    problem(["few_shot_config", "pool_k"], "must be >= 1 in k-shot mode");
  }
  for (const [questionId, question] of Object.entries(fewShot.question_configs)) {
    if (question.mode === "k-shot" && question.k !== null && question.k < 1) {
      problem(["few_shot_config", "question_configs", questionId, "k"], "must be >= 1 in k-shot mode");
    }
  }
}

function checkDeepJudgment(config: Fields, problem: Problem): void {
  if (config.deep_judgment_search_enabled) {
    if (config.deep_judgment_mode === "reasoning_only") {
      problem(["deep_judgment_search_enabled"], "search is not available in reasoning_only deep judgment");
    }
    const tool = config.deep_judgment_search_tool;
    if (typeof tool === "string" && tool.toLowerCase() !== "tavily") {
      problem(["deep_judgment_search_tool"], 'must be "tavily" or a function');
    }
  }
  if (config.deep_judgment_rubric_mode === "custom" && config.deep_judgment_rubric_config === null) {
    problem(["deep_judgment_rubric_config"], "is required when deep_judgment_rubric_mode is custom");
  }
}

/** Interfaces that replay answers given in advance: they have no agent to investigate with. */
const NO_AGENT_INTERFACES = new Set(["manual", "taskeval"]);

/**
 * Agentic parsing's rules (spec 04 §2.2), with one deliberate difference (docs/decisions.md): any interface
 * with an agent may judge — deep agents, and tool-loop models, which investigate with the built-in read-only
 * workspace tools — not only deep agents.
 */
function checkAgenticParsing(config: Fields, problem: Problem): void {
  if (config.agentic_parsing_trigger === "dynamic" && !config.agentic_parsing) {
    problem(["agentic_parsing_trigger"], "dynamic requires agentic_parsing");
  }
  if (!config.agentic_parsing) return;
  config.parsing_models.forEach((model, index) => {
    if (NO_AGENT_INTERFACES.has(model.interface)) {
      problem(
        ["parsing_models", index, "interface"],
        `agentic_parsing needs a model that can run an agent; ${model.interface} has none`,
      );
    }
  });
  if (config.evaluation_mode === "rubric_only") {
    problem(["agentic_parsing"], "is not available in rubric_only evaluation mode");
  }
  if (config.agentic_parsing_materialize_trace && config.agentic_judge_context === "workspace_only") {
    problem(["agentic_parsing_materialize_trace"], "needs a judge context that includes the trace");
  }
}

/** Each answering and parsing model gets the run's timeout and retry policy unless it has its own. */
function stampModels(config: Fields): Fields {
  const stamp = (model: ModelConfig): ModelConfig => ({
    ...model,
    request_timeout: model.request_timeout ?? config.request_timeout,
    retry_policy: model.retry_policy ?? config.retry_policy,
  });
  return {
    ...config,
    answering_models: config.answering_models.map(stamp),
    parsing_models: config.parsing_models.map(stamp),
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The original's pre-validation steps (spec 04 §2 steps 2–4), on a copy: legacy keys dropped, instruction
 * shortcuts folded into `prompt_config` (filling only empty fields), and the default system prompt given to
 * answering models without one.
 */
export function normalizeVerificationInput(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  const out: Record<string, unknown> = { ...input };
  for (const key of LEGACY_KEYS) delete out[key];
  const prompts: Record<string, unknown> = isPlainObject(out.prompt_config) ? { ...out.prompt_config } : {};
  let folded = false;
  for (const [shortcut, field] of Object.entries(INSTRUCTION_SHORTCUTS)) {
    if (!(shortcut in out)) continue;
    const value = out[shortcut];
    delete out[shortcut];
    if (value === null || value === undefined || (prompts[field] ?? null) !== null) continue;
    prompts[field] = value;
    folded = true;
  }
  if (folded) out.prompt_config = prompts;
  if (Array.isArray(out.answering_models)) {
    out.answering_models = out.answering_models.map((model: unknown) =>
      isPlainObject(model) && !model.system_prompt
        ? { ...model, system_prompt: DEFAULT_ANSWERING_SYSTEM_PROMPT }
        : model,
    );
  }
  return out;
}

/**
 * The run configuration (spec 04 §2): strict, snake_case keys as in the original's JSON so its presets load.
 * Input is normalized first ({@link normalizeVerificationInput}); output has every default filled, models
 * stamped with the run's timeout and retry policy, and the cross-field rules of §2.2 checked.
 * Environment defaults are applied before, by {@link parseVerificationConfig}.
 */
export const VerificationConfigSchema = z
  .preprocess(normalizeVerificationInput, VerificationConfigFields)
  .superRefine((config, ctx) => {
    const problem: Problem = (path, message) => ctx.addIssue({ code: "custom", path, message });
    checkModels(config, problem);
    checkFewShot(config, problem);
    checkDeepJudgment(config, problem);
    checkAgenticParsing(config, problem);
  })
  .transform(stampModels);

/** What a verification config is built from: the original's JSON keys, plus the instruction shortcuts. */
export type VerificationConfigInput = z.input<typeof VerificationConfigFields> &
  Partial<Record<keyof typeof INSTRUCTION_SHORTCUTS, string | null>> & { rubric_enabled?: boolean };
export type VerificationConfig = z.output<typeof VerificationConfigSchema>;

/** Environment variables read for defaults; pass `process.env` at the edge (CLI, server). */
export type Env = Readonly<Record<string, string | undefined>>;

const TRUTHY = new Set(["true", "1", "yes"]);

function envBoolean(value: string): boolean {
  return TRUTHY.has(value.trim().toLowerCase());
}

function envFloat(value: string): number | undefined {
  const number = Number(value.trim());
  return value.trim() !== "" && Number.isFinite(number) ? number : undefined;
}

function envInt(value: string): number | undefined {
  return /^\s*[+-]?\d+\s*$/.test(value) ? Number.parseInt(value, 10) : undefined;
}

const ENV_DEFAULTS: readonly [string, string, (value: string) => unknown][] = [
  ["EMBEDDING_CHECK", "embedding_check_enabled", envBoolean],
  ["EMBEDDING_CHECK_MODEL", "embedding_check_model", (value) => value],
  ["EMBEDDING_CHECK_THRESHOLD", "embedding_check_threshold", envFloat],
  ["KARENINA_ASYNC_ENABLED", "async_enabled", envBoolean],
  ["KARENINA_ASYNC_MAX_WORKERS", "async_max_workers", envInt],
  ["KARENINA_MAX_CONCURRENT_LLM_REQUESTS", "max_concurrent_requests", envInt],
];

/**
 * The environment variable that gives each config field its default, e.g. `async_max_workers` →
 * `KARENINA_ASYNC_MAX_WORKERS`, so messages can name where a bad value came from.
 */
export const CONFIG_ENV_VARIABLES: Readonly<Record<string, string>> = Object.fromEntries(
  ENV_DEFAULTS.map(([variable, key]) => [key, variable]),
);

/**
 * Fills keys absent from `input` from the environment (spec 04 §2 step 1). Explicit input wins; unreadable
 * numbers are ignored.
 */
export function applyEnvDefaults(input: unknown, env: Env): unknown {
  if (!isPlainObject(input)) return input;
  const out = { ...input };
  for (const [variable, key, read] of ENV_DEFAULTS) {
    const raw = env[variable];
    if (key in out || raw === undefined) continue;
    const value = read(raw);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const CONFIG_KEYS = Object.keys(VerificationConfigFields.shape);

function allowedKeys(path: readonly PropertyKey[]): readonly string[] | undefined {
  if (path.length === 0) return CONFIG_KEYS;
  if (path.length === 2 && (path[0] === "answering_models" || path[0] === "parsing_models"))
    return MODEL_CONFIG_KEYS;
  return undefined;
}

/**
 * Builds a verification config: environment defaults, normalization, validation and cross-field rules.
 * @throws {ConfigError} naming every unknown key and every invalid field.
 */
export function parseVerificationConfig(input: unknown, options: { env?: Env } = {}): VerificationConfig {
  const withEnv = applyEnvDefaults(input, options.env ?? {});
  const result = VerificationConfigSchema.safeParse(withEnv);
  if (result.success) return result.data;
  const shown = maskSecrets(normalizeVerificationInput(withEnv));
  throw new ConfigError("verification config", schemaProblems(result.error, shown, allowedKeys));
}

const SECRET_KEYS = ["endpoint_api_key", "anthropic_api_key"];

/** The input with model API keys replaced by the mask, so error messages never quote a key. */
function maskSecrets(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  const out = { ...input };
  for (const role of ["answering_models", "parsing_models"]) {
    const models = out[role];
    if (!Array.isArray(models)) continue;
    out[role] = models.map((model: unknown) => {
      if (!isPlainObject(model)) return model;
      const copy = { ...model };
      for (const key of SECRET_KEYS)
        if (copy[key] !== undefined && copy[key] !== null) copy[key] = SECRET_MASK;
      return copy;
    });
  }
  return out;
}

/** Keys of a model that never leave the process. */
const RUNTIME_ONLY_MODEL_KEYS = ["manual_traces"] as const;

/**
 * The JSON form of a config: `rubric_enabled` computed, API keys masked, manual traces and function-valued
 * search tools left out. This is what presets and results store.
 */
export function dumpVerificationConfig(config: VerificationConfig): Record<string, unknown> {
  const stripModel = (model: ModelConfig) => {
    const copy: Record<string, unknown> = { ...model };
    for (const key of RUNTIME_ONLY_MODEL_KEYS) delete copy[key];
    return copy;
  };
  const shaped = {
    ...config,
    answering_models: config.answering_models.map(stripModel),
    parsing_models: config.parsing_models.map(stripModel),
    rubric_enabled: config.evaluation_mode !== "template_only",
  };
  return JSON.parse(JSON.stringify(shaped)) as Record<string, unknown>;
}
