import { defineSlice } from "../session/index.js";

/**
 * The benchmark the page works on: a stored benchmark of a database connection (`db` null: the server's own
 * database). The database browser sets it ("Load Benchmark"); the run screen reads its finished questions from
 * the server (`GET /api/v2/benchmarks/{name}?db=`).
 */
export interface WorkingBenchmark {
  readonly db: string | null;
  readonly name: string;
}

export interface WorkingBenchmarkState {
  readonly benchmark: WorkingBenchmark | null;
}

function isWorkingBenchmark(value: unknown): value is WorkingBenchmark {
  if (typeof value !== "object" || value === null) return false;
  const { db, name } = value as Record<string, unknown>;
  return (db === null || typeof db === "string") && typeof name === "string" && name !== "";
}

export const workingBenchmarkSlice = defineSlice<WorkingBenchmarkState>({
  key: "working-benchmark",
  version: 1,
  initial: { benchmark: null },
  parse: (stored) => {
    if (typeof stored !== "object" || stored === null) return undefined;
    const { benchmark } = stored as Record<string, unknown>;
    return benchmark === null || isWorkingBenchmark(benchmark) ? { benchmark } : undefined;
  },
});
