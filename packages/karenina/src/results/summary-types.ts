// The shapes of a result summary (spec 06 §3.1): the original's `get_summary()` keys, then ours.

import type { OutcomeCounts } from "./outcome.js";
import type { FailureCategory, FailureGroup } from "./verification-result.js";

// ---------------------------------------------------------------------------------------------------------
// Options

/** The price of a model in US dollars per million tokens. */
export interface TokenPrice {
  readonly input_per_million: number;
  readonly output_per_million: number;
}

/**
 * Looks up the price of a model by the name a usage stage records (`usage_metadata[stage].model`, else the
 * row's answering model for `answer_generation` and its parsing model for every other stage); undefined when
 * the model has no price. A price table `t` is `(model) => t[model]`.
 */
export type PriceLookup = (model: string) => TokenPrice | undefined;

export interface SummaryOptions {
  /** Prices for the `cost` section; without them `cost` is null. */
  readonly prices?: PriceLookup;
}

// ---------------------------------------------------------------------------------------------------------
// Result shape

/**
 * Pass counts of a group of rows by the one definition of `rowOutcome` (see results/outcome.ts): `passed`
 * rows passed, `total` = passed + failed (the rows judged; rows not evaluated are left out). `pass_rate` is
 * in [0, 1], `pass_pct` in [0, 100]; both are 0 when `total` is 0. The original's `{total, passed, pass_pct}`
 * plus `pass_rate`.
 */
export interface PassRate {
  total: number;
  passed: number;
  pass_pct: number;
  pass_rate: number;
}

/** Pass counts, and how many of the group's rows ended without a failure (`metadata.failure === null`). */
export interface GroupOutcome extends PassRate {
  failed: number;
  num_results: number;
  num_completed: number;
  completion_pct: number;
}

/** Completion of the rows of a model combination. */
export interface Completion {
  total: number;
  completed: number;
  completion_pct: number;
}

