import { z } from "zod";
import { schemaProblems } from "../errors/index.js";
import { VerificationResultRubricSchema } from "../rubrics/index.js";
import { VerificationResultError } from "./errors.js";
import { ModelIdentitySchema } from "./model-identity.js";

export { type VerificationResultRubric, VerificationResultRubricSchema } from "../rubrics/index.js";

// Field order in every schema below is the serialization order of spec 06 §1: Zod writes an object's keys
// in its shape's order, so `JSON.stringify(VerificationResultSchema.parse(row))` lays a row out as the
// original does, every field present and nulls included.

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);
const record = <T extends z.ZodType>(value: T) => z.record(z.string(), value);
const jsonObject = () => z.record(z.string(), z.unknown());

/** Whether a string has at most `max` characters, counted as Python counts them (code points). */
const atMost = (max: number) => (text: string) => Array.from(text).length <= max;

// ---------------------------------------------------------------------------------------------------------
// Failure and caveats (spec 04 §14.2, 06 §1.6)

/** The 14 kinds of non-pass verdict, in the original's order. */
export const FAILURE_CATEGORIES = [
  "content",
  "recursion_limit",
  "trace_validation",
  "deep_judgment",
  "deep_judgment_rubric",
  "timeout",
  "connection",
  "rate_limit",
  "server_error",
  "abstention",
  "sufficiency",
  "template_validation",
  "parsing",
  "unexpected_error",
] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

export const FAILURE_GROUPS = ["content", "autofail", "retry", "abstained", "system"] as const;
export type FailureGroup = (typeof FAILURE_GROUPS)[number];

const GROUP_OF: Readonly<Record<FailureCategory, FailureGroup>> = {
  content: "content",
  recursion_limit: "autofail",
  trace_validation: "autofail",
  deep_judgment: "autofail",
  deep_judgment_rubric: "autofail",
  timeout: "retry",
  connection: "retry",
  rate_limit: "retry",
  server_error: "retry",
  abstention: "abstained",
  sufficiency: "abstained",
  template_validation: "system",
  parsing: "system",
  unexpected_error: "system",
};

/**
 * The group a failure category belongs to.
 * @example
 * failureGroup("rate_limit"); // "retry"
 * failureGroup("parsing"); // "system"
 */
export function failureGroup(category: FailureCategory): FailureGroup {
  return GROUP_OF[category];
}

/** The longest a failure's `reason` may be, in characters. */
export const MAX_FAILURE_REASON = 500;

/**
 * A structured non-pass verdict: `{category, stage, reason (≤500 characters), details, group}`. `group` is
 * computed from `category`; a `group` in the input is ignored.
 * @example
 * FailureSchema.parse({ category: "timeout", stage: "generate_answer", reason: "timed out", group: "content" }).group;
 * // "retry"
 */
export const FailureSchema = z
  .object({
    category: z.enum(FAILURE_CATEGORIES),
    stage: z.string(),
    reason: z.string().refine(atMost(MAX_FAILURE_REASON), `must be at most ${MAX_FAILURE_REASON} characters`),
    details: nullable(jsonObject()),
    group: z.unknown().optional(),
  })
  .transform(({ category, stage, reason, details }) => ({
    category,
    stage,
    reason,
    details,
    group: GROUP_OF[category],
  }));
export type Failure = z.output<typeof FailureSchema>;

/** Remarks on a result that hold whatever the verdict, in the order they are listed. */
export const CAVEATS = [
  "partial_content",
  "embedding_override",
  "parse_decision_malformed",
  "retries_used",
] as const;
export const CaveatSchema = z.enum(CAVEATS);
export type Caveat = z.output<typeof CaveatSchema>;

// ---------------------------------------------------------------------------------------------------------
// Retry counts (spec 06 §1.1)

/** The error categories that are retried; `permanent` never is. */
export const RETRY_CATEGORIES = ["connection", "timeout", "rate_limit", "server_error"] as const;
export type RetryCategory = (typeof RETRY_CATEGORIES)[number];

/** How many retries of one category a task used, out of its budget. */
export const RetryUsageSchema = z.object({ used: z.int().min(0), budget: z.int().min(0) });
export type RetryUsage = z.output<typeof RetryUsageSchema>;

