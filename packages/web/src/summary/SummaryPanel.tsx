import { memo, type RefObject, useEffect, useId, useRef, useState } from "react";
import { ApiRequestError, apiFetch, queryString } from "../api/index.js";
import type {
  ApiCompareModelsResponse,
  ApiPage,
  ApiStoredRun,
  ApiSummaryRequest,
  ApiSummaryResponse,
  ResultSummary,
} from "../library-types/index.js";
import type { ResultsSource } from "../results-source/index.js";
import { ComparisonView } from "./ComparisonView.js";
import { downloadJson } from "./download-json.js";
import { SummaryView } from "./SummaryView.js";
import type { SummaryFilter } from "./summary-figures.js";
import "./summary.css";

export interface SummaryPanelProps {
  readonly source: ResultsSource;
  /** Filters the results table (a Completion Status card was pressed). */
  readonly onFilter?: (filter: SummaryFilter) => void;
  /** Opens the detail view of a result (a heatmap cell was pressed). */
  readonly onOpenDetail?: (resultId: string) => void;
}

type Mode = "summary" | "comparison";

const RUNS_PAGE_SIZE = 100;

/**
 * The names of the stored runs `runIds` of a database connection (`db` null: the server's own), read from the
 * runs list page by page until every id is found; an id whose run is not listed keeps its id as its name.
 */
export async function runNames(
  db: string | null,
  runIds: readonly string[],
  signal?: AbortSignal,
): Promise<ReadonlyMap<string, string>> {
  const names = new Map<string, string>();
  const wanted = new Set(runIds);
  for (let page = 1; names.size < wanted.size; page++) {
    const runs = await apiFetch<ApiPage<ApiStoredRun>>(
      `/api/v2/verification-runs${queryString({ ...(db === null ? {} : { db }), page, page_size: RUNS_PAGE_SIZE })}`,
      signal === undefined ? {} : { signal },
    );
    for (const run of runs.items) if (wanted.has(run.id)) names.set(run.id, run.run_name);
    if (page * RUNS_PAGE_SIZE >= runs.total) break;
  }
  return names;
}

/** The run names of a source of several runs (empty until loaded, and for a single run, which has no selector). */
function useRunNames(source: ResultsSource): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const key = JSON.stringify([source.db, source.runIds]);
  useEffect(() => {
    const [db, runIds] = JSON.parse(key) as [string | null, string[]];
    if (runIds.length < 2) return;
    const abort = new AbortController();
    runNames(db, runIds, abort.signal).then(setNames, () => {
      // The ids stay as the names: the selector still works without them.
    });
    return () => abort.abort();
  }, [key]);
  return names;
}

/** The summary request of stored runs: by run id, in the source's database connection. */
export function summaryRequest(db: string | null, runIds: readonly string[]): ApiSummaryRequest {
  return { run_ids: [...runIds], ...(db === null ? {} : { db }) };
}

/**
 * Whether the element has come within a screen of the view (once true, stays true). The summary of a big run
 * costs its server seconds (it reads every whole result), during which the table's pages wait: it is asked
 * for only when the panel is about to be seen.
 */
function useNearView(element: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (near || target === null) return;
    if (typeof IntersectionObserver === "undefined") return setNear(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: "0px 0px 50% 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, near]);
  return near;
}

/**
 * The summary panel under the results table (spec 07 §1.6): a run selector when the source has several runs,
 * Summary and Comparison modes, and an export of what the server returned for the mode shown. Loads when it
 * comes near the view. Memoised: the results table above re-renders its section on every page it loads.
 */
export const SummaryPanel = memo(function SummaryPanel({
  source,
  onFilter,
  onOpenDetail,
}: SummaryPanelProps) {
  const [mode, setMode] = useState<Mode>("summary");
  const [run, setRun] = useState<string>("");
  const [summary, setSummary] = useState<ApiSummaryResponse | null>(null);
  const [comparison, setComparison] = useState<ApiCompareModelsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const runId = useId();
  const names = useRunNames(source);
  const runIds = run === "" ? source.runIds : [run];
  // The revision is in the key so a run that ended is summarised again (its request is the same).
  const requestKey = JSON.stringify([summaryRequest(source.db, runIds), source.revision ?? 0]);
  const section = useRef<HTMLElement>(null);
  const shown = useNearView(section);

  useEffect(() => {
    if (!shown) return;
    const abort = new AbortController();
    setSummary(null);
    setError(null);
    apiFetch<ApiSummaryResponse>("/api/v2/verifications/summary", {
      body: (JSON.parse(requestKey) as [ApiSummaryRequest, number])[0],
      signal: abort.signal,
    }).then(setSummary, (failure: unknown) => {
      if (abort.signal.aborted) return;
      setError(failure instanceof ApiRequestError ? failure.message : String(failure));
    });
    return () => abort.abort();
  }, [requestKey, shown]);

  const resultSummary = summary?.summary as ResultSummary | undefined;
  const exportShown = () =>
    mode === "summary"
      ? downloadJson(summary, "karenina-summary.json")
      : downloadJson(comparison, "karenina-comparison.json");

  return (
    <section ref={section} className="summary-panel" aria-labelledby="summary-heading">
      <div className="summary-bar">
        <h3 id="summary-heading">{mode === "summary" ? "Summary" : "Comparison"}</h3>
        {source.runIds.length > 1 ? (
          <label htmlFor={runId}>
            Run{" "}
            <select id={runId} value={run} onChange={(event) => setRun(event.target.value)}>
              <option value="">All Runs</option>
              {source.runIds.map((id) => (
                <option key={id} value={id}>
                  {names.get(id) ?? id}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <fieldset className="summary-modes">
          <legend className="visually-hidden">Mode</legend>
          {(["summary", "comparison"] as const).map((m) => (
            <button key={m} type="button" aria-pressed={mode === m} onClick={() => setMode(m)}>
              {m === "summary" ? "Summary" : "Comparison"}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          onClick={exportShown}
          disabled={mode === "summary" ? summary === null : comparison === null}
        >
          {mode === "summary" ? "Export Summary" : "Export Comparison"}
        </button>
      </div>
      {error === null ? null : (
        <p className="summary-error" role="alert">
          {error}
        </p>
      )}
      {resultSummary === undefined ? (
        error === null ? (
          <p aria-live="polite">Loading the summary…</p>
        ) : null
      ) : mode === "summary" ? (
        <SummaryView summary={resultSummary} onFilter={onFilter} />
      ) : (
        <ComparisonView
          runs={{ db: source.db, runIds }}
          summary={resultSummary}
          onOpenDetail={onOpenDetail}
          onComparison={setComparison}
        />
      )}
    </section>
  );
});
