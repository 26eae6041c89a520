import { useCallback, useEffect, useRef, useState } from "react";
import { accessToken } from "../api/index.js";
// The detail view (src/result-detail/, another screen) loads one stored result when a row's button is pressed.
import { ResultDetailDialog } from "../result-detail/index.js";
import { resultsSourceSlice } from "../results-source/index.js";
// The scenarios of a run (src/scenarios/): shown under the table when the run has any.
import { ScenariosPanel } from "../scenarios/index.js";
import { useSessionSlice } from "../session/index.js";
import { type SummaryFilter, SummaryPanel } from "../summary/index.js";
import { ResultsFilters } from "./ResultsFilters.js";
import { ResultsTable } from "./ResultsTable.js";
import "./results.css";
import {
  cardFilteredView,
  EMPTY_VIEW,
  exportHref,
  isFiltered,
  type TableView,
  tableViewSlice,
  toggledSort,
} from "./table-view.js";
import { useFacets, useTablePages } from "./use-table-pages.js";

/** "Test Results (n)", or "(x of y)" when a filter narrows them. */
export function resultsHeading(total: number | null, sourceTotal: number | null, filtered: boolean): string {
  if (total === null || sourceTotal === null) return "Test Results";
  return filtered ? `Test Results (${total} of ${sourceTotal})` : `Test Results (${sourceTotal})`;
}

/**
 * After the detail dialog closes, focus goes back to its row's button when the dialog could not give it back:
 * the virtualised table may have re-created the row (its page fetched again) while the dialog was open.
 */
function useFocusBackToRow(detail: string | null): void {
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (detail !== null) {
      last.current = detail;
      return;
    }
    const resultId = last.current;
    last.current = null;
    if (resultId === null || (document.activeElement !== null && document.activeElement !== document.body))
      return;
    document.querySelector<HTMLElement>(`.results-detail[data-result-id="${CSS.escape(resultId)}"]`)?.focus();
  }, [detail]);
}

/**
 * Whether the source's first table page has come: the summary waits for it, as its request reads every whole
 * result of the runs (seconds for 100,000) and would hold up the table's first page on the same server.
 * Stays true for the source while filters change.
 */
function useFirstPageShown(sourceKey: string, sourceTotal: number | null): boolean {
  const [shownFor, setShownFor] = useState<string | null>(null);
  useEffect(() => {
    if (sourceTotal !== null) setShownFor(sourceKey);
  }, [sourceKey, sourceTotal]);
  return shownFor === sourceKey;
}

/** The results of the chosen source (spec 07 §1.6): table, detail, summary and comparison. */
export function ResultsSection() {
  const [{ source }, setSource] = useSessionSlice(resultsSourceSlice);
  const [view, setView] = useSessionSlice(tableViewSlice);
  const [detail, setDetail] = useState<string | null>(null);
  useFocusBackToRow(detail);
  const pages = useTablePages(source, view);
  const facets = useFacets(source, pages.sourceTotal);
  const onSort = useCallback(
    (column: string) => setView((current) => toggledSort(current, column)),
    [setView],
  );
  const onChange = useCallback((next: TableView) => setView(next), [setView]);
  const onSummaryFilter = useCallback(
    (card: SummaryFilter) => {
      setView((current) => cardFilteredView(current, card));
      document.getElementById("results-heading")?.scrollIntoView({ block: "nearest" });
    },
    [setView],
  );
  const summaryShown = useFirstPageShown(source === null ? "" : JSON.stringify(source), pages.sourceTotal);

  if (source === null)
    return (
      <section className="results-section" aria-labelledby="results-heading">
        <h2 id="results-heading">Test Results</h2>
        <p className="results-empty">
          No results chosen. Run a verification above, open a stored run from the database browser, or start
          <code> karenina view RUN.jsonl</code>.
        </p>
      </section>
    );

  const filtered = isFiltered(view);
  const token = accessToken();
  return (
    <section className="results-section" aria-labelledby="results-heading">
      <div className="results-bar">
        <h2 id="results-heading" aria-live="polite">
          {resultsHeading(pages.total, pages.sourceTotal, filtered)}
        </h2>
        <span className="results-source">{source.label}</span>
        <a className="results-export" href={exportHref(source, null, "json", token)} download>
          Export all JSON
        </a>
        <a className="results-export" href={exportHref(source, null, "csv", token)} download>
          Export all CSV
        </a>
        {filtered ? (
          <>
            <a className="results-export" href={exportHref(source, view, "json", token)} download>
              Export filtered JSON
            </a>
            <a className="results-export" href={exportHref(source, view, "csv", token)} download>
              Export filtered CSV
            </a>
            <button
              type="button"
              onClick={() => setView({ ...EMPTY_VIEW, sort: view.sort, order: view.order })}
            >
              Reset filters
            </button>
          </>
        ) : null}
        <button type="button" onClick={() => setSource({ source: null })}>
          Clear
        </button>
      </div>
      <ResultsFilters view={view} facets={facets} onChange={onChange} />
      {pages.error === null ? null : (
        <p role="alert" className="results-error">
          {pages.error}
        </p>
      )}
      <ResultsTable pages={pages} view={view} onSort={onSort} onOpenDetail={setDetail} />
      <ScenariosPanel source={source} />
      {summaryShown ? (
        <SummaryPanel source={source} onFilter={onSummaryFilter} onOpenDetail={setDetail} />
      ) : null}
      {detail === null ? null : (
        <ResultDetailDialog
          db={source.db}
          resultId={detail}
          {...(source.runIds.length === 1 ? { runId: source.runIds[0] as string } : {})}
          onClose={() => setDetail(null)}
        />
      )}
    </section>
  );
}