/** Retry usage with exactly the four retryable categories as keys (written in {@link RETRY_CATEGORIES} order). */
export const RetryCountsSchema = z.record(z.enum(RETRY_CATEGORIES), RetryUsageSchema);
export type RetryCounts = z.output<typeof RetryCountsSchema>;

// ---------------------------------------------------------------------------------------------------------
// metadata (spec 06 §1.1)

/**
 * Who and what a result is about: question, models, timing, identity and the verdict (`failure`). Strict:
 * an unknown key is an error.
 */
export const VerificationResultMetadataSchema = z.strictObject({
  question_id: z.string(),
  /** MD5 of the normalised template, or `"no_template"`. */
  template_id: z.string(),
  /** The verdict: null when the result has no failure. */
  failure: nullable(FailureSchema),
  caveats: z.array(CaveatSchema).default([]),
  /** At most 50, then one truncation marker. */
  warnings: z.array(z.string()).default([]),
  /** Reserved; never populated. */
  partial_content: nullable(z.string()),
  /** Null only for rows built outside the pipeline (previews). */
  retry_counts: nullable(RetryCountsSchema),
  question_text: z.string(),
  /** The reference answer. */
  raw_answer: nullable(z.string()),
  keywords: nullable(z.array(z.string())),
  answering: ModelIdentitySchema,
  parsing: ModelIdentitySchema,
  answering_system_prompt: nullable(z.string()),
  parsing_system_prompt: nullable(z.string()),
  /** Seconds of pipeline wall time up to finalize. */
  execution_time: z.number(),
  /** Local `YYYY-MM-DD HH:MM:SS` at pipeline start (`""` in preview rows). */
  timestamp: z.string(),
  /** 16 hex characters (see `resultId`). */
  result_id: z.string(),
  run_name: nullable(z.string()),
  /** Null when a question runs once, else 1-based. */
  replicate: nullable(z.int()),
  few_shot_enabled: z.boolean().default(false),
  few_shot_example_count: z.int().min(0).default(0),
  evaluation_mode: nullable(z.string()),
  scenario_id: nullable(z.string()),
  scenario_node: nullable(z.string()),
  scenario_turn: nullable(z.int()),
  scenario_path: nullable(z.array(z.string())),
});
export type VerificationResultMetadata = z.output<typeof VerificationResultMetadataSchema>;

// ---------------------------------------------------------------------------------------------------------
// template (spec 06 §1.4)

/**
 * Token usage of one pipeline stage (spec 05 §2). The `total` entry of `usage_metadata` has only the three
 * token counts.
 */
export const StageUsageSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
  model: z.string().nullable().optional(),
  /** `{audio, cache_read}` and any other counts the provider reports. */
  input_token_details: z.looseObject({ audio: z.number(), cache_read: z.number() }).optional(),
  /** `{audio, reasoning}` and any other counts the provider reports. */
  output_token_details: z.looseObject({ audio: z.number(), reasoning: z.number() }).optional(),
});
export type StageUsage = z.output<typeof StageUsageSchema>;

/**
 * What the answering agent did (spec 04 §11.3): `{iterations:1, limit_reached:false}` for a plain LLM
 * answer, the tool counts too for an agent. Other keys are dropped.
 */
export const AgentMetricsSchema = z.object({
  iterations: z.number(),
  tool_calls: z.number().optional(),
  tools_used: z.array(z.string()).optional(),
  tool_call_counts: record(z.number()).optional(),
  suspect_failed_tool_calls: z.number().optional(),
  suspect_failed_tools: z.array(z.string()).optional(),
  limit_reached: z.boolean(),
});
export type AgentMetrics = z.output<typeof AgentMetricsSchema>;

