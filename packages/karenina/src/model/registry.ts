import { pythonIsoTimestamp } from "./timestamps.js";

/** A question's membership in one benchmark: whether it is finished, and when it joined. */
export interface QuestionRegistryEntry {
  finished: boolean;
  date_added: string;
  date_modified: string;
}

export function newRegistryEntry(finished: boolean, now = pythonIsoTimestamp()): QuestionRegistryEntry {
  return { finished, date_added: now, date_modified: now };
}

const TRUE_WORDS = new Set(["true", "t", "yes", "y", "on", "1"]);
const FALSE_WORDS = new Set(["false", "f", "no", "n", "off", "0"]);

/**
 * Pydantic's lax boolean coercion, which the original applies to the stored `finished` flag:
 * booleans, 0/1 and the words true/false/yes/no/on/off/t/f/y/n/1/0 in any case. Anything else is undefined.
 */
export function coerceLaxBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}
