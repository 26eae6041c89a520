import { defineSlice } from "../session/index.js";

/**
 * Which stored results the results view shows: runs of a database connection (`null`: the server's own
 * database), by run id. A verification job started here shows its run; the database browser and
 * `karenina view` open stored runs. Everything is read from the server by reference; the browser never holds
 * the rows of a run.
 */
export interface ResultsSource {
  /** A named database connection of the server, or null for the server's database. */
  readonly db: string | null;
  readonly runIds: readonly string[];
  /** What the view's heading calls it ("Run nightly-1", "2 runs of ..."). */
  readonly label: string;
  /** The verification job whose run this is, when it was started from this page (to follow its progress). */
  readonly jobId?: string;
  /** Bumped when the source's rows changed under the same runs (its job ended): the views read them again. */
  readonly revision?: number;
}

export interface ResultsSourceState {
  readonly source: ResultsSource | null;
}

function isSource(value: unknown): value is ResultsSource {
  if (typeof value !== "object" || value === null) return false;
  const { db, runIds, label, jobId, revision } = value as Record<string, unknown>;
  return (
    (db === null || typeof db === "string") &&
    Array.isArray(runIds) &&
    runIds.every((id) => typeof id === "string") &&
    typeof label === "string" &&
    (jobId === undefined || typeof jobId === "string") &&
    (revision === undefined || typeof revision === "number")
  );
}

export const resultsSourceSlice = defineSlice<ResultsSourceState>({
  key: "results-source",
  version: 1,
  initial: { source: null },
  parse: (stored) => {
    if (typeof stored !== "object" || stored === null) return undefined;
    const { source } = stored as Record<string, unknown>;
    return source === null || isSource(source) ? { source } : undefined;
  },
});
