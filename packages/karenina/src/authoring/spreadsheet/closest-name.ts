/** Levenshtein distance between two strings (by UTF-16 unit: headers are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

const loose = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");

/**
 * The candidate a mistyped name most likely meant: one equal to it up to case, spacing, `_` and `-`, else the
 * nearest by edit distance within a third of the name's length (at least 2). Null when none is that close.
 * @example
 * closestName("question", ["Question", "Answer"]); // "Question"
 * closestName("Anwser", ["Question", "Answer"]); // "Answer"
 * closestName("Year", ["Question", "Answer"]); // null
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  const wanted = loose(name);
  const same = candidates.find((candidate) => loose(candidate) === wanted);
  if (same !== undefined) return same;
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, loose(candidate));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
