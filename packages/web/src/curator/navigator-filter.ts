import type { CuratorQuestion } from "../library-types/index.js";

/** The navigator's finished filter (spec 07 §1.3.3). */
export type FinishedFilter = "all" | "finished" | "unfinished";

/** One navigator entry: the question and its 1-based number in benchmark order. */
export interface NavigatorEntry {
  readonly question: CuratorQuestion;
  readonly number: number;
}

/** A question's searchable text, lower-cased once per question (5,000 questions filter on every keystroke). */
export function searchKeyOf(question: CuratorQuestion): string {
  return `${question.question}\n${question.raw_answer}\n${question.id}`.toLowerCase();
}

/**
 * The entries matching a case-insensitive substring search over question text, raw answer and id, and the
 * finished filter, in benchmark order. `keys` are the questions' {@link searchKeyOf}, computed ahead.
 */
export function filterQuestions(
  questions: readonly CuratorQuestion[],
  keys: readonly string[],
  search: string,
  filter: FinishedFilter,
): NavigatorEntry[] {
  const needle = search.trim().toLowerCase();
  const entries: NavigatorEntry[] = [];
  questions.forEach((question, index) => {
    if (filter === "finished" && !question.finished) return;
    if (filter === "unfinished" && question.finished) return;
    if (needle !== "" && !(keys[index] ?? searchKeyOf(question)).includes(needle)) return;
    entries.push({ question, number: index + 1 });
  });
  return entries;
}

/** A navigator entry's label: `"<n>. <first 60 chars>…"`. */
export function entryLabel(entry: NavigatorEntry): string {
  const text = entry.question.question.replace(/\s+/g, " ").trim();
  return `${entry.number}. ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`;
}

/** The id `step` places away from `current` in the list (previous: -1, next: +1), or undefined at an end. */
export function neighbourOf(
  entries: readonly NavigatorEntry[],
  current: string | undefined,
  step: -1 | 1,
): string | undefined {
  const at = entries.findIndex((entry) => entry.question.id === current);
  if (at < 0) return undefined;
  return entries[at + step]?.question.id;
}

/** After deleting `id`: the next question in order, or the previous one when it was the last. */
export function selectionAfterDelete(questions: readonly CuratorQuestion[], id: string): string | undefined {
  const at = questions.findIndex((question) => question.id === id);
  if (at < 0) return undefined;
  return (questions[at + 1] ?? questions[at - 1])?.id;
}
