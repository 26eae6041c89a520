/**
 * Captured answers from verification results (spec 05 §8.2 `captureFromResultSet`): each result's answer —
 * raw trace, the agent's whole trace (turns, tool calls and tool results), parsed fields, verdict, usage and
 * agent metrics — becomes a replay entry, so the run can be verified again with no answering model.
 */
import { type MissPolicy, type ReplayKeyInput, ReplayStore } from "../../llm/index.js";
import { displayString, type VerificationResult } from "../../results/index.js";

/** Which results {@link captureReplayStore} captures, and what of them. */
export interface CaptureOptions {
  /** Copy the parsed answer (`template.parsed_llm_response`): replaying then needs no judge. Default true. */
  includeParsed?: boolean;
  /** Copy the trace messages (`template.trace_messages`: the agent's turns, tool calls and results). Default true. */
  includeAgentTraces?: boolean;
  /** Skip results with a failure other than a content failure (the answer ran cleanly but did not pass). Default true. */
  onlySuccessful?: boolean;
  /** Only results of these answering models (display strings, e.g. `openai_endpoint:qwen`). */
  answeringModelIds?: readonly string[];
  /** Only scenario turns of these scenarios (question-answer results are not affected). */
  scenarioIds?: readonly string[];
  /**
   * `all` keeps every replicate under its number; `first` / `last` keep the results of the lowest / highest
   * replicate number of the whole set, registered for any replicate. Default `all`.
   */
  replicateSelector?: "all" | "first" | "last";
  /** The store's miss policy. Default `fall_through`, as the original's capture. */
  missPolicy?: MissPolicy;
}

const noneLast = (value: string | number | null): [number, string | number] =>
  value === null ? [1, 0] : [0, value];

function compareKeys(a: VerificationResult, b: VerificationResult): number {
  const keys = (r: VerificationResult) => [
    noneLast(r.metadata.scenario_id),
    noneLast(r.metadata.scenario_node),
    noneLast(r.metadata.replicate),
    noneLast(r.metadata.scenario_turn),
  ];
  const [left, right] = [keys(a), keys(b)];
  for (let i = 0; i < left.length; i++) {
    const [x, y] = [left[i] as [number, string | number], right[i] as [number, string | number]];
    if (x[0] !== y[0]) return x[0] - y[0];
    if (x[1] < y[1]) return -1;
    if (x[1] > y[1]) return 1;
  }
  return 0;
}

/** The results of the replicate the selector keeps (all of them when no result has a replicate number). */
function selectReplicates(
  results: readonly VerificationResult[],
  selector: "all" | "first" | "last",
): VerificationResult[] {
  if (selector === "all") return [...results];
  const numbers = results.map((r) => r.metadata.replicate).filter((n): n is number => n !== null);
  if (numbers.length === 0) return [...results];
  const target = selector === "first" ? Math.min(...numbers) : Math.max(...numbers);
  return results.filter((r) => r.metadata.replicate === target);
}

/**
 * A replay store holding the answers of `results`. Keys: the question id, the answering model's display
 * string, the replicate (none with `first`/`last`), and for scenario turns the scenario, node and visit
 * (counted per scenario, node and replicate). Use it to verify the same benchmark again offline:
 * `runVerification(config, { replay: store })`, or save it and pass the file to `karenina verify --replay`.
 * @example
 * const store = captureReplayStore([]); // in practice: the results of a run
 * store.size; // 0
 * await store.save("answers.replay.json");
 */
export function captureReplayStore(
  results: readonly VerificationResult[],
  options: CaptureOptions = {},
): ReplayStore {
  const selector = options.replicateSelector ?? "all";
  const includeParsed = options.includeParsed ?? true;
  const includeTraces = options.includeAgentTraces ?? true;
  const store = new ReplayStore({ missPolicy: options.missPolicy ?? "fall_through" });
  const visits = new Map<string, number>();
  for (const result of selectReplicates(results, selector).sort(compareKeys)) {
    const { metadata, template } = result;
    if (
      (options.onlySuccessful ?? true) &&
      metadata.failure !== null &&
      metadata.failure.category !== "content"
    ) {
      continue;
    }
    const answering = displayString(metadata.answering);
    if (options.answeringModelIds !== undefined && !options.answeringModelIds.includes(answering)) continue;
    const scenario = metadata.scenario_id;
    if (scenario !== null && options.scenarioIds !== undefined && !options.scenarioIds.includes(scenario))
      continue;
    const replicate = selector === "all" ? metadata.replicate : null;
    let visit: number | null = null;
    if (scenario !== null) {
      const cell = JSON.stringify([scenario, metadata.scenario_node ?? "", replicate]);
      visit = visits.get(cell) ?? 0;
      visits.set(cell, visit + 1);
    }
    const key: ReplayKeyInput = {
      question_id: metadata.question_id,
      scenario_id: scenario,
      scenario_node: metadata.scenario_node,
      answering_model_id: answering,
      visit_index: visit,
      replicate,
    };
    store.register(key, {
      raw_trace: template?.raw_llm_response ?? "",
      trace_messages: includeTraces ? (template?.trace_messages ?? null) : null,
      parsed_answer_fields: includeParsed ? (template?.parsed_llm_response ?? null) : null,
      verify_result: template?.verify_result ?? null,
      usage_metadata: template?.usage_metadata ?? null,
      agent_metrics: template?.agent_metrics ?? null,
      captured_model_id: answering,
      captured_at: metadata.timestamp,
    });
  }
  return store;
}