/** Summed token counts. */
export interface TokenCounts {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

/** Summed token counts of a group of rows, with the median and population std of the per-row totals. */
export interface TokenGroup extends TokenCounts {
  /** Rows of the group that carry `usage_metadata`; the medians and stds are over them. */
  num_results: number;
  input_median: number;
  input_std: number;
  output_median: number;
  output_std: number;
}

/** A model combination's tokens as the original's `tokens_by_combo` has them (`total` = input + output), plus ours. */
export interface ComboTokens {
  input: number;
  output: number;
  total: number;
  /** Rows of the combination that carry `usage_metadata`; the medians and stds are over their totals. */
  num_results: number;
  input_median: number;
  input_std: number;
  output_median: number;
  output_std: number;
}

/**
 * Token usage of the rows, with the original's `get_summary()` keys first. Sums are over every row with
 * `usage_metadata`; medians and stds (population) over per-row counts, as the original takes them: `total_*`
 * and `median_per_question_*` over every such row's total, `template_*` (the `answer_generation` and
 * `parsing` stages) over the rows where either is non-zero, `rubric_*` (`rubric_evaluation` and
 * `dynamic_rubric_presence_check`) and `deep_judgment_*` (every stage whose name starts with
 * `deep_judgment`) over the non-zero counts. The `deep_judgment_*` values are null when no row has deep
 * judgment performed, as in the original.
 */
export interface TokenSummary {
  total_input: number;
  total_input_std: number;
  total_output: number;
  total_output_std: number;
  template_input: number;
  template_input_std: number;
  template_output: number;
  template_output_std: number;
  rubric_input: number;
  rubric_input_std: number;
  rubric_output: number;
  rubric_output_std: number;
  deep_judgment_input: number | null;
  deep_judgment_input_std: number | null;
  deep_judgment_output: number | null;
  deep_judgment_output_std: number | null;
  /** Median and population std of the rows' total tokens (the original's per-question figures). */
  median_per_question_input: number;
  median_per_question_input_std: number;
  median_per_question_output: number;
  median_per_question_output_std: number;
  total_tokens: number;
  total_input_median: number;
  total_output_median: number;
  template_input_median: number;
  template_output_median: number;
  rubric_input_median: number;
  rubric_output_median: number;
  deep_judgment_input_median: number | null;
  deep_judgment_output_median: number | null;
  /** Rows that carry `usage_metadata`. */
  num_results_with_usage: number;
  /** Per usage stage (`answer_generation`, `parsing`, ...), in the order first seen. */
  by_stage: Record<string, TokenCounts>;
  /** Per question: its rows' sums, and the median/std over its rows (replicates, parsing models). */
  by_question: Record<string, TokenGroup>;
}

/** Cost of the rows' token usage under a price lookup, in US dollars. */
export interface CostSummary {
  /** The cost of every priced token. */
  total_usd: number;
  input_usd: number;
  output_usd: number;
  by_stage: Record<string, number>;
  by_combo: Record<string, number>;
  by_model: Record<string, TokenCounts & { cost_usd: number | null }>;
  /** Models with tokens but no price; their tokens are left out of every cost. */
  unpriced_models: string[];
  unpriced_tokens: number;
}

/**
 * Trait evaluations of one type, as the original counts them (`count`: one per trait score of each row with a
 * rubric evaluation), and the distinct trait names (sorted).
 */
export interface TraitCount {
  count: number;
  names: string[];
}

export type TraitCounts = Record<"llm" | "regex" | "callable" | "metric" | "agentic", TraitCount>;

/**
 * Summary of one trait's values. `boolean`: rate of true; `score`: mean/min/max; `literal`: counts per label
 * (LLM literal traits by class name; string-valued agentic traits by value); `other`: values of mixed or
 * structured types, counted only.
 */
export type TraitSummary =
  | { kind: "boolean"; count: number; true_count: number; rate: number }
  | { kind: "score"; count: number; mean: number; min: number; max: number }
  | { kind: "literal"; count: number; labels: Record<string, number> }
  | { kind: "other"; count: number };

/** Summary of a metric trait: per metric, its mean, min and max over the rows that computed it. */
export interface MetricTraitSummary {
  kind: "metric";
  count: number;
  metrics: Record<string, { count: number; mean: number; min: number; max: number }>;
}

/** Per-trait summaries by trait type. LLM template-kind traits appear per `trait.field` key. */
export interface RubricScoreSummary {
  llm: Record<string, TraitSummary>;
  regex: Record<string, TraitSummary>;
  callable: Record<string, TraitSummary>;
  metric: Record<string, MetricTraitSummary>;
  agentic: Record<string, TraitSummary & { null_count: number }>;
}

/** pass@k of one question under one model combination. */
export interface QuestionPassAtK {
  /** Samples: rows with template verification performed. */
  n: number;
  /** Passing samples. */
  c: number;
  /** `k` (1..n) → the unbiased estimate 1 − C(n−c, k) / C(n, k). */
  pass_at_k: Record<string, number>;
}

/** pass@k of a model combination: per question, and the mean over the questions with at least k samples. */
export interface ComboPassAtK {
  num_questions: number;
  /** `k` → mean pass@k over the questions with n ≥ k. */
  pass_at_k: Record<string, number>;
  /** `k` → how many questions the mean is over. */
  questions_at_k: Record<string, number>;
  by_question: Record<string, QuestionPassAtK>;
}

export interface ReplicateStats {
  /** Replicate number → pass counts of its rows. */
  replicate_pass_rates: Record<string, PassRate>;
  /** Mean and sample std of the replicates' `pass_rate`. */
  replicate_summary: { mean: number; std: number };
}

export interface ToolUsageStats {
  tools: Record<string, { total_calls: number; traces_using: number; avg_calls_per_trace: number }>;
  total_traces_with_tools: number;
  total_tool_calls: number;
}

export interface TraceLengthStats {
  median_iterations: number;
  mean_iterations: number;
  /** Population standard deviation. */
  std_iterations: number;
  min_iterations: number;
  max_iterations: number;
  num_traces: number;
}

/**
 * The aggregate view of a list of results: the original's `get_summary()` (spec 06 §3.1) with its keys, in
 * its order, then ours. Every object is plain JSON; maps keyed by model combination use
 * {@link modelComboKey} (`"<ans> | <parse>"`). The sections the original leaves null when there is nothing
 * to report are null here too: `rubric_traits` (no rubric evaluation), `template_pass_*` (no row passed or
 * failed), `replicate_stats` (one replicate), `tool_usage_stats` (no tool call), `trace_length_stats` (no
 * agent metrics).
 */
export interface ResultSummary {
  num_results: number;
  /** Rows without a failure. */
  num_completed: number;
  /** Rows with template verification performed. */
  num_with_template: number;
  /** Rows with the standard rubric evaluation performed. */
  num_with_rubric: number;
  /** Rows with template deep judgment performed. */
  num_with_judgment: number;
  num_questions: number;
  /** Distinct answering models (display strings). */
  num_models: number;
  num_parsing_models: number;
  /** Distinct non-null replicate numbers. */
  num_replicates: number;
  /** Seconds, summed over rows. */
  total_execution_time: number;
  tokens: TokenSummary;
  tokens_by_combo: Record<string, ComboTokens>;
  completion_by_combo: Record<string, Completion>;
  /** Trait evaluations by type; a trait is global when every question with rubric scores has a score for it. */
  rubric_traits: { global_traits: TraitCounts; question_specific_traits: TraitCounts } | null;
  template_pass_by_combo: Record<string, PassRate> | null;
  template_pass_overall: PassRate | null;
  /** Null unless the rows have more than one replicate number. */
  replicate_stats: ReplicateStats | null;
  tool_usage_stats: ToolUsageStats | null;
  trace_length_stats: TraceLengthStats | null;
  /** Passed, failed and not evaluated rows and the pass rate: the figures every summary prints. */
  outcomes: OutcomeCounts;
  failures_by_category: Partial<Record<FailureCategory, number>>;
  failures_by_group: Partial<Record<FailureGroup, number>>;
  /** Null when no price lookup was given. */
  cost: CostSummary | null;
  template_pass_by_question: Record<string, GroupOutcome & { question_text: string }>;
  /** Per keyword of the rows' `keywords`; a row counts once under each of its keywords. */
  template_pass_by_keyword: Record<string, GroupOutcome>;
  rubric_scores: RubricScoreSummary;
  rubric_scores_by_combo: Record<string, RubricScoreSummary>;
  /** Per model combination. */
  pass_at_k: Record<string, ComboPassAtK>;
}
