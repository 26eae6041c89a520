/** A common block: `a.slice(a, a + size)` equals `b.slice(b, b + size)`, positions in code points. */
export interface LongestMatch {
  readonly a: number;
  readonly b: number;
  readonly size: number;
}

/**
 * Where each element of `b` occurs, without the "popular" elements that Python's autojunk heuristic drops:
 * when `b` has 200 or more items, an element occurring more than `len(b) // 100 + 1` times.
 */
function indexB(b: readonly number[]): Map<number, number[]> {
  const positions = new Map<number, number[]>();
  b.forEach((element, j) => {
    const list = positions.get(element);
    if (list === undefined) positions.set(element, [j]);
    else list.push(j);
  });
  if (b.length >= 200) {
    const limit = Math.floor(b.length / 100) + 1;
    for (const [element, list] of positions) if (list.length > limit) positions.delete(element);
  }
  return positions;
}

const codePoints = (text: string) => Array.from(text, (char) => char.codePointAt(0) as number);

/**
 * Python's `difflib.SequenceMatcher(None, a, b).find_longest_match(0, len(a), 0, len(b))` on two strings
 * (compared by code point, as Python does), autojunk included: for a `b` of 200+ items, elements more
 * frequent than 1% are "popular" and cannot start or continue the core match, which is then only extended
 * over equal neighbours. So on long texts the result can be shorter than the true longest common substring,
 * exactly as in the original. Ties go to the earliest block in `a`, then in `b`.
 * @example
 * findLongestMatch("BCL2 protein", "the BCL2 gene"); // { a: 0, b: 4, size: 5 }
 */
export function findLongestMatch(aText: string, bText: string): LongestMatch {
  const a = codePoints(aText);
  const b = codePoints(bText);
  const positions = indexB(b);
  let bestI = 0;
  let bestJ = 0;
  let bestSize = 0;
  let runs = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const next = new Map<number, number>();
    for (const j of positions.get(a[i] as number) ?? []) {
      const size = (runs.get(j - 1) ?? 0) + 1;
      next.set(j, size);
      if (size > bestSize) {
        bestI = i - size + 1;
        bestJ = j - size + 1;
        bestSize = size;
      }
    }
    runs = next;
  }
  // No element is junk (isjunk=None), so popular neighbours extend the match on both sides.
  while (bestI > 0 && bestJ > 0 && a[bestI - 1] === b[bestJ - 1]) {
    bestI--;
    bestJ--;
    bestSize++;
  }
  while (
    bestI + bestSize < a.length &&
    bestJ + bestSize < b.length &&
    a[bestI + bestSize] === b[bestJ + bestSize]
  ) {
    bestSize++;
  }
  return { a: bestI, b: bestJ, size: bestSize };
}
