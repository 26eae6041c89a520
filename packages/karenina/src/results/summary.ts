import { ownValue, setOwn } from "../plain-data/index.js";
import { answeringModelKey, modelComboKey } from "./model-combo-key.js";
import { canonicalKey, displayString } from "./model-identity.js";
import { type OutcomeCounts, outcomeCounts, rowOutcome } from "./outcome.js";
import { bump, entryOf, mean, median, populationStd, pushTo, ratio, sampleStd } from "./statistics.js";
import type {
  AgentMetrics,
  FailureCategory,
  FailureGroup,
  StageUsage,
  VerificationResult,
} from "./verification-result.js";

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

// ---------------------------------------------------------------------------------------------------------
// pass rates

/** Whether template verification ran on the row. */
const evaluated = (result: VerificationResult) => result.template?.template_verification_performed === true;
/** Whether the row passed (`rowOutcome`): no failure, template verification ran and gave true. */
const passed = (result: VerificationResult) => rowOutcome(result) === "passed";

/**
 * Pass counts of rows by `rowOutcome`: `total` = passed + failed, rows not evaluated left out.
 * @example
 * passRate([]); // { total: 0, passed: 0, pass_pct: 0, pass_rate: 0 }
 */
export function passRate(results: Iterable<VerificationResult>): PassRate {
  const counts = outcomeCounts(results);
  return rateOf(counts);
}

function rateOf(counts: OutcomeCounts): PassRate {
  const { passed: count, failed, pass_pct, pass_rate } = counts;
  return { total: count + failed, passed: count, pass_pct, pass_rate };
}

function groupOutcome(results: readonly VerificationResult[]): GroupOutcome {
  const completed = results.filter((result) => result.metadata.failure === null).length;
  const counts = outcomeCounts(results);
  return {
    ...rateOf(counts),
    failed: counts.failed,
    num_results: results.length,
    num_completed: completed,
    completion_pct: ratio(completed * 100, results.length),
  };
}

function groupRows<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) pushTo(groups, keyOf(item), item);
  return groups;
}

