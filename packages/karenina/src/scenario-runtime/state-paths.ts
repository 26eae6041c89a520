import type { ScenarioExecutionResult, ScenarioState, TurnRecord } from "./runtime-types.js";

/** `dict.get(key)` on a plain object: own keys only, so `constructor` or `__proto__` read as missing. */
function get(object: unknown, key: string, missing: unknown = null): unknown {
  if (object === null || typeof object !== "object" || Array.isArray(object)) return missing;
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : missing;
}

const isDict = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `"a.b.c"` → `["a", "b.c"]`; `"a"` → `["a", null]` (Python `str.split(".", 1)`). */
function splitFirst(path: string): [string, string | null] {
  const dot = path.indexOf(".");
  return dot === -1 ? [path, null] : [path.slice(0, dot), path.slice(dot + 1)];
}

/**
 * The value a `StateCheck.field` names in the state (spec 08 §4.6). `parsed.<key>` and `accumulated.<key>` read
 * one key, dots included; `node_visits.<node>` is 0 for an unvisited node; `node_results.<node>[.<key>[.<sub>]]`
 * walks at most three levels; anything else is null. So on a fresh state `node_visits.retry` is 0 and
 * `foo.bar` is null.
 */
export function resolveStatePath(field: string, state: ScenarioState): unknown {
  const [root, rest] = splitFirst(field);
  if (root === "verify_result") return state.verify_result;
  if (root === "turn") return state.turn;
  if (root === "current_node") return state.current_node;
  if (rest === null) return null;
  if (root === "parsed") return get(state.parsed, rest);
  if (root === "accumulated") return get(state.accumulated, rest);
  if (root === "node_visits") return get(state.node_visits, rest, 0);
  if (root === "node_results") return resolveNodeResultsPath(rest, state);
  return null;
}

function resolveNodeResultsPath(path: string, state: ScenarioState): unknown {
  const [node, remaining] = splitFirst(path);
  const entry = get(state.node_results, node, {});
  if (remaining === null) return entry;
  const [key, sub] = splitFirst(remaining);
  const value = get(entry, key);
  return sub !== null && isDict(value) ? get(value, sub) : value;
}

/** The attributes of a TurnRecord a turn field may name (Python `getattr(turn, name, None)`). */
const TURN_FIELDS: ReadonlySet<string> = new Set<keyof TurnRecord>([
  "node_id",
  "question_text",
  "question_messages",
  "trace_messages",
  "raw_response",
  "parsed_answer",
  "parsed_fields",
  "verify_result",
  "verification_result_id",
]);

/**
 * The value a `TurnCheck.field` or `CrossTurnCheck.*_field` names in a turn (spec 08 §4.6): `parsed.<key>` reads
 * one key of `parsed_fields` (dots included); otherwise the record attribute named by the part before the first
 * dot, or null (`parsed.drug` → `parsed_fields["drug"]`, `node_id.x` → `node_id`).
 */
export function resolveTurnField(field: string, turn: TurnRecord): unknown {
  const [root, rest] = splitFirst(field);
  if (root === "parsed" && rest !== null) return get(turn.parsed_fields, rest);
  return TURN_FIELDS.has(root) ? (turn[root as keyof TurnRecord] ?? null) : null;
}

/** The attributes of an execution result a `ResultCheck.field` may name. */
const RESULT_FIELDS: ReadonlySet<string> = new Set<keyof ScenarioExecutionResult>([
  "scenario_id",
  "status",
  "path",
  "turn_count",
  "history",
  "turn_results",
  "final_state",
  "outcome_results",
  "terminal_failure",
  "replicate",
]);

/**
 * The value a `ResultCheck.field` names: the result attribute of that exact name (no dotted paths, as Python
 * `getattr(result, field, None)`: `final_state.turn` is null), or null. During outcome evaluation
 * `outcome_results` is `{}` (quirk Q44; {@link evaluateOutcomeCriteria} sees to it).
 */
export function resolveResultField(field: string, result: ScenarioExecutionResult): unknown {
  return RESULT_FIELDS.has(field) ? (result[field as keyof ScenarioExecutionResult] ?? null) : null;
}
