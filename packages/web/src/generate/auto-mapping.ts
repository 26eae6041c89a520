/**
 * The question and answer columns guessed from a spreadsheet's headers (spec 07 §1.1 step 2). The original took
 * the first header containing "question" or the letter "q" (and "answer" or "a"), so "Category" became the
 * answer column; the fix ranks whole-word matches first, then the word inside a header, then a header that is
 * the single letter, and only then a header containing the letter.
 */

export interface GuessedColumns {
  readonly question: string | null;
  readonly answer: string | null;
}

function words(header: string): string[] {
  return header
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** How well `header` names the column of `word` (lower is better), or null when it does not. */
function rank(header: string, word: string, letter: string): number | null {
  const lower = header.toLowerCase();
  const parts = words(header);
  if (lower.trim() === word) return -1;
  if (parts.includes(word) || parts.includes(`${word}s`)) return 0;
  if (lower.includes(word)) return 1;
  if (parts.includes(letter)) return 2;
  if (lower.includes(letter)) return 3;
  return null;
}

function best(columns: readonly string[], word: string, letter: string, taken: string | null): string | null {
  let chosen: string | null = null;
  let chosenRank = Number.POSITIVE_INFINITY;
  for (const column of columns) {
    if (column === taken) continue;
    const score = rank(column, word, letter);
    if (score !== null && score < chosenRank) {
      chosen = column;
      chosenRank = score;
    }
  }
  return chosen;
}

/** The question and answer columns of `columns`, never the same one. */
export function guessColumns(columns: readonly string[]): GuessedColumns {
  const question = best(columns, "question", "q", null);
  return { question, answer: best(columns, "answer", "a", question) };
}
