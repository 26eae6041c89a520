// Small descriptive statistics shared by the result summary and the run comparison. Every function returns 0
// for an empty list (spec 06 §3.1: "0 when empty"), so summaries stay plain numbers.

import { ownValue, setOwn } from "../plain-data/index.js";

/** The arithmetic mean; 0 when empty. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** The median (the mean of the two middle values for an even count); 0 when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  // A typed array sorts numbers natively (what the comparator (a, b) => a - b does, many times faster).
  const sorted = Float64Array.from(values).sort();
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The population standard deviation (divides by n, as numpy's default); 0 when empty. */
export function populationStd(values: readonly number[]): number {
  return Math.sqrt(sumOfSquares(values) / Math.max(values.length, 1));
}

/** The sample standard deviation (divides by n − 1, as Python's `statistics.stdev`); 0 below two values. */
export function sampleStd(values: readonly number[]): number {
  return values.length < 2 ? 0 : Math.sqrt(sumOfSquares(values) / (values.length - 1));
}

function sumOfSquares(values: readonly number[]): number {
  const centre = mean(values);
  let sum = 0;
  for (const value of values) sum += (value - centre) ** 2;
  return sum;
}

/** `part / whole`, 0 when `whole` is 0. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

/** Adds `amount` to `map[key]`, starting from 0. Keys are data: `constructor` or `__proto__` count like any other. */
export function bump(map: Record<string, number>, key: string, amount = 1): void {
  setOwn(map, key, (ownValue(map, key) ?? 0) + amount);
}

/** Pushes `value` onto the list kept at `key` of `map`, creating it. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** The entry at `key` of `record` (an own key, never an inherited member), created with `make` when missing. */
export function entryOf<V>(record: Record<string, V>, key: string, make: () => V): V {
  const existing = ownValue(record, key);
  if (existing !== undefined) return existing;
  const created = make();
  setOwn(record, key, created);
  return created;
}

/** The entry at `key` of `map`, created with `make` when missing (the Map form of {@link entryOf}). */
export function mapEntryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let entry = map.get(key);
  if (entry === undefined) {
    entry = make();
    map.set(key, entry);
  }
  return entry;
}

/** Adds `amount` to the count kept at `key` of `counts`, starting from 0 (a Map: cheaper per row than `bump`). */
export function countIn<K>(counts: Map<K, number>, key: K, amount = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + amount);
}

/** A map's entries, in insertion order, as a plain record whose keys are data (see `setOwn`). */
export function recordOf<V, W = V>(
  map: ReadonlyMap<string, V>,
  fn: (value: V) => W = (value) => value as unknown as W,
): Record<string, W> {
  const out: Record<string, W> = {};
  for (const [key, value] of map) setOwn(out, key, fn(value));
  return out;
}
