import { useEffect, useState } from "react";
import { ApiRequestError, apiFetch, queryString } from "../api/index.js";
import type { StoredCheckpoint } from "../library-types/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { questionsOfCheckpoint, type RunQuestion } from "./checkpoint-questions.js";

// The run screen reads the model registry through this module, as before the hooks were shared with tab 1.
export { useInterfaces, useModelDefaults } from "../model-registry/index.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export type QuestionsState =
  | { readonly state: "none" }
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly message: string }
  | { readonly state: "loaded"; readonly questions: readonly RunQuestion[] };

/** The questions of the working benchmark, read from the server (`GET /api/v2/benchmarks/{name}?db=`). */
export function useBenchmarkQuestions(benchmark: WorkingBenchmark | null): QuestionsState {
  const [state, setState] = useState<QuestionsState>({ state: "none" });
  const db = benchmark?.db ?? null;
  const name = benchmark?.name ?? null;
  useEffect(() => {
    if (name === null) {
      setState({ state: "none" });
      return;
    }
    const abort = new AbortController();
    setState({ state: "loading" });
    apiFetch<StoredCheckpoint>(`/api/v2/benchmarks/${encodeURIComponent(name)}${queryString({ db })}`, {
      signal: abort.signal,
    })
      .then((stored) => setState({ state: "loaded", questions: questionsOfCheckpoint(stored.checkpoint) }))
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === "AbortError") return;
        setState({
          state: "failed",
          message: error instanceof ApiRequestError ? error.message : messageOf(error),
        });
      });
    return () => abort.abort();
  }, [db, name]);
  return state;
}
