import { apiFetch, queryString } from "../api/index.js";
import { dbQuery } from "../database/index.js";
import type {
  Curation,
  CurationChanges,
  CurationSaved,
  CuratorQuestion,
  NewQuestionRequest,
} from "../library-types/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import type { CurationTransport } from "./curation-controller.js";

/** A benchmark route's path with its `?db=`: `/api/v2/benchmarks/<name><suffix>?db=…`. */
export function benchmarkPath(benchmark: WorkingBenchmark, suffix = ""): string {
  return `/api/v2/benchmarks/${encodeURIComponent(benchmark.name)}${suffix}${queryString({ db: dbQuery(benchmark.db) })}`;
}

export function fetchCuration(benchmark: WorkingBenchmark): Promise<Curation> {
  return apiFetch<Curation>(benchmarkPath(benchmark, "/curation"));
}

export function patchCuration(benchmark: WorkingBenchmark, changes: CurationChanges): Promise<CurationSaved> {
  return apiFetch<CurationSaved>(benchmarkPath(benchmark, "/curation"), { method: "PATCH", body: changes });
}

export function postQuestion(
  benchmark: WorkingBenchmark,
  request: NewQuestionRequest,
): Promise<CuratorQuestion> {
  return apiFetch<CuratorQuestion>(benchmarkPath(benchmark, "/curation/questions"), { body: request });
}

export function curationTransport(benchmark: WorkingBenchmark): CurationTransport {
  return { load: () => fetchCuration(benchmark), save: (changes) => patchCuration(benchmark, changes) };
}
