import { modelComboKey } from "./model-combo-key.js";
import { displayString } from "./model-identity.js";
import { type RowOutcome, rowOutcome } from "./outcome.js";
import { rowKey } from "./row-key.js";
import { type PassRate, rateOf } from "./summary.js";
import type { FailureCategory, FailureGroup, VerificationResult } from "./verification-result.js";

/** A row's outcome and failure, as a comparison reports it. */
export interface RowState {
  outcome: RowOutcome;
  failure_category: FailureCategory | null;
  failure_group: FailureGroup | null;
  failure_stage: string | null;
  failure_reason: string | null;
  result_id: string;
}

/** Which task a compared row is: question, models (display strings) and replicate. */
export interface RowIdentity {
  question_id: string;
  question_text: string;
  answering_model: string;
  parsing_model: string;
  replicate: number | null;
}

/** A row present in one run only. */
export type UnmatchedRow = RowIdentity & RowState;

/** A matched row whose outcome or failure differs between the runs. */
export interface RowChange extends RowIdentity {
  before: RowState;
  after: RowState;
}

/**
 * A question some of whose matched rows changed. `regressed`: only for the worse (pass → fail, or a failure
 * appeared); `improved`: only for the better; `mixed`: both.
 */
export interface QuestionChange {
  question_id: string;
  question_text: string;
  change: "regressed" | "improved" | "mixed";
  pass_to_fail: number;
  fail_to_pass: number;
  newly_failing: number;
  no_longer_failing: number;
  /** Pass counts of the question's matched rows in each run. */
  before: PassRate;
  after: PassRate;
}

/** Pass counts of a model combination in each run (all its rows), and the change in percentage points. */
export interface ComboComparison {
  before: PassRate;
  after: PassRate;
  pass_pct_delta: number;
}

export interface ComparisonSummary {
  /** Distinct rows (by key) of each run. */
  rows_before: number;
  rows_after: number;
  matched: number;
  only_before: number;
  only_after: number;
  /** Matched rows with the same outcome and failure category. */
  unchanged: number;
  pass_to_fail: number;
  fail_to_pass: number;
  newly_failing: number;
  no_longer_failing: number;
  failure_changed: number;
  questions_changed: number;
  /** Rows left out because a later row of the same run had the same key. */
  duplicates_before: number;
  duplicates_after: number;
  /** Pass percentages over the matched rows, and after − before in percentage points. */
  pass_pct_before: number;
  pass_pct_after: number;
  pass_pct_delta: number;
}

/**
 * Two lists of results compared row by row (see {@link compareRuns}). `before` is the first argument,
 * `after` the second.
 */
export interface RunComparison {
  summary: ComparisonSummary;
  /** Pass counts of every row of each run. */
  before: PassRate;
  after: PassRate;
  /** Pass counts of the matched rows only: the like-for-like comparison. */
  matched_before: PassRate;
  matched_after: PassRate;
  by_combo: Record<string, ComboComparison>;
  /** Passed before, failed after. */
  pass_to_fail: RowChange[];
  /** Failed before, passed after. */
  fail_to_pass: RowChange[];
  /** No failure before, a failure after (its category in `after`). */
  newly_failing: RowChange[];
  /** A failure before, none after. */
  no_longer_failing: RowChange[];
  /** A failure in both runs, of different categories. */
  failure_changed: RowChange[];
  questions_changed: QuestionChange[];
  only_before: UnmatchedRow[];
  only_after: UnmatchedRow[];
}

// A comparison reads each run once, row by row: per row key, the newest row cut down to what the comparison
// reports (its identity, its state, its model combination and timestamp), with the strings that repeat from
// row to row (question texts, model names, failure reasons) kept once. A caller reading stored runs a page at
// a time adds each page to a side and drops it.

/** What a comparison keeps of a row. */
interface ComparedRow {
  readonly identity: RowIdentity;
  readonly state: RowState;
  readonly combo: string;
  readonly timestamp: string;
}

/** One copy of each repeated string. */
class Strings {
  private readonly seen = new Map<string, string>();

  of(value: string): string {
    const known = this.seen.get(value);
    if (known !== undefined) return known;
    this.seen.set(value, value);
    return value;
  }

  ofNullable(value: string | null): string | null {
    return value === null ? null : this.of(value);
  }
}

/**
 * One side of a comparison, fed a page of rows at a time (see {@link compareSides}): per row key (question,
 * models, replicate, scenario position) the newest row (latest timestamp, then the later row), cut down to
 * what the comparison reports. Rows added are not kept.
 */
export class ComparisonSide {
  /** Rows by key, in the order their keys were first seen. */
  readonly rows = new Map<string, ComparedRow>();
  /** Rows left out because a later row had the same key. */
  duplicates = 0;
  private readonly strings = new Strings();

