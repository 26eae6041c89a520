import { KareninaError } from "../errors/index.js";
import type { QuestionRecord } from "../model/question-record.js";
import { ownValue, setOwn } from "../plain-data/index.js";

/** A question record with its benchmark state, as the query helpers see it. */
export interface QueryRow {
  record: QuestionRecord;
  finished: boolean;
  hasTemplate: boolean;
}

/** Criteria of {@link filterRows}; every given criterion must hold. */
export interface QuestionFilter {
  finished?: boolean;
  hasTemplate?: boolean;
  hasRubric?: boolean;
  /** Case-insensitive substring of the author's `name`. */
  author?: string;
  /** A predicate over the question record; a question whose predicate throws is left out. */
  customFilter?: (question: QuestionRecord) => boolean;
}

export function hasRubric(record: QuestionRecord): boolean {
  return record.question_rubric !== null;
}

function authorName(record: QuestionRecord): string {
  const author = record.author;
  if (author && typeof author === "object" && "name" in author)
    return String((author as { name: unknown }).name ?? "");
  return "";
}

export function filterRows(rows: Iterable<QueryRow>, filter: QuestionFilter): QueryRow[] {
  const out: QueryRow[] = [];
  const author = filter.author?.toLowerCase();
  for (const row of rows) {
    if (filter.finished !== undefined && row.finished !== filter.finished) continue;
    if (filter.hasTemplate !== undefined && row.hasTemplate !== filter.hasTemplate) continue;
    if (filter.hasRubric !== undefined && hasRubric(row.record) !== filter.hasRubric) continue;
    if (author !== undefined && !authorName(row.record).toLowerCase().includes(author)) continue;
    if (filter.customFilter && !safely(() => filter.customFilter?.(row.record) === true)) continue;
    out.push(row);
  }
  return out;
}

function safely(predicate: () => boolean): boolean {
  try {
    return predicate();
  } catch {
    return false;
  }
}

/** Resolves a dot path (`custom_metadata.category`) in a row; the single path `finished` reads the registry. */
export function resolveField(row: QueryRow, fieldPath: string): unknown {
  if (fieldPath === "finished") return row.finished;
  let current: unknown = row.record;
  for (const part of fieldPath.split(".")) {
    // Own keys only: `custom_metadata.constructor` must not find Object.prototype.constructor.
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export type MatchMode = "exact" | "contains" | "in" | "regex";

export class InvalidQueryError extends KareninaError {
  override readonly name = "InvalidQueryError";
}

function deepEqual(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Questions whose field at `fieldPath` matches `value` (spec 01 §4.7); null or missing values never match. */
export function filterByField(
  rows: Iterable<QueryRow>,
  fieldPath: string,
  value: unknown,
  mode: MatchMode,
): QueryRow[] {
  const matcher = fieldMatcher(value, mode);
  const out: QueryRow[] = [];
  for (const row of rows) {
    const found = resolveField(row, fieldPath);
    if (found !== null && found !== undefined && matcher(found)) out.push(row);
  }
  return out;
}

function fieldMatcher(value: unknown, mode: MatchMode): (found: unknown) => boolean {
  switch (mode) {
    case "exact":
      return (found) => deepEqual(found, value);
    case "contains":
      return (found) =>
        typeof found === "string" &&
        typeof value === "string" &&
        found.toLowerCase().includes(value.toLowerCase());
    case "in":
      return (found) => Array.isArray(found) && found.some((element) => deepEqual(element, value));
    case "regex": {
      const pattern = typeof value === "string" ? compileOrNull(value, "i") : null;
      return (found) => pattern !== null && typeof found === "string" && pattern.test(found);
    }
    default:
      throw new InvalidQueryError(
        `Invalid match mode: ${String(mode)} (expected exact, contains, in or regex)`,
      );
  }
}

function compileOrNull(source: string, flags: string): RegExp | null {
  try {
    return new RegExp(source, flags);
  } catch {
    return null;
  }
}

/** Questions whose custom metadata has all (or, with `matchAll: false`, any) of the given key/value pairs. */
export function filterByCustomMetadata(
  rows: Iterable<QueryRow>,
  criteria: Record<string, unknown>,
  matchAll: boolean,
): QueryRow[] {
  const pairs = Object.entries(criteria);
  const out: QueryRow[] = [];
  for (const row of rows) {
    const custom = row.record.custom_metadata;
    if (custom === null) continue;
    const matches = (pair: [string, unknown]) => deepEqual(ownValue(custom, pair[0]), pair[1]);
    if (matchAll ? pairs.every(matches) : pairs.some(matches)) out.push(row);
  }
  return out;
}

/** Options of {@link searchRows}. */
export interface SearchOptions {
  /** Every term must match (default), or any. */
  matchAll?: boolean;
  /** Record fields searched, joined by spaces (default `["question"]`). */
  fields?: readonly (keyof QuestionRecord)[];
  caseSensitive?: boolean;
  /** Terms are regular expressions (an invalid one matches nothing). */
  regex?: boolean;
}

export function searchRows(
  rows: Iterable<QueryRow>,
  query: string | readonly string[],
  options: SearchOptions = {},
): QueryRow[] {
  const terms = typeof query === "string" ? [query] : [...query];
  if (terms.length === 0) return [];
  const { matchAll = true, fields = ["question"], caseSensitive = false, regex = false } = options;
  const tests = terms.map((term) => termMatcher(term, caseSensitive, regex));
  const out: QueryRow[] = [];
  for (const row of rows) {
    const text = fields
      .map((field) => row.record[field])
      .filter(
        (value) =>
          value !== null &&
          value !== undefined &&
          value !== "" &&
          !(Array.isArray(value) && value.length === 0),
      )
      .map((value) => (typeof value === "string" ? value : JSON.stringify(value)))
      .join(" ");
    if (matchAll ? tests.every((test) => test(text)) : tests.some((test) => test(text))) out.push(row);
  }
  return out;
}

function termMatcher(term: string, caseSensitive: boolean, regex: boolean): (text: string) => boolean {
  if (regex) {
    const pattern = compileOrNull(term, caseSensitive ? "" : "i");
    return (text) => pattern?.test(text) === true;
  }
  const needle = caseSensitive ? term : term.toLowerCase();
  return (text) => (caseSensitive ? text : text.toLowerCase()).includes(needle);
}

/**
 * Counts questions by the value at a dot path. Keys are the value as text: strings as they are, other values
 * as JSON (`true`, `null`, `["a","b"]`), since lists and objects cannot be map keys in the original either.
 */
export function countByField(rows: Iterable<QueryRow>, fieldPath: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const value = resolveField(row, fieldPath) ?? null;
    const key = typeof value === "string" ? value : JSON.stringify(value);
    setOwn(counts, key, (ownValue(counts, key) ?? 0) + 1);
  }
  return counts;
}
