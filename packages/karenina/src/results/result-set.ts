import { answeringModelKey } from "./model-combo-key.js";
import { displayString } from "./model-identity.js";
import { pushTo } from "./statistics.js";
import { type ResultSummary, type SummaryOptions, summarizeResults } from "./summary.js";
import { parseVerificationResult, type VerificationResult } from "./verification-result.js";

/**
 * Which rows {@link VerificationResultSet.filter} keeps. Every criterion given must hold; an absent one does
 * not filter. The list criteria keep rows whose value is in the list; `hasTemplate`, `hasRubric` and
 * `hasJudgment` keep the rows with (`true`) or without (`false`) that evaluation.
 */
export interface ResultFilter {
  readonly questionIds?: readonly string[];
  /** Answering models as display strings (`interface:model_name`, see `displayString`). */
  readonly answeringModels?: readonly string[];
  /** Parsing models as display strings. */
  readonly parsingModels?: readonly string[];
  /** Replicate numbers; `null` matches the rows of single-replicate runs. */
  readonly replicates?: readonly (number | null)[];
  /** Only rows without a failure (`metadata.failure === null`); `false` does not filter. */
  readonly completedOnly?: boolean;
  /** Template verification was performed. */
  readonly hasTemplate?: boolean;
  /** The standard rubric evaluation was performed. */
  readonly hasRubric?: boolean;
  /** Template deep judgment was performed. */
  readonly hasJudgment?: boolean;
}

/** How {@link VerificationResultSet.groupByModel} keys its groups. */
export type ModelGrouping = "answering" | "parsing" | "both";

function matchesFilter(result: VerificationResult, criteria: ResultFilter): boolean {
  const { metadata } = result;
  const flag = (wanted: boolean | undefined, actual: boolean) => wanted === undefined || wanted === actual;
  const listed = <T>(list: readonly T[] | undefined, value: T) => list === undefined || list.includes(value);
  return (
    listed(criteria.questionIds, metadata.question_id) &&
    listed(criteria.answeringModels, displayString(metadata.answering)) &&
    listed(criteria.parsingModels, displayString(metadata.parsing)) &&
    listed(criteria.replicates, metadata.replicate) &&
    (criteria.completedOnly !== true || metadata.failure === null) &&
    flag(criteria.hasTemplate, result.template?.template_verification_performed === true) &&
    flag(criteria.hasRubric, result.rubric?.rubric_evaluation_performed === true) &&
    flag(criteria.hasJudgment, result.deep_judgment?.deep_judgment_performed === true)
  );
}

/**
 * A list of verification results with the original's filtering, grouping and summary (spec 06 §3.1). The
 * set is immutable: `filter` and the `groupBy*` methods return new sets over the same row objects. Groups
 * and name lists come in the order their first row appears.
 * @example
 * const row = (question_id, replicate, verify_result) => parseVerificationResult({
 *   metadata: { question_id, template_id: "t", question_text: "Which drug?", replicate,
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1" },
 *     execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template: { template_verification_performed: true, verify_result },
 * });
 * const set = new VerificationResultSet([row("q1", 1, true), row("q1", 2, false), row("q2", 1, true)]);
 * set.length; // 3
 * set.getQuestionIds(); // ["q1", "q2"]
 * set.filter({ replicates: [1] }).length; // 2
 * [...set.groupByReplicate().keys()]; // [1, 2]
 * set.getSummary().template_pass_overall; // { total: 3, passed: 2, pass_pct: 66.66666666666666, pass_rate: 0.6666666666666666 }
 */
export class VerificationResultSet implements Iterable<VerificationResult> {
  readonly results: readonly VerificationResult[];

  constructor(results: Iterable<VerificationResult> = []) {
    this.results = Object.freeze([...results]);
  }

  /**
   * Validates rows (e.g. the `results` array of a results export) with `parseVerificationResult`. A bad row
   * throws a `VerificationResultError` naming it as `where[index]`.
   */
  static parse(rows: readonly unknown[], where = "results"): VerificationResultSet {
    return new VerificationResultSet(
      rows.map((row, index) => parseVerificationResult(row, `${where}[${index}]`)),
    );
  }

  get length(): number {
    return this.results.length;
  }

  /** The row at `index` (negative counts from the end), or undefined. */
  at(index: number): VerificationResult | undefined {
    return this.results.at(index);
  }

  [Symbol.iterator](): Iterator<VerificationResult> {
    return this.results[Symbol.iterator]();
  }

  /** The rows every given criterion holds for. */
  filter(criteria: ResultFilter): VerificationResultSet {
    return new VerificationResultSet(this.results.filter((result) => matchesFilter(result, criteria)));
  }

  /** The rows per question id. */
  groupByQuestion(): Map<string, VerificationResultSet> {
    return this.#groupBy((result) => result.metadata.question_id);
  }

  /**
   * The rows per model: `answering` by {@link answeringModelKey} (display string, ` + MCP[a,b]` when MCP
   * servers were attached), `parsing` by the parsing model's display string, `both` by
   * `"<answering key> / <parsing>"`.
   */
  groupByModel(by: ModelGrouping = "answering"): Map<string, VerificationResultSet> {
    const parsing = (result: VerificationResult) => displayString(result.metadata.parsing);
    if (by === "answering") return this.#groupBy(answeringModelKey);
    if (by === "parsing") return this.#groupBy(parsing);
    return this.#groupBy((result) => `${answeringModelKey(result)} / ${parsing(result)}`);
  }

  /** The rows per replicate number; rows of single-replicate runs are under `null`. */
  groupByReplicate(): Map<number | null, VerificationResultSet> {
    return this.#groupBy((result) => result.metadata.replicate);
  }

  /** The distinct question ids. */
  getQuestionIds(): string[] {
    return [...new Set(this.results.map((result) => result.metadata.question_id))];
  }

  /** The distinct display strings of the answering (default) or parsing models. */
  getModelNames(role: "answering" | "parsing" = "answering"): string[] {
    return [...new Set(this.results.map((result) => displayString(result.metadata[role])))];
  }

  /** The aggregate view of the rows (see {@link summarizeResults}). */
  getSummary(options: SummaryOptions = {}): ResultSummary {
    return summarizeResults(this.results, options);
  }

  /** `{results: [...]}`, the shape the original serializes a result set as. */
  toJSON(): { results: VerificationResult[] } {
    return { results: [...this.results] };
  }

  #groupBy<K>(keyOf: (result: VerificationResult) => K): Map<K, VerificationResultSet> {
    const groups = new Map<K, VerificationResult[]>();
    for (const result of this.results) pushTo(groups, keyOf(result), result);
    return new Map([...groups].map(([key, rows]) => [key, new VerificationResultSet(rows)]));
  }
}