  /** Adds rows to this side. */
  add(results: Iterable<VerificationResult>): void {
    for (const result of results) {
      const key = rowKey(result);
      const previous = this.rows.get(key);
      if (previous !== undefined) {
        this.duplicates++;
        if (previous.timestamp > result.metadata.timestamp) continue;
      }
      this.rows.set(key, this.compact(result));
    }
  }

  private compact(result: VerificationResult): ComparedRow {
    const { metadata } = result;
    const failure = metadata.failure;
    const s = this.strings;
    return {
      identity: {
        question_id: s.of(metadata.question_id),
        question_text: s.of(metadata.question_text),
        answering_model: s.of(displayString(metadata.answering)),
        parsing_model: s.of(displayString(metadata.parsing)),
        replicate: metadata.replicate,
      },
      state: {
        outcome: rowOutcome(result),
        failure_category: failure?.category ?? null,
        failure_group: failure?.group ?? null,
        failure_stage: s.ofNullable(failure?.stage ?? null),
        failure_reason: s.ofNullable(failure?.reason ?? null),
        result_id: metadata.result_id,
      },
      combo: s.of(modelComboKey(result)),
      timestamp: s.of(metadata.timestamp),
    };
  }
}

/** Rows in a stable order, whatever the order of the file: question, models, replicate. */
function ordered(rows: Map<string, ComparedRow>): [string, ComparedRow][] {
  return [...rows].sort(([, { identity: x }], [, { identity: y }]) => {
    const kx = [x.question_id, x.answering_model, x.parsing_model];
    const ky = [y.question_id, y.answering_model, y.parsing_model];
    for (const [at, value] of kx.entries()) {
      const other = ky[at] ?? "";
      if (value !== other) return value < other ? -1 : 1;
    }
    return (x.replicate ?? 0) - (y.replicate ?? 0);
  });
}

/** Passed and failed counts of a group of rows. */
class Tally {
  passed = 0;
  failed = 0;

  add(state: RowState): void {
    if (state.outcome === "passed") this.passed++;
    else if (state.outcome === "failed") this.failed++;
  }

  rate(): PassRate {
    return rateOf(this.passed, this.failed);
  }
}

function tallyOf(rows: Iterable<ComparedRow>): Tally {
  const tally = new Tally();
  for (const row of rows) tally.add(row.state);
  return tally;
}

const unmatched = (row: ComparedRow): UnmatchedRow => ({ ...row.identity, ...row.state });

const changeOf = (before: ComparedRow, after: ComparedRow): RowChange => ({
  ...after.identity,
  before: { ...before.state },
  after: { ...after.state },
});

/**
 * Compares two lists of results, e.g. two runs of the same benchmark, or a run before and after a prompt
 * change. Rows are matched by (question id, answering model canonical key, parsing model canonical key,
 * replicate); when a list has several rows with the same key, the newest counts. Reports each run's pass
 * rates (all rows and matched rows), pass rates per model combination, the matched rows whose verdict
 * changed (pass → fail, fail → pass), whose failure appeared, disappeared or changed category, the questions
 * concerned, and the rows present in one run only.
 * @example
 * const row = (question_id, verify_result) => parseVerificationResult({
 *   metadata: { question_id, template_id: "t", question_text: "Which drug?",
 *     failure: verify_result ? null : { category: "content", stage: "verify_template", reason: "verify_template returned False" },
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1" },
 *     execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template: { template_verification_performed: true, verify_result },
 * });
 * const comparison = compareRuns([row("q1", true), row("q2", false)], [row("q1", false), row("q2", false), row("q3", true)]);
 * comparison.pass_to_fail.map((change) => change.question_id); // ["q1"]
 * comparison.newly_failing[0].after.failure_category; // "content"
 * comparison.only_after.map((only) => only.question_id); // ["q3"]
 * comparison.summary.pass_pct_delta; // -50
 */
export function compareRuns(
  before: Iterable<VerificationResult>,
  after: Iterable<VerificationResult>,
): RunComparison {
  const a = new ComparisonSide();
  a.add(before);
  const b = new ComparisonSide();
  b.add(after);
  return compareSides(a, b);
}

