import { type ManualTraces, questionHash } from "../manual/index.js";
import type { MissPolicy } from "./replay-schema.js";
import { ReplayStore } from "./replay-store.js";

/** A question as the replay store needs it: its id (the replay key) and its text (the manual-trace key). */
export interface ReplayQuestion {
  id: string;
  text: string;
}

/**
 * A replay store holding the manual trace of each question (spec 05 §8.2 `fromManualTraces`): one wildcard
 * entry per question that has a trace (questions without one are skipped), keyed by the question's actual
 * id, with `captured_model_id: "manual"` and the trace's agent metrics. The policy defaults to `strict`, so
 * a question without a trace fails instead of reaching a model.
 * @example
 * const traces = new ManualTraces({ questions: ["What is 2+2?"] });
 * traces.registerTrace("What is 2+2?", "--- AI Message ---\n4", { mapToId: true });
 * const store = replayStoreFromManualTraces(traces, [{ id: "q-custom", text: "What is 2+2?" }]);
 * store.lookup({ question_id: "q-custom", answering_model_id: "manual:manual" })?.captured_model_id; // "manual"
 */
export function replayStoreFromManualTraces(
  traces: ManualTraces,
  questions: readonly ReplayQuestion[],
  options: { missPolicy?: MissPolicy } = {},
): ReplayStore {
  const store = new ReplayStore({ missPolicy: options.missPolicy ?? "strict" });
  for (const question of questions) {
    const record = traces.get(questionHash(question.text));
    if (record === undefined) continue;
    store.register(
      { question_id: question.id },
      {
        raw_trace: record.trace,
        agent_metrics: record.agentMetrics === null ? null : { ...record.agentMetrics },
        captured_model_id: "manual",
      },
    );
  }
  return store;
}
