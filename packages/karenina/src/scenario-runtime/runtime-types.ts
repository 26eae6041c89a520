import type { Message } from "../llm/index.js";
import type { VerificationResult } from "../results/index.js";
import type { ScenarioStatus } from "../scenario/index.js";

/** What one visit of a node left behind; the last visit wins (spec 08 §2.11). */
export interface NodeResult {
  verify_result: boolean | null;
  /** The parsed answer with `id` and `correct` (quirk Q14). */
  parsed: Record<string, unknown>;
  /** Trait name → score; `{}` when no rubric was evaluated. */
  rubric: Record<string, unknown>;
}

/** One turn of an execution (spec 08 §2.11 `TurnRecord`). */
export interface TurnRecord {
  node_id: string;
  /** The node's own text, even when a handover changed what was sent. */
  question_text: string;
  question_messages: Message[];
  trace_messages: Message[];
  /** `""` when there is none. */
  raw_response: string;
  parsed_answer: Record<string, unknown> | null;
  /** The parsed answer with `id` and `correct`; `{}` when parsing did not happen. */
  parsed_fields: Record<string, unknown>;
  verify_result: boolean | null;
  verification_result_id: string | null;
}

/** The mutable state of one execution (spec 08 §2.11 `ScenarioState`). */
export interface ScenarioState {
  /** Completed turns (0 before the first). */
  turn: number;
  current_node: string;
  verify_result: boolean | null;
  parsed: Record<string, unknown>;
  node_visits: Record<string, number>;
  history: TurnRecord[];
  accumulated: Record<string, unknown>;
  node_results: Record<string, NodeResult>;
}

/** Why an execution stopped with status `error` (spec 08 §2.11). */
export interface ScenarioTerminalFailure {
  node_id: string;
  category: string;
  stage: string;
  reason: string;
}

/** A message of the conversation log with the agent it belongs to (`__user__` for node questions). */
export interface TaggedMessage {
  message: Message;
  agent_id: string;
}

/** Name → value of the outcome criteria (a boolean, or a number for aggregations and callables). */
export type OutcomeResults = Record<string, boolean | number | null>;

/** One execution of a scenario with one answering model, one parsing model and one replicate. */
export interface ScenarioExecutionResult {
  scenario_id: string;
  status: ScenarioStatus;
  /** Node ids in visit order. */
  path: string[];
  turn_count: number;
  history: TurnRecord[];
  turn_results: VerificationResult[];
  final_state: ScenarioState;
  outcome_results: OutcomeResults;
  /** Set iff `status` is `error`. */
  terminal_failure: ScenarioTerminalFailure | null;
  replicate: number | null;
}

/** The state before the first turn of a scenario starting at `entryNode`. */
export function initialScenarioState(entryNode: string): ScenarioState {
  return {
    turn: 0,
    current_node: entryNode,
    verify_result: null,
    parsed: {},
    node_visits: {},
    history: [],
    accumulated: {},
    node_results: {},
  };
}