/** What the answer, its parsing and the template's verification produced. Every field has a default. */
export const VerificationResultTemplateSchema = z.object({
  /** The full trace text. */
  raw_llm_response: z.string().default(""),
  /** Serialized messages with `block_index`. */
  trace_messages: z.array(jsonObject()).default([]),
  /** The input messages sent to the answering model. */
  conversation_context: z.array(jsonObject()).default([]),
  /** The ground truth: `correct` and the resolved verified-field ground truths. */
  parsed_gt_response: nullable(jsonObject()),
  /** The extracted fields minus `id`, `correct` and `regex`. */
  parsed_llm_response: nullable(jsonObject()),
  template_verification_performed: z.boolean().default(false),
  /** Pass or fail; null = not evaluated. */
  verify_result: nullable(z.boolean()),
  /** Partial-credit score (usually 0–1). */
  verify_granular_result: z.unknown().default(null),
  field_verification_error: nullable(z.string()),
  /** Per verified field; null = the extractor returned null. */
  field_results: nullable(record(z.boolean().nullable())),
  field_scores: nullable(record(z.number().nullable())),
  /** `all_of`, `any_of` or `at_least_n(N)`. */
  composition_strategy: nullable(z.string()),
  embedding_check_performed: z.boolean().default(false),
  embedding_similarity_score: nullable(z.number()),
  embedding_override_applied: z.boolean().default(false),
  embedding_model_used: nullable(z.string()),
  regex_validations_performed: z.boolean().default(false),
  regex_validation_results: nullable(record(z.boolean())),
  regex_validation_details: nullable(record(jsonObject())),
  regex_overall_success: nullable(z.boolean()),
  regex_extraction_results: nullable(jsonObject()),
  recursion_limit_reached: z.boolean().default(false),
  response_timeout_partial: z.boolean().default(false),
  usage_unavailable: z.boolean().default(false),
  investigation_trace: nullable(z.string()),
  agentic_parsing_performed: z.boolean().default(false),
  /** `"local_json"` when the agentic extraction was recovered from the agent's JSON. */
  agentic_extraction_recovery: nullable(z.string()),
  agentic_extraction_error: nullable(z.string()),
  dynamic_parsing_performed: z.boolean().default(false),
  /** `direct`, `escalated`, `replay` or `answer_error_null`. */
  dynamic_parse_decision: nullable(z.string()),
  dynamic_decision_reasoning: nullable(z.string()),
  abstention_check_performed: z.boolean().default(false),
  abstention_detected: nullable(z.boolean()),
  abstention_override_applied: z.boolean().default(false),
  abstention_reasoning: nullable(z.string()),
  sufficiency_check_performed: z.boolean().default(false),
  /** True = the response is sufficient. */
  sufficiency_detected: nullable(z.boolean()),
  sufficiency_override_applied: z.boolean().default(false),
  sufficiency_reasoning: nullable(z.string()),
  answering_mcp_servers: nullable(z.array(z.string())),
  /** Stage name → usage, plus a `total` entry. */
  usage_metadata: nullable(record(StageUsageSchema)),
  agent_metrics: nullable(AgentMetricsSchema),
});
export type VerificationResultTemplate = z.output<typeof VerificationResultTemplateSchema>;

// ---------------------------------------------------------------------------------------------------------
// deep judgment (spec 06 §1.6, 04 §9)

const RISK = z.enum(["none", "low", "medium", "high"]);

/** A validated excerpt (template: per attribute; rubric: per trait). */
export const ExcerptSchema = z.object({
  text: z.string(),
  /** `none` only for the template's "no excerpt" placeholder. */
  confidence: z.enum(["high", "medium", "low", "none"]),
  similarity_score: z.number(),
  explanation: z.string().optional(),
  search_results: z.unknown().optional(),
  hallucination_risk: RISK.optional(),
  hallucination_justification: z.string().optional(),
});
export type Excerpt = z.output<typeof ExcerptSchema>;

/** Template deep judgment: excerpts, reasoning and hallucination risk per template attribute. */
export const VerificationResultDeepJudgmentSchema = z.object({
  deep_judgment_mode: nullable(z.enum(["disabled", "reasoning_only", "full"])),
  deep_judgment_performed: z.boolean().default(false),
  extracted_excerpts: nullable(record(z.array(ExcerptSchema))),
  attribute_reasoning: nullable(record(z.string())),
  deep_judgment_stages_completed: nullable(z.array(z.string())),
  deep_judgment_model_calls: z.int().min(0).default(0),
  deep_judgment_excerpt_retry_count: z.int().min(0).default(0),
  attributes_without_excerpts: nullable(z.array(z.string())),
  deep_judgment_search_enabled: z.boolean().default(false),
  hallucination_risk_assessment: nullable(record(RISK)),
});
export type VerificationResultDeepJudgment = z.output<typeof VerificationResultDeepJudgmentSchema>;

