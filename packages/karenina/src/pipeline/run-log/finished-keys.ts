/** The finished tasks of a run log, as resume needs them. */
export interface FinishedKeys<T> {
  /** Task keys with a result; resume skips these tasks. */
  keys: Set<string>;
  /** The first result of each key, in file order. */
  results: T[];
  /** Keys seen more than once, once per extra occurrence (later occurrences are dropped). */
  duplicates: string[];
}

/**
 * Collects the task keys of finished results (e.g. `qid\tansKey\tparseKey\trep1`, spec 04 §16).
 * When a key appears twice the first result is kept and the key is reported in `duplicates`.
 */
export function finishedKeys<T>(results: readonly T[], keyOf: (result: T) => string): FinishedKeys<T> {
  const keys = new Set<string>();
  const kept: T[] = [];
  const duplicates: string[] = [];
  for (const result of results) {
    const key = keyOf(result);
    if (keys.has(key)) {
      duplicates.push(key);
      continue;
    }
    keys.add(key);
    kept.push(result);
  }
  return { keys, results: kept, duplicates };
}
