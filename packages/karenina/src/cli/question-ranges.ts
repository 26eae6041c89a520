/**
 * The original's question selection flags of `verify`: `--question-ids a,b` (ids) and `--questions 0-5,8`
 * (0-based indexes into the list of finished questions, after `--question-ids` when both are given).
 */
import type { Benchmark } from "../benchmark/index.js";
import { CliUsageError } from "./cli-io.js";
import { printable } from "./colour.js";

/** What `--questions` accepts, for help texts. */
export const QUESTION_RANGES_HELP =
  "0-based indexes into the finished questions (checkpoint inspect lists them), e.g. 0,1,2 or 5-10 or 0-3,8";

/** A bad `--questions` value: the message names the part at fault and what is allowed. */
export class QuestionRangeError extends CliUsageError {}

const range = (count: number) =>
  count === 0 ? "there is no question to select" : `valid indexes are 0 to ${count - 1}`;

function index(text: string, part: string, count: number): number {
  const trimmed = text.trim();
  if (/^-\d+$/.test(trimmed))
    throw new QuestionRangeError(`--questions: negative indexes are not allowed: ${JSON.stringify(part)}`);
  if (!/^\d+$/.test(trimmed))
    throw new QuestionRangeError(
      `--questions: ${JSON.stringify(printable(part))} is not an index or a range START-END (e.g. 0,1,2 or 5-10)`,
    );
  const value = Number(trimmed);
  if (value >= count)
    throw new QuestionRangeError(`--questions: index ${value} is out of range: ${range(count)}`);
  return value;
}

/**
 * The sorted, distinct indexes a `--questions` value names among `count` questions: single indexes and
 * inclusive ranges `START-END`, separated by commas.
 * @throws {QuestionRangeError} for a negative index, one past the end, a range whose start is after its end,
 *   or anything else that is not an index. For instance `"0-2,5"` among 8 questions names `[0, 1, 2, 5]`.
 */
export function parseQuestionIndexes(text: string, count: number): number[] {
  const indexes = new Set<number>();
  const parts = text.split(",").filter((part) => part.trim() !== "");
  if (parts.length === 0) throw new QuestionRangeError("--questions: give at least one index, e.g. 0 or 0-5");
  for (const part of parts) {
    const trimmed = part.trim();
    const bounds = /^(.+?)-(.*)$/.exec(trimmed);
    if (bounds === null) {
      indexes.add(index(trimmed, part, count));
      continue;
    }
    const start = index(bounds[1] as string, part, count);
    const end = index(bounds[2] as string, part, count);
    if (start > end)
      throw new QuestionRangeError(
        `--questions: range ${JSON.stringify(trimmed)} starts after it ends (write START-END with START <= END)`,
      );
    for (let i = start; i <= end; i++) indexes.add(i);
  }
  return [...indexes].sort((a, b) => a - b);
}

/** What `--question-ids` and `--questions` select from. */
export interface QuestionRangeRequest {
  questionIds?: string;
  questions?: string;
  /** `--include-drafts`: indexes count unfinished questions too. */
  includeDrafts: boolean;
  /** The checkpoint, for messages. */
  source: string;
}

/**
 * The ids `--question-ids` and `--questions` select, in the benchmark's order: the finished questions (all
 * of them with `--include-drafts`), kept when `--question-ids` names them, then picked by `--questions`
 * indexes into what is left (the original filters by ids first, then by indexes).
 * @throws {CliUsageError} for an id the benchmark does not have or that is not finished, and for bad indexes.
 */
export function selectQuestionRanges(benchmark: Benchmark, request: QuestionRangeRequest): string[] {
  const candidates = request.includeDrafts
    ? benchmark.getQuestionIds()
    : benchmark.getFinishedTemplates().map((template) => template.question_id);
  let ids = candidates;
  if (request.questionIds !== undefined) {
    const wanted = request.questionIds
      .split(",")
      .map((id) => id.trim())
      .filter((id) => id !== "");
    if (wanted.length === 0) throw new CliUsageError("--question-ids: give at least one question id");
    const known = new Set(candidates);
    const all = new Set(benchmark.getQuestionIds());
    for (const id of wanted) {
      if (known.has(id)) continue;
      const shown = JSON.stringify(printable(id));
      throw new CliUsageError(
        all.has(id)
          ? `--question-ids: question ${shown} of ${request.source} is not finished; add --include-drafts, or finish it with karenina checkpoint finish`
          : `--question-ids: ${request.source} has no question ${shown} (karenina checkpoint inspect lists the ids)`,
      );
    }
    const chosen = new Set(wanted);
    ids = candidates.filter((id) => chosen.has(id));
  }
  if (request.questions !== undefined) {
    const picked = parseQuestionIndexes(request.questions, ids.length);
    ids = picked.map((i) => ids[i] as string);
  }
  return ids;
}
