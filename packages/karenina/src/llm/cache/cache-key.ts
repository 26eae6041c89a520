import { createHash } from "node:crypto";
import { KareninaError } from "../../errors/index.js";
import type { Message } from "../messages.js";

/** Bumped when the key payload changes shape, so old entries stop matching instead of being misread. */
const KEY_FORMAT = 1;

/** Everything that decides an LLM response: the same inputs give the same key. */
export interface CacheKeyInput {
  /** Who answers, e.g. `"openai/gpt-4.1-mini@https://api.example"`; include anything that changes the model. */
  modelIdentity: string;
  messages: readonly Message[];
  /** Sampling and call parameters (temperature, max tokens, ...). Key order does not matter. */
  parameters: Record<string, unknown>;
  /** The structured-output schema, when the call asks for one. */
  schema?: unknown;
  /** Replicate number, so replicates of one task get distinct entries. */
  replicate: number;
}

/** A cache key could not be computed: the input is not JSON (a bigint, a cycle, ...). */
export class CacheKeyError extends KareninaError {
  override readonly name: string = "CacheKeyError";
}

/** Rebuilds plain objects with their keys sorted; arrays and scalars pass through. */
function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}

/**
 * Canonical JSON: object keys sorted at every depth (integer-like keys first, as JavaScript orders them),
 * no whitespace, `undefined` members dropped, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(value, sortKeys) ?? "null";
  } catch (error) {
    throw new CacheKeyError(`cannot build a cache key: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The key of one LLM call: SHA-256 (lower-case hex, 64 characters) of the canonical JSON of its inputs.
 * A missing `schema` and `schema: null` give the same key.
 * @throws {CacheKeyError} when an input is not JSON-serialisable.
 */
export function cacheKey(input: CacheKeyInput): string {
  const payload = {
    format: KEY_FORMAT,
    modelIdentity: input.modelIdentity,
    messages: input.messages,
    parameters: input.parameters,
    schema: input.schema ?? null,
    replicate: input.replicate,
  };
  return createHash("sha256").update(canonicalJson(payload), "utf8").digest("hex");
}
