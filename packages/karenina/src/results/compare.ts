import { modelComboKey } from "./model-combo-key.js";
import { displayString } from "./model-identity.js";
import { type RowOutcome, rowOutcome } from "./outcome.js";
import { rowKey } from "./row-key.js";
import { type PassRate, passRate } from "./summary.js";
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

function rowState(result: VerificationResult): RowState {
  const failure = result.metadata.failure;
  return {
    outcome: rowOutcome(result),
    failure_category: failure?.category ?? null,
    failure_group: failure?.group ?? null,
    failure_stage: failure?.stage ?? null,
    failure_reason: failure?.reason ?? null,
    result_id: result.metadata.result_id,
  };
}

function rowIdentity(result: VerificationResult): RowIdentity {
  const { metadata } = result;
  return {
    question_id: metadata.question_id,
    question_text: metadata.question_text,
    answering_model: displayString(metadata.answering),
    parsing_model: displayString(metadata.parsing),
    replicate: metadata.replicate,
  };
}

/** Rows by key; of rows sharing a key the newest (latest timestamp, then the later row) is kept. */
function indexRows(results: Iterable<VerificationResult>): {
  rows: Map<string, VerificationResult>;
  duplicates: number;
} {
  const rows = new Map<string, VerificationResult>();
  let duplicates = 0;
  for (const result of results) {
    const key = rowKey(result);
    const previous = rows.get(key);
    if (previous !== undefined) {
      duplicates++;
      if (previous.metadata.timestamp > result.metadata.timestamp) continue;
    }
    rows.set(key, result);
  }
  return { rows, duplicates };
}

/** Rows in a stable order, whatever the order of the file: question, models, replicate. */
function ordered(rows: Map<string, VerificationResult>): [string, VerificationResult][] {
  const sortKey = (result: VerificationResult) => {
    const identity = rowIdentity(result);
    return [identity.question_id, identity.answering_model, identity.parsing_model] as const;
  };
  return [...rows].sort(([, x], [, y]) => {
    const [kx, ky] = [sortKey(x), sortKey(y)];
    for (const [at, value] of kx.entries()) {
      const other = ky[at] ?? "";
      if (value !== other) return value < other ? -1 : 1;
    }
    return (x.metadata.replicate ?? 0) - (y.metadata.replicate ?? 0);
  });
}

const changeOf = (before: VerificationResult, after: VerificationResult): RowChange => ({
  ...rowIdentity(after),
  before: rowState(before),
  after: rowState(after),
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
 *     failure: verify_result ? null : { category: "content", stage: "verify_template", reason: "template verification failed" },
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
  const a = indexRows(before);
  const b = indexRows(after);
  const rowsBefore = [...a.rows.values()];
  const rowsAfter = [...b.rows.values()];
  const matchedBefore: VerificationResult[] = [];
  const matchedAfter: VerificationResult[] = [];
  const comparison: Omit<RunComparison, "summary" | "questions_changed" | "by_combo"> = {
    before: passRate(rowsBefore),
    after: passRate(rowsAfter),
    matched_before: passRate([]),
    matched_after: passRate([]),
    pass_to_fail: [],
    fail_to_pass: [],
    newly_failing: [],
    no_longer_failing: [],
    failure_changed: [],
    only_before: [],
    only_after: [],
  };
  let unchanged = 0;
  const questions = new Map<
    string,
    { text: string; before: VerificationResult[]; after: VerificationResult[] }
  >();
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
      comparison.only_before.push({ ...rowIdentity(old), ...rowState(old) });
      continue;
    }
    matchedBefore.push(old);
    matchedAfter.push(current);
    const question = old.metadata.question_id;
    const group = questions.get(question) ?? { text: current.metadata.question_text, before: [], after: [] };
    group.before.push(old);
    group.after.push(current);
    questions.set(question, group);
    const was = rowState(old);
    const now = rowState(current);
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
    if (!a.rows.has(key)) comparison.only_after.push({ ...rowIdentity(current), ...rowState(current) });
  }
  comparison.matched_before = passRate(matchedBefore);
  comparison.matched_after = passRate(matchedAfter);

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
      before: passRate(group?.before ?? []),
      after: passRate(group?.after ?? []),
    });
  }

  const byCombo: Record<string, ComboComparison> = {};
  const combos = new Set([...rowsBefore, ...rowsAfter].map(modelComboKey));
  for (const combo of combos) {
    const was = passRate(rowsBefore.filter((result) => modelComboKey(result) === combo));
    const now = passRate(rowsAfter.filter((result) => modelComboKey(result) === combo));
    byCombo[combo] = { before: was, after: now, pass_pct_delta: now.pass_pct - was.pass_pct };
  }

  return {
    summary: {
      rows_before: rowsBefore.length,
      rows_after: rowsAfter.length,
      matched: matchedBefore.length,
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
