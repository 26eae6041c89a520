/**
 * Where a checkpoint may hold a key named `__proto__`. JSON.parse keeps it as an ordinary key, but the schema
 * (Zod drops it from every object and record it parses) and any `out[key] = value` copy (which changes the
 * copy's prototype) would not: it would vanish or alter an object. Property values (custom metadata, author,
 * sources, few-shot examples, benchmark properties) are the user's data, which the original stores whatever
 * its keys, and are read with care to keep it as data; everywhere else such a key is refused.
 */

import { PROTO_KEY } from "../plain-data/index.js";
import { CheckpointError, jsonPath } from "./errors.js";

/** True under `$.additionalProperty[i].value` or `$.dataFeedElement[i].item.additionalProperty[j].value`. */
function isPropertyValue(path: readonly PropertyKey[]): boolean {
  const [first, index, third, fourth, fifth, sixth] = path;
  if (first === "additionalProperty") return typeof index === "number" && third === "value";
  return (
    first === "dataFeedElement" &&
    typeof index === "number" &&
    third === "item" &&
    fourth === "additionalProperty" &&
    typeof fifth === "number" &&
    sixth === "value"
  );
}

/**
 * Refuses a `__proto__` key outside property values. Iterative, like the nesting check it follows.
 * @throws {CheckpointError} naming the file and the JSON path of the key.
 */
export function checkProtoKeys(json: unknown, file: string): void {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: json, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof value !== "object" || value === null || isPropertyValue(path)) continue;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push({ value: item, path: [...path, index] });
      continue;
    }
    if (Object.hasOwn(value, PROTO_KEY)) {
      throw new CheckpointError(
        file,
        jsonPath([...path, PROTO_KEY]),
        `a key named "${PROTO_KEY}" is not allowed here (only inside property values); rename or remove it`,
      );
    }
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: [...path, key] });
  }
}