function mapValues<V, W>(groups: Map<string, V>, fn: (value: V, key: string) => W): Record<string, W> {
  const out: Record<string, W> = {};
  for (const [key, value] of groups) setOwn(out, key, fn(value, key));
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// pass@k

/**
 * The unbiased pass@k estimate for `n` samples of which `c` passed: 1 − C(n−c, k) / C(n, k), the chance that
 * at least one of `k` samples drawn without replacement passes. pass@1 is the pass rate c / n.
 * @example
 * passAtK(3, 1, 1); // 0.3333333333333333
 * passAtK(3, 1, 2); // 0.6666666666666666
 * passAtK(3, 1, 3); // 1
 * passAtK(4, 0, 2); // 0
 */
export function passAtK(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || k < 1 || k > n || c < 0 || c > n) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and 1 <= k <= n (got n=${n}, c=${c}, k=${k})`);
  }
  if (n - c < k) return 1;
  // Exact binomials, then one division; the product form 1 − Π (1 − k/i) where they overflow a double.
  const all = binomial(n, k);
  const failing = binomial(n - c, k);
  const denominator = Number(all);
  if (Number.isFinite(denominator)) return Number(all - failing) / denominator;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

function passAtKByCombo(results: readonly VerificationResult[]): Record<string, ComboPassAtK> {
  const byCombo = groupRows(results.filter(evaluated), modelComboKey);
  return mapValues(byCombo, (rows) => {
    const byQuestion = mapValues(
      groupRows(rows, (result) => result.metadata.question_id),
      (questionRows): QuestionPassAtK => {
        const n = questionRows.length;
        const c = questionRows.filter(passed).length;
        const estimates: Record<string, number> = {};
        for (let k = 1; k <= n; k++) estimates[k] = passAtK(n, c, k);
        return { n, c, pass_at_k: estimates };
      },
    );
    const questions = Object.values(byQuestion);
    const maxK = Math.max(0, ...questions.map((question) => question.n));
    const means: Record<string, number> = {};
    const counts: Record<string, number> = {};
    for (let k = 1; k <= maxK; k++) {
      const values = questions.flatMap((question) => question.pass_at_k[k] ?? []);
      means[k] = mean(values);
      counts[k] = values.length;
    }
    return {
      num_questions: questions.length,
      pass_at_k: means,
      questions_at_k: counts,
      by_question: byQuestion,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// replicates

function replicateStats(results: readonly VerificationResult[]): ReplicateStats | null {
  const byReplicate = groupRows(
    results.filter((result) => result.metadata.replicate !== null),
    (result) => result.metadata.replicate as number,
  );
  if (byReplicate.size <= 1) return null;
  const ordered = [...byReplicate].sort(([a], [b]) => a - b);
  const rates: Record<string, PassRate> = {};
  for (const [replicate, rows] of ordered) rates[replicate] = passRate(rows);
  const values = Object.values(rates).map((rate) => rate.pass_rate);
  return { replicate_pass_rates: rates, replicate_summary: { mean: mean(values), std: sampleStd(values) } };
}

// ---------------------------------------------------------------------------------------------------------
// tokens and cost

const TEMPLATE_STAGES = new Set(["answer_generation", "parsing"]);
const RUBRIC_STAGES = new Set(["rubric_evaluation", "dynamic_rubric_presence_check"]);
const isDeepJudgmentStage = (stage: string) => stage.startsWith("deep_judgment");

/** The usage stages of a row (the `total` entry left out), or undefined when it has no usage. */
function usageStages(result: VerificationResult): [string, StageUsage][] | undefined {
  const usage = result.template?.usage_metadata;
  if (usage === null || usage === undefined) return undefined;
  return Object.entries(usage).filter(([stage]) => stage !== "total");
}

/** The per-row totals: the `total` entry when present, else the sum of the stages. */
function rowTotals(result: VerificationResult, stages: [string, StageUsage][]): TokenCounts {
  const total = result.template?.usage_metadata?.total;
  if (total !== undefined) {
    return {
      input_tokens: total.input_tokens,
      output_tokens: total.output_tokens,
      total_tokens: total.total_tokens,
    };
  }
  return sumStages(stages, () => true);
}

function sumStages(stages: [string, StageUsage][], keep: (stage: string) => boolean): TokenCounts {
  const sum = zeroTokens();
  for (const [stage, usage] of stages) if (keep(stage)) addTokens(sum, usage);
  return sum;
}

const zeroTokens = (): TokenCounts => ({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });

function addTokens(target: TokenCounts, usage: TokenCounts): void {
  target.input_tokens += usage.input_tokens;
  target.output_tokens += usage.output_tokens;
  target.total_tokens += usage.total_tokens;
}

interface RowTokens {
  result: VerificationResult;
  stages: [string, StageUsage][];
  total: TokenCounts;
}

function rowsWithUsage(results: readonly VerificationResult[]): RowTokens[] {
  const rows: RowTokens[] = [];
  for (const result of results) {
    const stages = usageStages(result);
    if (stages !== undefined) rows.push({ result, stages, total: rowTotals(result, stages) });
  }
  return rows;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const positive = (values: readonly number[]) => values.filter((value) => value > 0);

/** The sums, medians and stds of per-row input and output counts, the median and std over the given lists. */
function spread(inputs: readonly number[], outputs: readonly number[]) {
  return {
    input: sum(inputs),
    input_median: median(inputs),
    input_std: populationStd(inputs),
    output: sum(outputs),
    output_median: median(outputs),
    output_std: populationStd(outputs),
  };
}

function comboTokens(rows: readonly RowTokens[]): ComboTokens {
  const totals = zeroTokens();
  for (const row of rows) addTokens(totals, row.total);
  const { input, output, ...stats } = spread(
    rows.map((row) => row.total.input_tokens),
    rows.map((row) => row.total.output_tokens),
  );
  return { input, output, total: input + output, num_results: rows.length, ...stats };
}

function tokenGroup(rows: readonly RowTokens[]): TokenGroup {
  const totals = zeroTokens();
  for (const row of rows) addTokens(totals, row.total);
  const stats = spread(
    rows.map((row) => row.total.input_tokens),
    rows.map((row) => row.total.output_tokens),
  );
  return {
    ...totals,
    num_results: rows.length,
    input_median: stats.input_median,
    input_std: stats.input_std,
    output_median: stats.output_median,
    output_std: stats.output_std,
  };
}

function tokenSummary(rows: readonly RowTokens[], withJudgment: boolean): TokenSummary {
  const byStage: Record<string, TokenCounts> = {};
  for (const row of rows) {
    for (const [stage, usage] of row.stages) addTokens(entryOf(byStage, stage, zeroTokens), usage);
  }
  const total = spread(
    rows.map((row) => row.total.input_tokens),
    rows.map((row) => row.total.output_tokens),
  );
  const templateRows = rows
    .map((row) => sumStages(row.stages, (stage) => TEMPLATE_STAGES.has(stage)))
    .filter((counts) => counts.input_tokens > 0 || counts.output_tokens > 0);
  const template = spread(
    templateRows.map((counts) => counts.input_tokens),
    templateRows.map((counts) => counts.output_tokens),
  );
  const counted = (keep: (stage: string) => boolean) => {
    const perRow = rows.map((row) => sumStages(row.stages, keep));
    return spread(positive(perRow.map((c) => c.input_tokens)), positive(perRow.map((c) => c.output_tokens)));
  };
  const rubric = counted((stage) => RUBRIC_STAGES.has(stage));
  const judgment = counted(isDeepJudgmentStage);
  const judged = (value: number) => (withJudgment ? value : null);
  return {
    total_input: total.input,
    total_input_std: total.input_std,
    total_output: total.output,
    total_output_std: total.output_std,
    template_input: template.input,
    template_input_std: template.input_std,
    template_output: template.output,
    template_output_std: template.output_std,
    rubric_input: rubric.input,
    rubric_input_std: rubric.input_std,
    rubric_output: rubric.output,
    rubric_output_std: rubric.output_std,
    deep_judgment_input: judged(judgment.input),
    deep_judgment_input_std: judged(judgment.input_std),
    deep_judgment_output: judged(judgment.output),
    deep_judgment_output_std: judged(judgment.output_std),
    median_per_question_input: total.input_median,
    median_per_question_input_std: total.input_std,
    median_per_question_output: total.output_median,
    median_per_question_output_std: total.output_std,
    total_tokens: rows.reduce((count, row) => count + row.total.total_tokens, 0),
    total_input_median: total.input_median,
    total_output_median: total.output_median,
    template_input_median: template.input_median,
    template_output_median: template.output_median,
    rubric_input_median: rubric.input_median,
    rubric_output_median: rubric.output_median,
    deep_judgment_input_median: judged(judgment.input_median),
    deep_judgment_output_median: judged(judgment.output_median),
    num_results_with_usage: rows.length,
    by_stage: byStage,
    by_question: mapValues(
      groupRows(rows, (row) => row.result.metadata.question_id),
      tokenGroup,
    ),
  };
}

/** The model a stage's tokens are priced as. */
function stageModel(result: VerificationResult, stage: string, usage: StageUsage): string {
  if (typeof usage.model === "string" && usage.model !== "") return usage.model;
  return stage === "answer_generation"
    ? result.metadata.answering.model_name
    : result.metadata.parsing.model_name;
}

function costSummary(rows: readonly RowTokens[], prices: PriceLookup): CostSummary {
  const cost: CostSummary = {
    total_usd: 0,
    input_usd: 0,
    output_usd: 0,
    by_stage: {},
    by_combo: {},
    by_model: {},
    unpriced_models: [],
    unpriced_tokens: 0,
  };
  const unpriced = new Set<string>();
  const priceOf = new Map<string, TokenPrice | undefined>();
  for (const { result, stages } of rows) {
    const combo = modelComboKey(result);
    for (const [stage, usage] of stages) {
      const model = stageModel(result, stage, usage);
      if (!priceOf.has(model)) priceOf.set(model, prices(model));
      const price = priceOf.get(model);
      const entry = entryOf(cost.by_model, model, () => ({
        ...zeroTokens(),
        cost_usd: price === undefined ? null : 0,
      }));
      addTokens(entry, usage);
      if (price === undefined) {
        if (usage.total_tokens > 0 || usage.input_tokens + usage.output_tokens > 0) {
          unpriced.add(model);
          cost.unpriced_tokens += usage.total_tokens;
        }
        continue;
      }
      const input = (usage.input_tokens * price.input_per_million) / 1e6;
      const output = (usage.output_tokens * price.output_per_million) / 1e6;
      cost.input_usd += input;
      cost.output_usd += output;
      cost.total_usd += input + output;
      entry.cost_usd = (entry.cost_usd ?? 0) + input + output;
      bump(cost.by_stage, stage, input + output);
      bump(cost.by_combo, combo, input + output);
    }
  }
  cost.unpriced_models = [...unpriced].sort();
  return cost;
}

// ---------------------------------------------------------------------------------------------------------
// rubrics

const TRAIT_TYPES = ["llm", "regex", "callable", "metric", "agentic"] as const;
type TraitType = (typeof TRAIT_TYPES)[number];

/**
 * The trait keys of each type a row scored, as the original reads them: score keys (template-kind LLM traits
 * as their `trait.field` keys), metric traits by their confusion lists (their scores when there are none).
 */
function rowTraitKeys(result: VerificationResult): Record<TraitType, string[]> {
  const rubric = result.rubric;
  const keys = (map: Record<string, unknown> | null | undefined) => Object.keys(map ?? {});
  return {
    llm: keys(rubric?.llm_trait_scores),
    regex: keys(rubric?.regex_trait_scores),
    callable: keys(rubric?.callable_trait_scores),
    metric: keys(rubric?.metric_trait_confusion_lists ?? rubric?.metric_trait_scores),
    agentic: keys(rubric?.agentic_trait_scores),
  };
}

/** Rows the trait counts read: a standard rubric evaluation ran, or agentic traits were scored. */
const hasRubricScores = (result: VerificationResult) =>
  result.rubric?.rubric_evaluation_performed === true ||
  Object.keys(result.rubric?.agentic_trait_scores ?? {}).length > 0;

/**
 * Trait evaluations per type, as the original counts them: `count` is one per score of each row
 * (evaluations), `names` the distinct traits. A trait is global when every question with rubric scores has a
 * score for it, question-specific otherwise. Null when no row has rubric scores.
 */
function rubricTraitCounts(results: readonly VerificationResult[]): ResultSummary["rubric_traits"] {
  const scored = results.filter(hasRubricScores);
  if (scored.length === 0) return null;
  const questionsOf = new Map<string, Set<string>>();
  for (const result of scored) {
    for (const names of Object.values(rowTraitKeys(result))) {
      for (const name of names) pushToSet(questionsOf, name, result.metadata.question_id);
    }
  }
  // Of the questions with rubric scores: a question that failed before its rubric ran does not make a global
  // trait question-specific (the original counts every question of the rows).
  const questions = new Set(scored.map((result) => result.metadata.question_id)).size;
  const isGlobal = (name: string) => questionsOf.get(name)?.size === questions;
  const empty = (): TraitCounts => ({
    llm: { count: 0, names: [] },
    regex: { count: 0, names: [] },
    callable: { count: 0, names: [] },
    metric: { count: 0, names: [] },
    agentic: { count: 0, names: [] },
  });
  const counts = { global_traits: empty(), question_specific_traits: empty() };
  for (const result of scored) {
    const keys = rowTraitKeys(result);
    for (const type of TRAIT_TYPES) {
      for (const name of keys[type]) {
        const entry = counts[isGlobal(name) ? "global_traits" : "question_specific_traits"][type];
        entry.count++;
        if (!entry.names.includes(name)) entry.names.push(name);
      }
    }
  }
  for (const scope of Object.values(counts)) for (const type of TRAIT_TYPES) scope[type].names.sort();
  return counts;
}

function pushToSet<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key) ?? new Set<V>();
  set.add(value);
  map.set(key, set);
}

/** A value summary: booleans → rate, numbers → mean/min/max, strings → label counts, else counted. */
function summarizeValues(values: readonly unknown[], labels?: readonly string[]): TraitSummary {
  const count = values.length;
  if (labels !== undefined) {
    const counts: Record<string, number> = {};
    for (const label of labels) bump(counts, label);
    return { kind: "literal", count, labels: counts };
  }
  if (count > 0 && values.every((value) => typeof value === "boolean")) {
    const trueCount = values.filter((value) => value === true).length;
    return { kind: "boolean", count, true_count: trueCount, rate: ratio(trueCount, count) };
  }
  if (count > 0 && values.every((value) => typeof value === "number")) {
    const numbers = values as number[];
    return {
      kind: "score",
      count,
      mean: mean(numbers),
      min: Math.min(...numbers),
      max: Math.max(...numbers),
    };
  }
  if (count > 0 && values.every((value) => typeof value === "string")) {
    return summarizeValues(values, values as string[]);
  }
  return { kind: "other", count };
}

function rubricScores(results: readonly VerificationResult[]): RubricScoreSummary {
  const llm = new Map<string, unknown[]>();
  const llmLabels = new Map<string, string[]>();
  const literalTraits = new Set<string>();
  const regex = new Map<string, unknown[]>();
  const callable = new Map<string, unknown[]>();
  const metric = new Map<string, Record<string, number>[]>();
  const agentic = new Map<string, unknown[]>();
  for (const result of results) {
    const rubric = result.rubric;
    if (rubric === null) continue;
    const labels = rubric.llm_trait_labels ?? {};
    for (const [name, value] of Object.entries(rubric.llm_trait_scores ?? {})) {
      pushTo(llm, name, value);
      const label = ownValue(labels, name);
      if (label !== undefined) literalTraits.add(name);
      pushTo(llmLabels, name, label ?? String(value));
    }
    for (const [name, value] of Object.entries(rubric.regex_trait_scores ?? {})) pushTo(regex, name, value);
    for (const [name, value] of Object.entries(rubric.callable_trait_scores ?? {}))
      pushTo(callable, name, value);
    for (const [name, value] of Object.entries(rubric.metric_trait_scores ?? {})) pushTo(metric, name, value);
    for (const [name, value] of Object.entries(rubric.agentic_trait_scores ?? {}))
      pushTo(agentic, name, value);
  }
  return {
    llm: mapValues(llm, (values, name) =>
      summarizeValues(values, literalTraits.has(name) ? llmLabels.get(name) : undefined),
    ),
    regex: mapValues(regex, (values) => summarizeValues(values)),
    callable: mapValues(callable, (values) => summarizeValues(values)),
    metric: mapValues(metric, (rows): MetricTraitSummary => {
      const perMetric = new Map<string, number[]>();
      for (const row of rows) for (const [name, value] of Object.entries(row)) pushTo(perMetric, name, value);
      return {
        kind: "metric",
        count: rows.length,
        metrics: mapValues(perMetric, (values) => ({
          count: values.length,
          mean: mean(values),
          min: Math.min(...values),
          max: Math.max(...values),
        })),
      };
    }),
    agentic: mapValues(agentic, (values) => {
      const present = values.filter((value) => value !== null && value !== undefined);
      return { ...summarizeValues(present), null_count: values.length - present.length };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// traces: tool usage and length

/**
 * The generated answer a row judged: parser siblings share one (spec 06 §1.8 `traceIdentity`), so agent
 * metrics are counted once per trace, not once per parsing model.
 */
function traceKey(result: VerificationResult): string {
  const { metadata } = result;
  return JSON.stringify([
    metadata.run_name,
    metadata.question_id,
    canonicalKey(metadata.answering),
    metadata.replicate,
    metadata.scenario_id,
    metadata.scenario_node,
    metadata.scenario_turn,
  ]);
}

function traceStats(results: readonly VerificationResult[]): {
  tool_usage_stats: ToolUsageStats | null;
  trace_length_stats: TraceLengthStats | null;
} {
  const metricsByTrace = new Map<string, AgentMetrics>();
  for (const result of results) {
    const metrics = result.template?.agent_metrics;
    const key = traceKey(result);
    if (metrics !== null && metrics !== undefined && !metricsByTrace.has(key))
      metricsByTrace.set(key, metrics);
  }
  const tools: ToolUsageStats["tools"] = {};
  let tracesWithTools = 0;
  let totalCalls = 0;
  const iterations: number[] = [];
  for (const metrics of metricsByTrace.values()) {
    iterations.push(metrics.iterations);
    const counts = metrics.tool_call_counts ?? {};
    const calls = metrics.tool_calls ?? Object.values(counts).reduce((a, b) => a + b, 0);
    totalCalls += calls;
    if (calls > 0) tracesWithTools++;
    for (const [tool, count] of Object.entries(counts)) {
      const entry = entryOf(tools, tool, () => ({ total_calls: 0, traces_using: 0, avg_calls_per_trace: 0 }));
      entry.total_calls += count;
      if (count > 0) entry.traces_using++;
    }
  }
  for (const entry of Object.values(tools))
    entry.avg_calls_per_trace = ratio(entry.total_calls, entry.traces_using);
  return {
    tool_usage_stats:
      tracesWithTools === 0
        ? null
        : { tools, total_traces_with_tools: tracesWithTools, total_tool_calls: totalCalls },
    trace_length_stats:
      iterations.length === 0
        ? null
        : {
            median_iterations: median(iterations),
            mean_iterations: mean(iterations),
            std_iterations: populationStd(iterations),
            min_iterations: iterations.length === 0 ? 0 : Math.min(...iterations),
            max_iterations: iterations.length === 0 ? 0 : Math.max(...iterations),
            num_traces: iterations.length,
          },
  };
}

// ---------------------------------------------------------------------------------------------------------
// the summary

/**
 * Aggregates results (spec 06 §3.1 `getSummary()`): counts, failures, tokens and cost, completion and
 * template pass rates by model combination, question and keyword, rubric traits and per-trait score
 * summaries, replicate statistics, pass@k, tool usage and trace lengths.
 *
 * - "passed" is `template.verify_result === true` on a row whose template verification was performed; pass
 *   rates count only such rows. "completed" is `metadata.failure === null`.
 * - Token medians and stds are population statistics over the rows that carry `usage_metadata`; the
 *   replicate summary's std is the sample std. Every statistic of an empty list is 0.
 * - pass@k per question and model combination takes the question's evaluated rows of that combination as its
 *   n samples (its replicates; several runs of the same question count too).
 * - Agent metrics (tool usage, trace lengths) are counted once per generated answer: parser siblings of the
 *   same (run, question, answering model, replicate) share one.
 * - Costs price each usage stage by its recorded model (see {@link PriceLookup}).
 * @example
 * const row = (question_id, verify_result, input_tokens) => parseVerificationResult({
 *   metadata: { question_id, template_id: "t", question_text: "Which drug?", keywords: ["oncology"],
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1-mini" },
 *     execution_time: 2, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template: { template_verification_performed: true, verify_result,
 *     usage_metadata: { answer_generation: { input_tokens, output_tokens: 500_000, total_tokens: input_tokens + 500_000, model: "gpt-4.1" } } },
 * });
 * const summary = summarizeResults([row("q1", true, 1_000_000), row("q2", false, 3_000_000)], {
 *   prices: (model) => (model === "gpt-4.1" ? { input_per_million: 2, output_per_million: 8 } : undefined),
 * });
 * summary.template_pass_by_combo; // { "openai:gpt-4.1 | openai:gpt-4.1-mini": { total: 2, passed: 1, pass_pct: 50, pass_rate: 0.5 } }
 * summary.template_pass_by_keyword.oncology.passed; // 1
 * summary.tokens.total_input_median; // 2000000
 * summary.cost.total_usd; // 16
 */
export function summarizeResults(
  results: Iterable<VerificationResult>,
  options: SummaryOptions = {},
): ResultSummary {
  const rows = [...results];
  const failuresByCategory: Partial<Record<FailureCategory, number>> = {};
  const failuresByGroup: Partial<Record<FailureGroup, number>> = {};
  for (const { metadata } of rows) {
    if (metadata.failure === null) continue;
    bump(failuresByCategory, metadata.failure.category);
    bump(failuresByGroup, metadata.failure.group);
  }
  const distinct = (value: (result: VerificationResult) => unknown) => new Set(rows.map(value)).size;
  const byCombo = groupRows(rows, modelComboKey);
  const keywordRows = new Map<string, VerificationResult[]>();
  for (const result of rows) {
    for (const keyword of new Set(result.metadata.keywords ?? [])) pushTo(keywordRows, keyword, result);
  }
  const usageRows = rowsWithUsage(rows);
  const judged = outcomeCounts(rows);
  const anyJudged = judged.passed + judged.failed > 0;
  const numWithJudgment = rows.filter(
    (result) => result.deep_judgment?.deep_judgment_performed === true,
  ).length;
  return {
    num_results: rows.length,
    num_completed: rows.filter((result) => result.metadata.failure === null).length,
    num_with_template: rows.filter(evaluated).length,
    num_with_rubric: rows.filter((result) => result.rubric?.rubric_evaluation_performed === true).length,
    num_with_judgment: numWithJudgment,
    num_questions: distinct((result) => result.metadata.question_id),
    num_models: distinct((result) => answeringModelKey(result)),
    num_parsing_models: distinct((result) => displayString(result.metadata.parsing)),
    num_replicates: new Set(rows.flatMap((result) => result.metadata.replicate ?? [])).size,
    total_execution_time: rows.reduce((total, result) => total + result.metadata.execution_time, 0),
    tokens: tokenSummary(usageRows, numWithJudgment > 0),
    tokens_by_combo: mapValues(
      groupRows(usageRows, (row) => modelComboKey(row.result)),
      comboTokens,
    ),
    completion_by_combo: mapValues(byCombo, (comboRows) => {
      const { num_results, num_completed, completion_pct } = groupOutcome(comboRows);
      return { total: num_results, completed: num_completed, completion_pct };
    }),
    rubric_traits: rubricTraitCounts(rows),
    template_pass_by_combo: anyJudged ? mapValues(byCombo, passRate) : null,
    template_pass_overall: anyJudged ? rateOf(judged) : null,
    replicate_stats: replicateStats(rows),
    ...traceStats(rows),
    outcomes: judged,
    failures_by_category: failuresByCategory,
    failures_by_group: failuresByGroup,
    cost: options.prices === undefined ? null : costSummary(usageRows, options.prices),
    template_pass_by_question: mapValues(
      groupRows(rows, (result) => result.metadata.question_id),
      (questionRows) => ({
        question_text: questionRows[0]?.metadata.question_text ?? "",
        ...groupOutcome(questionRows),
      }),
    ),
    template_pass_by_keyword: mapValues(keywordRows, groupOutcome),
    rubric_scores: rubricScores(rows),
    rubric_scores_by_combo: mapValues(byCombo, rubricScores),
    pass_at_k: passAtKByCombo(rows),
  };
}