/** {@link compareRuns} of two sides fed row by row: `before` is `a`, `after` is `b`. */
export function compareSides(a: ComparisonSide, b: ComparisonSide): RunComparison {
  const matchedBefore = new Tally();
  const matchedAfter = new Tally();
  const comparison: Omit<RunComparison, "summary" | "questions_changed" | "by_combo"> = {
    before: tallyOf(a.rows.values()).rate(),
    after: tallyOf(b.rows.values()).rate(),
    matched_before: rateOf(0, 0),
    matched_after: rateOf(0, 0),
    pass_to_fail: [],
    fail_to_pass: [],
    newly_failing: [],
    no_longer_failing: [],
    failure_changed: [],
    only_before: [],
    only_after: [],
  };
  let unchanged = 0;
  let matched = 0;
  const questions = new Map<string, { text: string; before: Tally; after: Tally }>();
  const changedQuestions = new Map<
    string,
    Omit<QuestionChange, "change" | "before" | "after" | "question_text">
  >();
  const changed = (question: string) => {
    let entry = changedQuestions.get(question);
    if (entry === undefined) {
      entry = {
        question_id: question,
        pass_to_fail: 0,
        fail_to_pass: 0,
        newly_failing: 0,
        no_longer_failing: 0,
      };
      changedQuestions.set(question, entry);
    }
    return entry;
  };
  for (const [key, old] of ordered(a.rows)) {
    const current = b.rows.get(key);
    if (current === undefined) {
      comparison.only_before.push(unmatched(old));
      continue;
    }
    matched++;
    const was = old.state;
    const now = current.state;
    matchedBefore.add(was);
    matchedAfter.add(now);
    const question = old.identity.question_id;
    let group = questions.get(question);
    if (group === undefined) {
      group = { text: current.identity.question_text, before: new Tally(), after: new Tally() };
      questions.set(question, group);
    }
    group.before.add(was);
    group.after.add(now);
    let differs = false;
    if (was.outcome === "passed" && now.outcome === "failed") {
      comparison.pass_to_fail.push(changeOf(old, current));
      changed(question).pass_to_fail++;
      differs = true;
    } else if (was.outcome === "failed" && now.outcome === "passed") {
      comparison.fail_to_pass.push(changeOf(old, current));
      changed(question).fail_to_pass++;
      differs = true;
    }
    if (was.failure_category === null && now.failure_category !== null) {
      comparison.newly_failing.push(changeOf(old, current));
      changed(question).newly_failing++;
      differs = true;
    } else if (was.failure_category !== null && now.failure_category === null) {
      comparison.no_longer_failing.push(changeOf(old, current));
      changed(question).no_longer_failing++;
      differs = true;
    } else if (was.failure_category !== now.failure_category) {
      comparison.failure_changed.push(changeOf(old, current));
      differs = true;
    }
    if (!differs && was.outcome === now.outcome) unchanged++;
  }
  for (const [key, current] of ordered(b.rows)) {
    if (!a.rows.has(key)) comparison.only_after.push(unmatched(current));
  }
  comparison.matched_before = matchedBefore.rate();
  comparison.matched_after = matchedAfter.rate();

  const questionsChanged: QuestionChange[] = [];
  for (const [question, counts] of changedQuestions) {
    const group = questions.get(question);
    const worse = counts.pass_to_fail + counts.newly_failing > 0;
    const better = counts.fail_to_pass + counts.no_longer_failing > 0;
    questionsChanged.push({
      question_id: question,
      question_text: group?.text ?? "",
      change: worse && better ? "mixed" : worse ? "regressed" : "improved",
      pass_to_fail: counts.pass_to_fail,
      fail_to_pass: counts.fail_to_pass,
      newly_failing: counts.newly_failing,
      no_longer_failing: counts.no_longer_failing,
      before: (group?.before ?? new Tally()).rate(),
      after: (group?.after ?? new Tally()).rate(),
    });
  }

  const byCombo: Record<string, ComboComparison> = {};
  const combos = new Map<string, { before: Tally; after: Tally }>();
  const comboOf = (combo: string) => {
    let entry = combos.get(combo);
    if (entry === undefined) {
      entry = { before: new Tally(), after: new Tally() };
      combos.set(combo, entry);
    }
    return entry;
  };
  for (const row of a.rows.values()) comboOf(row.combo).before.add(row.state);
  for (const row of b.rows.values()) comboOf(row.combo).after.add(row.state);
  for (const [combo, tallies] of combos) {
    const was = tallies.before.rate();
    const now = tallies.after.rate();
    byCombo[combo] = { before: was, after: now, pass_pct_delta: now.pass_pct - was.pass_pct };
  }

  return {
    summary: {
      rows_before: a.rows.size,
      rows_after: b.rows.size,
      matched,
      only_before: comparison.only_before.length,
      only_after: comparison.only_after.length,
      unchanged,
      pass_to_fail: comparison.pass_to_fail.length,
      fail_to_pass: comparison.fail_to_pass.length,
      newly_failing: comparison.newly_failing.length,
      no_longer_failing: comparison.no_longer_failing.length,
      failure_changed: comparison.failure_changed.length,
      questions_changed: questionsChanged.length,
      duplicates_before: a.duplicates,
      duplicates_after: b.duplicates,
      pass_pct_before: comparison.matched_before.pass_pct,
      pass_pct_after: comparison.matched_after.pass_pct,
      pass_pct_delta: comparison.matched_after.pass_pct - comparison.matched_before.pass_pct,
    },
    ...comparison,
    by_combo: byCombo,
    questions_changed: questionsChanged,
  };
}
