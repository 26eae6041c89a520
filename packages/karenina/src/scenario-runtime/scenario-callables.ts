import { pythonAsset } from "../python-assets/index.js";
import type { JsonValue, PythonSandbox } from "../sandbox/index.js";
import { plainJson } from "../templates/index.js";
import type { ScenarioExecutionResult, ScenarioState, TurnRecord } from "./runtime-types.js";

/**
 * Runs the Python sources a scenario stores (`condition_source`, `state_update_source`, `evaluate_source`,
 * spec 08 §2.10). Each method throws when the source raises, does not evaluate to a callable, or returns
 * something that is not JSON data; the caller turns that into "no match", a rollback or `false`.
 */
export interface ScenarioCallables {
  /** `condition(state)`: Python's truth value of what the lambda returns. */
  condition(source: string, state: ScenarioState): Promise<unknown>;
  /** `state_update(accumulated, parsed)`: the new accumulated state (the caller checks it is an object). */
  stateUpdate(
    source: string,
    accumulated: Record<string, unknown>,
    parsed: Record<string, unknown>,
  ): Promise<unknown>;
  /** `evaluate(result)`: the value of an outcome criterion. */
  evaluate(source: string, result: ScenarioExecutionResult): Promise<unknown>;
}

/**
 * Python run once per interpreter (`scenario_callables.py` beside this file): the module that compiles a source
 * as an expression (`compile(source, …, "eval")`, so a source can never be a statement) and calls it on
 * attribute views of the data.
 */
const callablesSetup = pythonAsset(new URL("./scenario_callables.py", import.meta.url));

const MODULE = `__import__("_karenina_scenario_callables")`;

/** A value as JSON data (PyFloats as plain numbers, `undefined` dropped), what crosses into the sandbox. */
function json(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(plainJson(value) ?? null)) as JsonValue;
}

/** A turn as Python sources see it: every field but the conversation messages. */
function turnForPython(turn: TurnRecord): Record<string, unknown> {
  return {
    node_id: turn.node_id,
    question_text: turn.question_text,
    raw_response: turn.raw_response,
    parsed_answer: turn.parsed_answer,
    parsed_fields: turn.parsed_fields,
    verify_result: turn.verify_result,
    verification_result_id: turn.verification_result_id,
  };
}

function stateForPython(state: ScenarioState, withHistory = true): Record<string, unknown> {
  return {
    turn: state.turn,
    current_node: state.current_node,
    verify_result: state.verify_result,
    parsed: state.parsed,
    node_visits: state.node_visits,
    ...(withHistory ? { history: state.history.map(turnForPython) } : {}),
    accumulated: state.accumulated,
    node_results: state.node_results,
  };
}

function resultForPython(result: ScenarioExecutionResult): Record<string, unknown> {
  return {
    scenario_id: result.scenario_id,
    status: result.status,
    path: result.path,
    turn_count: result.turn_count,
    history: result.history.map(turnForPython),
    // The final state's history is the result's own: sent once, shared again on the Python side.
    final_state: stateForPython(result.final_state, result.final_state.history !== result.history),
    outcome_results: result.outcome_results,
    terminal_failure: result.terminal_failure,
    replicate: result.replicate,
  };
}

/**
 * {@link ScenarioCallables} on a {@link PythonSandbox} (one per checkpoint, the isolation templates get). The
 * source is evaluated as an expression in a fresh namespace at each call, never at load, and called with:
 * - `condition`: a view of the state with attribute access (`st.turn`, `st.verify_result`, `st.current_node`,
 *   `st.parsed`, `st.node_visits`, `st.accumulated`, `st.node_results`, `st.history[i].<turn field>`);
 *   the lambda's value counts by Python truthiness;
 * - `stateUpdate`: `accumulated` and `parsed` as plain dicts (copies: an in-place change is only kept through
 *   the returned dict);
 * - `evaluate`: a view of the result (`r.scenario_id`, `r.status`, `r.path`, `r.turn_count`, `r.history`,
 *   `r.final_state` (a state view), `r.outcome_results` (`{}`), `r.terminal_failure`, `r.replicate`).
 * A turn view has `node_id`, `question_text`, `raw_response`, `parsed_answer` (a dict whose keys also read as
 * attributes), `parsed_fields`, `verify_result`, `verification_result_id`. Not sent (an AttributeError says so):
 * `question_messages`, `trace_messages` and `turn_results`. All other values are plain dicts and lists.
 * Calls of one source may share interpreter state; a different source starts from the clean setup state.
 */
export class SandboxScenarioCallables implements ScenarioCallables {
  constructor(private readonly sandbox: PythonSandbox) {}

  condition(source: string, state: ScenarioState): Promise<unknown> {
    return this.#call("condition", source, stateForPython(state));
  }

  stateUpdate(
    source: string,
    accumulated: Record<string, unknown>,
    parsed: Record<string, unknown>,
  ): Promise<unknown> {
    return this.#call("state_update", source, accumulated, parsed);
  }

  evaluate(source: string, result: ScenarioExecutionResult): Promise<unknown> {
    return this.#call("evaluate", source, resultForPython(result));
  }

  #call(fn: "condition" | "state_update" | "evaluate", source: string, ...data: unknown[]): Promise<unknown> {
    return this.sandbox.run({
      setup: callablesSetup(),
      code: "",
      entry: `${MODULE}.${fn}`,
      args: [source, ...data.map(json)],
      stateKey: `scenario-callable\u0000${source}`,
    });
  }
}
