/**
 * Objects keyed by names that come from data (checkpoint property names, trait names, keywords, template
 * fields). A plain `{}` inherits `constructor`, `toString`, `__proto__`, …: reading a missing key then finds
 * Object.prototype's value, and assigning `__proto__` replaces the object's prototype instead of adding a key.
 * These helpers treat every key as data.
 */

/**
 * The one key that plain assignment (`out[key] = value`) and Zod's record/object parsing do not keep as data:
 * assignment changes the prototype, Zod drops the key.
 */
export const PROTO_KEY = "__proto__";

/**
 * The value of an own property, or undefined when `record` does not hold the key itself (never an inherited
 * value such as `Object.prototype.constructor`): `ownValue({ a: 1 }, "constructor")` is undefined.
 */
export function ownValue<V>(
  record: Readonly<Record<string, V>> | null | undefined,
  key: string,
): V | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Sets `record[key]` as an own, enumerable data property, also for `__proto__` (which plain assignment turns
 * into a prototype change): after `setOwn(out, "__proto__", 1)`, `Object.keys(out)` is `["__proto__"]`.
 */
export function setOwn<V>(record: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
