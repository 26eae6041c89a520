/**
 * How deeply a JSON value nests. JSON.parse copes with any depth, but every recursive step after it
 * (JSON.stringify on save, structuredClone, a recursive walk) overflows the call stack somewhere past a few
 * thousand levels and dies with a RangeError. Checkpoints are therefore refused beyond a depth no real file
 * comes near, on load and on save. The walk here is iterative, so it cannot overflow itself.
 */

import { PROTO_KEY } from "../plain-data/index.js";
import { CheckpointNestingError, jsonPath } from "./errors.js";

/**
 * The deepest nesting of objects and arrays a checkpoint may have, counted from the document itself
 * (`{"dataFeedElement": [{"item": …}]}` is already 3 levels; real files stay under 20).
 */
export const MAX_CHECKPOINT_NESTING = 200;

/** Segments of a JSON path shown before it is cut short with `…`. */
const SHOWN_SEGMENTS = 12;

/**
 * Refuses a value nested deeper than {@link MAX_CHECKPOINT_NESTING} or containing itself. `at` is the JSON
 * path of the value, for the message (the whole document by default).
 * @throws {CheckpointNestingError} naming the file, where the deep chain goes, the depth and the limit.
 * A 300-deep array in `deep.jsonld` gives `deep.jsonld: $[0][0][0]…: cannot load: objects and arrays nested
 * 300 levels deep; a checkpoint may nest at most 200 levels (flatten this value)`.
 * @example
 * checkNesting({ questions: [{ tags: ["a"] }] }, "bench.jsonld", "load"); // undefined
 */
export function checkNesting(value: unknown, file: string, action: "load" | "save" | "copy", at = "$"): void {
  if (!scanTree(value).tooDeep) return;
  const nesting = measureNesting(value);
  if (!nesting.circular && nesting.depth <= MAX_CHECKPOINT_NESTING) return;
  const shown = nesting.path.slice(0, SHOWN_SEGMENTS);
  const where = at + jsonPath(shown).slice(1) + (nesting.path.length > shown.length ? "…" : "");
  throw new CheckpointNestingError(file, where, nesting.depth, MAX_CHECKPOINT_NESTING, action);
}

/** What one cheap pass over a value found. */
export interface TreeScan {
  /** Nested deeper than the limit (or circular): the pass stopped there. */
  tooDeep: boolean;
  /** Some object has an own key `__proto__` (only reliable when not `tooDeep`). */
  protoKey: boolean;
}

/**
 * One pass over a value, as cheap as it gets (no paths, no bookkeeping per object), for the common case of
 * a file with nothing wrong; the precise checks ({@link measureNesting}, `checkProtoKeys`) run only when it
 * finds something. A circular value counts as too deep, since its chain never ends.
 */
export function scanTree(root: unknown, limit = MAX_CHECKPOINT_NESTING): TreeScan {
  let protoKey = false;
  const values: unknown[] = [root];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (typeof value !== "object" || value === null) continue;
    if (depth > limit) return { tooDeep: true, protoKey };
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === "object" && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    if (Object.hasOwn(value, PROTO_KEY)) protoKey = true;
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return { tooDeep: false, protoKey };
}

/** How deeply a value nests, and where. */
export interface Nesting {
  /** Levels of objects and arrays on the longest chain (a scalar is 0, `[]` is 1, `[[1]]` is 2). */
  depth: number;
  /** The keys from the value down its deepest chain (or, when circular, down to the repeated object). */
  path: PropertyKey[];
  /** True when an object contains itself: its depth has no end. */
  circular: boolean;
}

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === "object" && value !== null;

function childEntries(container: Container): [PropertyKey, unknown][] {
  return Array.isArray(container) ? container.map((item, index) => [index, item]) : Object.entries(container);
}

interface Frame {
  container: Container;
  children: [PropertyKey, unknown][];
  next: number;
}

/**
 * Measures a value's nesting without recursion. Each object is measured once (a structure shared in several
 * places costs nothing more), so the cost is linear in the number of distinct objects and arrays.
 * @example
 * measureNesting({ a: [[1]] }); // { depth: 3, path: ["a", 0], circular: false }
 */
export function measureNesting(value: unknown): Nesting {
  if (!isContainer(value)) return { depth: 0, path: [], circular: false };
  const heights = new Map<Container, number>();
  const onPath = new Set<Container>();
  const stack: Frame[] = [];
  const enter = (container: Container) => {
    onPath.add(container);
    stack.push({ container, children: childEntries(container), next: 0 });
  };
  enter(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const entry = frame.children[frame.next++];
    if (entry === undefined) {
      stack.pop();
      onPath.delete(frame.container);
      heights.set(frame.container, 1 + tallestChild(frame.children, heights));
      continue;
    }
    const child = entry[1];
    if (!isContainer(child) || heights.has(child)) continue;
    if (onPath.has(child)) {
      const path = stack.map((f) => (f.children[f.next - 1] as [PropertyKey, unknown])[0]);
      return { depth: Number.POSITIVE_INFINITY, path, circular: true };
    }
    enter(child);
  }
  return { depth: heights.get(value) ?? 1, path: deepestPath(value, heights), circular: false };
}

function tallestChild(children: readonly [PropertyKey, unknown][], heights: Map<Container, number>): number {
  let tallest = 0;
  for (const [, child] of children)
    if (isContainer(child)) tallest = Math.max(tallest, heights.get(child) ?? 0);
  return tallest;
}

/** The keys down the tallest child at each level. */
function deepestPath(root: Container, heights: Map<Container, number>): PropertyKey[] {
  const path: PropertyKey[] = [];
  let current: Container | undefined = root;
  while (current !== undefined) {
    const target = (heights.get(current) ?? 1) - 1;
    if (target === 0) break;
    const next: [PropertyKey, unknown] | undefined = childEntries(current).find(
      ([, child]) => isContainer(child) && heights.get(child) === target,
    );
    if (next === undefined) break;
    path.push(next[0]);
    current = next[1] as Container;
  }
  return path;
}
