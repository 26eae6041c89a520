import { createHash } from "node:crypto";
import { pythonJsonDumps } from "../checkpoint/index.js";
import { canonicalKey, type ModelIdentity } from "./model-identity.js";

/** What a result's id is computed from (spec 06 §1.3). */
export interface ResultIdInput {
  /** The answering model's identity, or its canonical key. */
  readonly answering: ModelIdentity | string;
  /** The parsing model's identity, or its canonical key. */
  readonly parsing: ModelIdentity | string;
  readonly question_id: string;
  readonly replicate?: number | null;
  readonly scenario_id?: string | null;
  readonly scenario_node?: string | null;
  readonly scenario_turn?: number | null;
  /** The result's `timestamp` (second resolution, so two identical tasks in the same second collide). */
  readonly timestamp: string;
}

/**
 * Python's `json.dumps(value, sort_keys=True, ensure_ascii=True)` of a flat object: keys sorted, separators
 * `", "` and `": "`, every non-ASCII character (and DEL) escaped as `\uXXXX`.
 */
function canonicalJson(value: Readonly<Record<string, string | number | null>>): string {
  const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // pythonJsonDumps keeps DEL (U+007F) as it is; Python escapes it. It can only occur inside strings.
  return pythonJsonDumps(sorted).replaceAll("\u007f", "\\u007f");
}

/**
 * A result's id: the first 16 hex characters of the SHA-256 of the canonical JSON (Python
 * `json.dumps(sort_keys=True, ensure_ascii=True)`) of both models' canonical keys, the question id, the
 * replicate, the scenario position and the timestamp. Ids match the original's for the same inputs.
 * @example
 * const gpt4o = { interface: "langchain", model_name: "gpt-4o", tools: [], config_id: null };
 * resultId({ answering: gpt4o, parsing: gpt4o, question_id: "q-unicode", timestamp: "2026-04-21T12:00:00+00:00" });
 * // "ccb35805790e357a"
 */
export function resultId(input: ResultIdInput): string {
  const key = (identity: ModelIdentity | string) =>
    typeof identity === "string" ? identity : canonicalKey(identity);
  const json = canonicalJson({
    answering: key(input.answering),
    parsing: key(input.parsing),
    question_id: input.question_id,
    replicate: input.replicate ?? null,
    scenario_id: input.scenario_id ?? null,
    scenario_node: input.scenario_node ?? null,
    scenario_turn: input.scenario_turn ?? null,
    timestamp: input.timestamp,
  });
  return createHash("sha256").update(json, "utf8").digest("hex").slice(0, 16);
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * A local date and time as `YYYY-MM-DD HH:MM:SS`: a result's `timestamp` (not ISO; it feeds
 * {@link resultId}).
 * @example
 * localTimestamp(new Date(2026, 3, 21, 9, 5, 7)); // "2026-04-21 09:05:07"
 */
export function localTimestamp(date: Date = new Date()): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
