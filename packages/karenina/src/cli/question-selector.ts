import type { Benchmark } from "../benchmark/index.js";
import { CliUsageError } from "./cli-io.js";
import { printable } from "./colour.js";

/** A question a selector can name: its id and its text, at its index in the list. */
export interface SelectableQuestion {
  id: string;
  text: string;
}

/** What `--question` / `-q` (and `karenina show`'s QUESTION) accept, for help texts. */
export const QUESTION_SELECTOR_HELP =
  "a question's id, its 0-based index (the # of checkpoint inspect) or the start of its text";

/** A question selector that names no question, or more than one (exit code 2, with the candidates listed). */
export class QuestionSelectorError extends CliUsageError {
  constructor(
    readonly selector: string,
    readonly candidates: readonly number[],
    message: string,
  ) {
    super(message);
  }
}

const MAX_LISTED = 10;

const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

function clipped(text: string, max: number): string {
  const characters = Array.from(text.replace(/\s+/g, " ").trim());
  return characters.length > max ? `${characters.slice(0, max - 1).join("")}…` : characters.join("");
}

/** `  3  q3  Which drug inhibits BCL2?` lines for `indexes` (at most ten, then how many more). */
function listing(questions: readonly SelectableQuestion[], indexes: readonly number[]): string {
  const width = String(Math.max(0, ...indexes)).length;
  const lines = indexes.slice(0, MAX_LISTED).map((index) => {
    const question = questions[index] as SelectableQuestion;
    return `  ${String(index).padStart(width)}  ${printable(question.id)}  ${printable(clipped(question.text, 60))}`;
  });
  if (indexes.length > MAX_LISTED) lines.push(`  … and ${indexes.length - MAX_LISTED} more`);
  return lines.join("\n");
}

/**
 * The index of the question `selector` names in `questions`, trying in turn: its exact id; a 0-based index;
 * its whole text; the start of its text (case and runs of spaces ignored), when only one question starts so.
 * `source` (a file, a run) starts the error messages.
 * @throws {QuestionSelectorError} when no question matches, or several start with the text; the message
 * lists the candidates with their index and id.
 */
export function selectQuestion(
  questions: readonly SelectableQuestion[],
  selector: string,
  source: string,
): number {
  const byId = questions.findIndex((question) => question.id === selector);
  if (byId >= 0) return byId;
  if (/^\d+$/.test(selector) && Number(selector) < questions.length) return Number(selector);
  const wanted = normalise(selector);
  const all = questions.map((_, index) => index);
  if (wanted === "") {
    throw new QuestionSelectorError(selector, all, `${source}: an empty question selector names no question`);
  }
  const texts = questions.map((question) => normalise(question.text));
  const whole = all.filter((index) => texts[index] === wanted);
  if (whole.length === 1) return whole[0] as number;
  const starting = all.filter((index) => texts[index]?.startsWith(wanted));
  if (starting.length === 1) return starting[0] as number;
  const shown = JSON.stringify(printable(selector));
  if (starting.length > 1) {
    throw new QuestionSelectorError(
      selector,
      starting,
      `${source}: ${shown} is the start of ${starting.length} questions' text; give more of the text, or the index or id of one:\n${listing(questions, starting)}`,
    );
  }
  const range =
    questions.length === 0
      ? "it has no questions"
      : questions.length === 1
        ? "index 0"
        : `indexes 0 to ${questions.length - 1}`;
  throw new QuestionSelectorError(
    selector,
    all,
    `${source}: no question matches ${shown} by id, index (${range}) or the start of its text` +
      (questions.length === 0 ? "" : `; its questions:\n${listing(questions, all)}`),
  );
}

/**
 * The ids of the questions `selectors` name (see {@link selectQuestion}), each once, in the order given.
 * @throws {QuestionSelectorError} for the first selector that names no question or several.
 */
export function selectQuestionIds(
  questions: readonly SelectableQuestion[],
  selectors: readonly string[],
  source: string,
): string[] {
  const ids = selectors.map(
    (selector) => questions[selectQuestion(questions, selector, source)]?.id as string,
  );
  return [...new Set(ids)];
}

/** The questions of a benchmark, in its order, as selectors see them. */
export const benchmarkQuestions = (benchmark: Benchmark): SelectableQuestion[] =>
  benchmark.getQuestionIds().map((id) => ({ id, text: benchmark.getQuestion(id).question }));

/**
 * The id of the question of `benchmark` that `selector` names (its id, index or the start of its text).
 * @throws {QuestionSelectorError} naming `source` (the checkpoint) when it names none or several.
 */
export const selectBenchmarkQuestion = (benchmark: Benchmark, selector: string, source: string): string => {
  const questions = benchmarkQuestions(benchmark);
  return questions[selectQuestion(questions, selector, source)]?.id as string;
};

/**
 * The ids of the questions of `benchmark` that `selectors` name (ids, indexes, starts of texts), each once.
 * @throws {QuestionSelectorError} naming `source` (the checkpoint) for a selector that names none or several.
 */
export const selectBenchmarkQuestions = (
  benchmark: Benchmark,
  selectors: readonly string[],
  source: string,
) => selectQuestionIds(benchmarkQuestions(benchmark), selectors, source);
