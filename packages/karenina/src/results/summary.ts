import { type OutcomeCounts, outcomeCounts, passRateOf, rowOutcome } from "./outcome.js";
import { PassAtKCounts } from "./pass-at-k.js";
import { RESULT_DIGEST_VERSION } from "./result-digest.js";
import { countIn, mapEntryOf, mean, ratio, recordOf, sampleStd } from "./statistics.js";
import { ModelKeyCache } from "./summary-models.js";
import { RubricScores, RubricTraitCounts } from "./summary-rubric.js";
import { TokenAccumulator } from "./summary-tokens.js";
import { TraceStats } from "./summary-traces.js";
import type {
  Completion,
  GroupOutcome,
  PassRate,
  ReplicateStats,
  ResultSummary,
  SummaryOptions,
} from "./summary-types.js";
import type { FailureCategory, FailureGroup, VerificationResult } from "./verification-result.js";

export { passAtK } from "./pass-at-k.js";

/**
 * The version of {@link summarizeResults}' output for given rows: bump it whenever that output changes. A
 * stored summary of another version is computed again. It carries the digest version too, since a new digest
 * format (what summaries read) means the summary read changed.
 */
export const SUMMARY_FORMAT_VERSION = RESULT_DIGEST_VERSION * 1_000 + 1;
export type * from "./summary-types.js";

// The summary is one pass over the rows: each row is read once, into counts, sums, per-group maps and the
// number lists the medians and stds need, and let go. `summarizeResults` is that pass over a list; a caller
// reading rows a page at a time (a stored run of 100,000 rows) feeds the same accumulator page by page.

/**
 * Pass counts of rows by `rowOutcome`: `total` = passed + failed, rows not evaluated left out.
 * @example
 * passRate([]); // { total: 0, passed: 0, pass_pct: 0, pass_rate: 0 }
 */
export function passRate(results: Iterable<VerificationResult>): PassRate {
  const counts = outcomeCounts(results);
  return rateOf(counts.passed, counts.failed);
}

/** Pass counts from the numbers of passed and failed rows. */
export function rateOf(passed: number, failed: number): PassRate {
  const rate = passRateOf(passed, failed);
  return { total: passed + failed, passed, pass_pct: rate * 100, pass_rate: rate };
}

/** Outcome counts of a group of rows (a question, a keyword, a model combination, a replicate). */
class GroupCounts {
  results = 0;
  completed = 0;
  passed = 0;
  failed = 0;

  add(failure: unknown, outcome: string): void {
    this.results++;
    if (failure === null) this.completed++;
    if (outcome === "passed") this.passed++;
    else if (outcome === "failed") this.failed++;
  }

  rate(): PassRate {
    return rateOf(this.passed, this.failed);
  }

  outcome(): GroupOutcome {
    return {
      ...this.rate(),
      failed: this.failed,
      num_results: this.results,
      num_completed: this.completed,
      completion_pct: ratio(this.completed * 100, this.results),
    };
  }

  completion(): Completion {
    return {
      total: this.results,
      completed: this.completed,
      completion_pct: ratio(this.completed * 100, this.results),
    };
  }
}

/** A model combination: its outcome counts and its rubric score summaries. */
class ComboState extends GroupCounts {
  readonly rubric = new RubricScores();
}

/** A question: its outcome counts and the text of its first row. */
class QuestionState extends GroupCounts {
  constructor(readonly text: string) {
    super();
  }
}

/**
 * A summary built a page of rows at a time: `add` each page as it is read, `finish` for the summary of every
 * row added so far. It holds counts, sums and per-group maps, never the rows, so a caller may drop each page
 * once it is added. Adding rows in pages of any size gives the summary `summarizeResults` gives of them all.
 */
export interface SummaryAccumulator {
  /** Counts `rows` into the summary; they are not kept. */
  add(rows: Iterable<VerificationResult>): void;
  /** Rows added so far. */
  readonly count: number;
  /** The summary of every row added so far (the accumulator can go on taking rows). */
  finish(): ResultSummary;
}

/**
 * Starts a summary to be fed page by page (see {@link SummaryAccumulator} and {@link summarizeResults}).
 * @example
 * const row = (question_id, verify_result) => parseVerificationResult({
 *   metadata: { question_id, template_id: "t", question_text: "Which drug?",
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1" },
 *     execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template: { template_verification_performed: true, verify_result },
 * });
 * const summary = createSummaryAccumulator();
 * summary.add([row("q1", true)]);
 * summary.add([row("q2", false), row("q3", true)]);
 * summary.finish().template_pass_overall; // { total: 3, passed: 2, pass_pct: 66.66666666666666, pass_rate: 0.6666666666666666 }
 */
export function createSummaryAccumulator(options: SummaryOptions = {}): SummaryAccumulator {
  return new Summary(options);
}

class Summary implements SummaryAccumulator {
  count = 0;
  private completed = 0;
  private withTemplate = 0;
  private withRubric = 0;
  private withJudgment = 0;
  private executionTime = 0;
  private notEvaluated = 0;
  private readonly overall = new GroupCounts();
  private readonly answeringModels = new Set<string>();
  private readonly parsingModels = new Set<string>();
  private readonly replicateNumbers = new Set<number>();
  private readonly failuresByCategory = new Map<FailureCategory, number>();
  private readonly failuresByGroup = new Map<FailureGroup, number>();
  private readonly combos = new Map<string, ComboState>();
  private readonly questions = new Map<string, QuestionState>();
  private readonly keywords = new Map<string, GroupCounts>();
  private readonly replicates = new Map<number, GroupCounts>();
  private readonly tokens: TokenAccumulator;
  private readonly rubricTraits = new RubricTraitCounts();
  private readonly rubricScores = new RubricScores();
  private readonly traces = new TraceStats();
  private readonly passAtK = new PassAtKCounts();
  private readonly modelKeys = new ModelKeyCache();

