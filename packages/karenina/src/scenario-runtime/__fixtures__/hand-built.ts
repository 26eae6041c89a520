/** Hand-built turns, states and results for the runtime tests (spec 08 §8.2, §8.3 build histories by hand). */
import { userMessage } from "../../llm/index.js";
import {
  initialScenarioState,
  type ScenarioExecutionResult,
  type ScenarioState,
  type TurnRecord,
} from "../runtime-types.js";

/** A turn of node `node_id` (default "ask") with the given fields. */
export function turn(fields: Partial<TurnRecord> = {}): TurnRecord {
  const node_id = fields.node_id ?? "ask";
  const question_text = fields.question_text ?? `Question of ${node_id}`;
  return {
    node_id,
    question_text,
    question_messages: [userMessage(question_text)],
    trace_messages: [],
    raw_response: "",
    parsed_answer: null,
    parsed_fields: {},
    verify_result: null,
    verification_result_id: null,
    ...fields,
  };
}

/** Turns with these verify results, in order (`"T"`/`"F"` spelled as booleans). */
export const verifyHistory = (...results: (boolean | null)[]): TurnRecord[] =>
  results.map((verify_result) => turn({ verify_result }));

/** A state at node `current_node` with the given fields. */
export function state(fields: Partial<ScenarioState> = {}): ScenarioState {
  return { ...initialScenarioState(fields.current_node ?? "ask"), ...fields };
}

/** A finished execution with this history (status completed unless given). */
export function result(
  history: TurnRecord[],
  fields: Partial<ScenarioExecutionResult> = {},
): ScenarioExecutionResult {
  const final_state = state({
    turn: history.length,
    current_node: history.at(-1)?.node_id ?? "ask",
    history,
    verify_result: history.at(-1)?.verify_result ?? null,
  });
  return {
    scenario_id: "demo",
    status: "completed",
    path: history.map((t) => t.node_id),
    turn_count: history.length,
    history,
    turn_results: [],
    final_state,
    outcome_results: {},
    terminal_failure: null,
    replicate: null,
    ...fields,
  };
}
