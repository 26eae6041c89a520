/**
 * `agent_middleware` (spec 04 §3, spec 05 §5.1): what wraps the answering tool-loop agent — its call limits,
 * retries of model and tool calls, and the summarisation of a conversation grown too long. The same shape and
 * defaults as the original's `AgentMiddlewareConfig`; Anthropic prompt caching is accepted and not used.
 */
import { z } from "zod";

const LimitsSchema = z.object({
  model_call_limit: z.int().min(1).default(25),
  tool_call_limit: z.int().min(1).default(50),
  exit_behavior: z.enum(["end", "continue"]).default("end"),
});

const ModelRetrySchema = z.object({
  max_retries: z.int().min(0).default(2),
  backoff_factor: z.number().min(0).default(2.0),
  initial_delay: z.number().min(0).default(2.0),
  max_delay: z.number().min(0).default(10.0),
  jitter: z.boolean().default(true),
  on_failure: z.enum(["continue", "raise"]).default("continue"),
});

const ToolRetrySchema = z.object({
  max_retries: z.int().min(0).default(3),
  backoff_factor: z.number().min(0).default(2.0),
  initial_delay: z.number().min(0).default(1.0),
  on_failure: z.enum(["return_message", "raise"]).default("return_message"),
});

const SummarizationSchema = z.object({
  enabled: z.boolean().default(true),
  /** Another model name at the agent's provider and endpoint; null summarises with the agent's own model. */
  model: z.string().nullable().default(null),
  trigger_fraction: z.number().gt(0).max(1).default(0.8),
  trigger_tokens: z.int().min(1).nullable().default(null),
  keep_messages: z.int().min(1).default(20),
});

const PromptCachingSchema = z.object({
  enabled: z.boolean().default(true),
  ttl: z.enum(["5m", "1h"]).default("5m"),
  min_messages_to_cache: z.int().min(0).default(0),
  unsupported_model_behavior: z.enum(["ignore", "warn", "raise"]).default("warn"),
});

/** The original's `AgentMiddlewareConfig`, every section and field optional with its default. */
export const AgentMiddlewareConfigSchema = z.object({
  limits: LimitsSchema.prefault({}),
  model_retry: ModelRetrySchema.prefault({}),
  tool_retry: ToolRetrySchema.prefault({}),
  summarization: SummarizationSchema.prefault({}),
  prompt_caching: PromptCachingSchema.prefault({}),
});
export type AgentMiddlewareConfig = z.output<typeof AgentMiddlewareConfigSchema>;

/** The context size the original assumes when neither `trigger_tokens` nor `max_context_tokens` is set. */
export const DEFAULT_CONTEXT_TOKENS = 100_000;

/**
 * The token count (estimated as characters / 4) at which the agent's conversation is summarised, in the
 * original's order: `summarization.trigger_tokens`, else the model's `max_context_tokens` (as given: the whole
 * context, not a fraction of it), else `trigger_fraction` of 100 000.
 * @example
 * summarizationTrigger(AgentMiddlewareConfigSchema.parse({}), null); // 80000
 */
export function summarizationTrigger(config: AgentMiddlewareConfig, maxContextTokens: number | null): number {
  return (
    config.summarization.trigger_tokens ??
    maxContextTokens ??
    Math.floor(DEFAULT_CONTEXT_TOKENS * config.summarization.trigger_fraction)
  );
}
