import { useEffect, useId, useState } from "react";
import { ApiRequestError, apiFetch } from "../api/index.js";
import type {
  ApiCompareModelsResponse,
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

/** The summary request of stored runs: by run id, in the source's database connection. */
export function summaryRequest(db: string | null, runIds: readonly string[]): ApiSummaryRequest {
  return { run_ids: [...runIds], ...(db === null ? {} : { db }) };
}

/**
 * The summary panel under the results table (spec 07 §1.6): a run selector when the source has several runs,
 * Summary and Comparison modes, and an export of what the server returned for the mode shown.
 */
export function SummaryPanel({ source, onFilter, onOpenDetail }: SummaryPanelProps) {
  const [mode, setMode] = useState<Mode>("summary");
  const [run, setRun] = useState<string>("");
  const [summary, setSummary] = useState<ApiSummaryResponse | null>(null);
  const [comparison, setComparison] = useState<ApiCompareModelsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const runId = useId();
  const runIds = run === "" ? source.runIds : [run];
  const requestKey = JSON.stringify(summaryRequest(source.db, runIds));

  useEffect(() => {
    const abort = new AbortController();
    setSummary(null);
    setError(null);
    apiFetch<ApiSummaryResponse>("/api/v2/verifications/summary", {
      body: JSON.parse(requestKey) as ApiSummaryRequest,
      signal: abort.signal,
    }).then(setSummary, (failure: unknown) => {
      if (abort.signal.aborted) return;
      setError(failure instanceof ApiRequestError ? failure.message : String(failure));
    });
    return () => abort.abort();
  }, [requestKey]);

  const resultSummary = summary?.summary as ResultSummary | undefined;
  const exportShown = () =>
    mode === "summary"
      ? downloadJson(summary, "karenina-summary.json")
      : downloadJson(comparison, "karenina-comparison.json");

  return (
    <section className="summary-panel" aria-labelledby="summary-heading">
      <div className="summary-bar">
        <h3 id="summary-heading">{mode === "summary" ? "Summary" : "Comparison"}</h3>
        {source.runIds.length > 1 ? (
          <label htmlFor={runId}>
            Run{" "}
            <select id={runId} value={run} onChange={(event) => setRun(event.target.value)}>
              <option value="">All Runs</option>
              {source.runIds.map((id) => (
                <option key={id} value={id}>
                  {id}
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
}