  constructor(options: SummaryOptions) {
    this.tokens = new TokenAccumulator(options.prices);
  }

  add(rows: Iterable<VerificationResult>): void {
    for (const result of rows) this.addRow(result);
  }

  private addRow(result: VerificationResult): void {
    const { metadata } = result;
    const { failure } = metadata;
    const outcome = rowOutcome(result);
    const verified = result.template?.template_verification_performed === true;
    this.count++;
    this.overall.add(failure, outcome);
    if (outcome === "not_evaluated") this.notEvaluated++;
    if (failure === null) this.completed++;
    else {
      countIn(this.failuresByCategory, failure.category);
      countIn(this.failuresByGroup, failure.group);
    }
    if (verified) this.withTemplate++;
    if (result.rubric?.rubric_evaluation_performed === true) this.withRubric++;
    if (result.deep_judgment?.deep_judgment_performed === true) this.withJudgment++;
    this.executionTime += metadata.execution_time;
    const models = this.modelKeys.of(result);
    this.answeringModels.add(models.answering);
    this.parsingModels.add(models.parsing);
    const combo = models.combo;
    let comboState = this.combos.get(combo);
    if (comboState === undefined) {
      comboState = new ComboState();
      this.combos.set(combo, comboState);
    }
    comboState.add(failure, outcome);
    const question = metadata.question_id;
    let questionState = this.questions.get(question);
    if (questionState === undefined) {
      questionState = new QuestionState(metadata.question_text ?? "");
      this.questions.set(question, questionState);
    }
    questionState.add(failure, outcome);
    const keywords = metadata.keywords ?? NO_KEYWORDS;
    for (let index = 0; index < keywords.length; index++) {
      const keyword = keywords[index] as string;
      // A row counts once under each of its keywords.
      if (keywords.indexOf(keyword) === index)
        mapEntryOf(this.keywords, keyword, newGroupCounts).add(failure, outcome);
    }
    const replicate = metadata.replicate;
    if (replicate !== null) {
      if (replicate !== undefined) this.replicateNumbers.add(replicate);
      mapEntryOf(this.replicates, replicate, newGroupCounts).add(failure, outcome);
    }
    this.tokens.add(result, combo);
    this.rubricTraits.add(result);
    this.rubricScores.add(result, comboState.rubric);
    this.traces.add(result, models.answeringCanonical);
    if (verified) this.passAtK.add(combo, question, outcome === "passed");
  }

  finish(): ResultSummary {
    const overall = this.overall;
    const anyJudged = overall.passed + overall.failed > 0;
    const judged: OutcomeCounts = {
      results: this.count,
      passed: overall.passed,
      failed: overall.failed,
      not_evaluated: this.notEvaluated,
      verified: this.withTemplate,
      ...pick(rateOf(overall.passed, overall.failed)),
    };
    return {
      num_results: this.count,
      num_completed: this.completed,
      num_with_template: this.withTemplate,
      num_with_rubric: this.withRubric,
      num_with_judgment: this.withJudgment,
      num_questions: this.questions.size,
      num_models: this.answeringModels.size,
      num_parsing_models: this.parsingModels.size,
      num_replicates: this.replicateNumbers.size,
      total_execution_time: this.executionTime,
      tokens: this.tokens.tokens(this.withJudgment > 0),
      tokens_by_combo: this.tokens.tokensByCombo(),
      completion_by_combo: recordOf(this.combos, (combo) => combo.completion()),
      rubric_traits: this.rubricTraits.finish(),
      template_pass_by_combo: anyJudged ? recordOf(this.combos, (combo) => combo.rate()) : null,
      template_pass_overall: anyJudged ? overall.rate() : null,
      replicate_stats: this.replicateStats(),
      ...this.traces.finish(),
      outcomes: judged,
      failures_by_category: recordOf(this.failuresByCategory),
      failures_by_group: recordOf(this.failuresByGroup),
      cost: this.tokens.costSummary(),
      template_pass_by_question: recordOf(this.questions, (question) => ({
        question_text: question.text,
        ...question.outcome(),
      })),
      template_pass_by_keyword: recordOf(this.keywords, (keyword) => keyword.outcome()),
      rubric_scores: this.rubricScores.finish(),
      rubric_scores_by_combo: recordOf(this.combos, (combo) => combo.rubric.finish()),
      pass_at_k: this.passAtK.finish(),
    };
  }

  /** Null unless the rows have more than one replicate number. */
  private replicateStats(): ReplicateStats | null {
    if (this.replicates.size <= 1) return null;
    const ordered = [...this.replicates].sort(([a], [b]) => a - b);
    const rates: Record<string, PassRate> = {};
    for (const [replicate, counts] of ordered) rates[replicate] = counts.rate();
    const values = Object.values(rates).map((rate) => rate.pass_rate);
    return { replicate_pass_rates: rates, replicate_summary: { mean: mean(values), std: sampleStd(values) } };
  }
}

const NO_KEYWORDS: readonly string[] = [];

const pick = ({ pass_rate, pass_pct }: PassRate) => ({ pass_rate, pass_pct });

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
  const summary = createSummaryAccumulator(options);
  summary.add(results);
  return summary.finish();
}

const newGroupCounts = () => new GroupCounts();