/**
 * Rubric deep judgment (the block `buildDeepJudgmentRubricBlock` assembles): per-trait excerpts, reasoning,
 * scores and metadata.
 */
export const VerificationResultDeepJudgmentRubricSchema = z.object({
  deep_judgment_rubric_performed: z.boolean().default(false),
  extracted_rubric_excerpts: nullable(record(z.array(ExcerptSchema))),
  rubric_trait_reasoning: nullable(record(z.string())),
  deep_judgment_rubric_scores: nullable(record(z.union([z.boolean(), z.number()]))),
  standard_rubric_scores: nullable(record(z.unknown())),
  trait_metadata: nullable(record(jsonObject())),
  traits_without_valid_excerpts: nullable(z.array(z.string())),
  rubric_hallucination_risk_assessment: nullable(
    record(z.object({ overall_risk: RISK, per_excerpt_risks: z.array(RISK) })),
  ),
  total_deep_judgment_model_calls: z.int().min(0).default(0),
  total_traits_evaluated: z.int().min(0).default(0),
  total_excerpt_retries: z.int().min(0).default(0),
});
export type VerificationResultDeepJudgmentRubric = z.output<
  typeof VerificationResultDeepJudgmentRubricSchema
>;

// ---------------------------------------------------------------------------------------------------------
// the result (spec 06 §1)

/**
 * One row of results: one (question, answering model, parsing model, replicate) execution. Serialized with
 * every field present, in this order.
 */
export const VerificationResultSchema = z.object({
  metadata: VerificationResultMetadataSchema,
  template: nullable(VerificationResultTemplateSchema),
  rubric: nullable(VerificationResultRubricSchema),
  deep_judgment: nullable(VerificationResultDeepJudgmentSchema),
  deep_judgment_rubric: nullable(VerificationResultDeepJudgmentRubricSchema),
  /** The text the judge parsed, when it was the full trace. */
  evaluation_input: nullable(z.string()),
  used_full_trace: z.boolean().default(true),
  trace_extraction_error: nullable(z.string()),
});
export type VerificationResult = z.output<typeof VerificationResultSchema>;
export type VerificationResultInput = z.input<typeof VerificationResultSchema>;

/**
 * Validates one result row (e.g. a line of a results export written by this project or by the original)
 * and fills in defaults. Throws a {@link VerificationResultError} naming each field at fault by its JSON
 * path; `where` (a file name, `results[3]`, ...) starts the message.
 * @example
 * const identity = { interface: "langchain", model_name: "gpt-4o" };
 * const result = parseVerificationResult({
 *   metadata: { question_id: "q1", template_id: "no_template", question_text: "Why?", answering: identity,
 *     parsing: identity, execution_time: 0.5, timestamp: "2026-04-21 12:00:00", result_id: "ccb35805790e357a" },
 * });
 * result.metadata.caveats; // []
 * result.used_full_trace; // true
 * Object.keys(result); // ["metadata", "template", "rubric", "deep_judgment", "deep_judgment_rubric", "evaluation_input", "used_full_trace", "trace_extraction_error"]
 */
export function parseVerificationResult(value: unknown, where = "result"): VerificationResult {
  const parsed = VerificationResultSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new VerificationResultError(where, schemaProblems(parsed.error, value, allowedKeys));
}

const STRICT_SECTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ["metadata", Object.keys(VerificationResultMetadataSchema.shape)],
]);

function allowedKeys(path: readonly PropertyKey[]): readonly string[] | undefined {
  return path.length === 1 ? STRICT_SECTIONS.get(String(path[0])) : undefined;
}

/** Whether a value is a valid result row (e.g. a line of a run log). */
export function isVerificationResult(value: unknown): value is VerificationResult {
  return VerificationResultSchema.safeParse(value).success;
}
