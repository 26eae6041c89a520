import { useCallback, useEffect, useRef, useState } from "react";
import { ApiRequestError, apiFetch } from "../api/index.js";
import type { ResultTableFacetsResponse, ResultTablePage, ResultTableRow } from "../library-types/index.js";
import type { ResultsSource } from "../results-source/index.js";
import { facetsPath, pagePath, type TableView } from "./table-view.js";

/** Rows per page asked of the server as the table scrolls. */
export const PAGE_SIZE = 100;

export interface TablePages {
  /** Rows matching the view (null until the first page came). */
  readonly total: number | null;
  /** Rows of the source before filtering. */
  readonly sourceTotal: number | null;
  readonly error: string | null;
  /** The row at an index, or undefined while its page loads. */
  row(index: number): ResultTableRow | undefined;
  /** Asks for the pages holding rows first..last (the ones not asked for yet). */
  want(first: number, last: number): void;
}

const messageOf = (error: unknown) => (error instanceof ApiRequestError ? error.message : String(error));

/**
 * Pages of the source's table rows under a view, fetched as they are wanted; everything resets when the source
 * or the view changes (a response for an older view is dropped).
 */
export function useTablePages(source: ResultsSource | null, view: TableView): TablePages {
  const key = source === null ? "" : `${pagePath(source, view, 0, PAGE_SIZE)}#${source.revision ?? 0}`;
  const pages = useRef(new Map<number, readonly ResultTableRow[]>());
  const asked = useRef(new Set<number>());
  const [totals, setTotals] = useState<{ total: number | null; source: number | null }>({
    total: null,
    source: null,
  });
  const [error, setError] = useState<string | null>(null);
  const [, setVersion] = useState(0);
  const current = useRef(key);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for source and view (new objects on each render).
  const load = useCallback(
    (page: number) => {
      if (source === null || asked.current.has(page)) return;
      asked.current.add(page);
      const forKey = key;
      apiFetch<ResultTablePage>(pagePath(source, view, page + 1, PAGE_SIZE)).then(
        (body) => {
          if (current.current !== forKey) return;
          pages.current.set(page, body.items);
          setTotals({ total: body.total, source: body.source_total });
          setVersion((v) => v + 1);
        },
        (failure: unknown) => {
          if (current.current !== forKey) return;
          asked.current.delete(page);
          setError(messageOf(failure));
        },
      );
    },
    [key],
  );

  useEffect(() => {
    current.current = key;
    pages.current = new Map();
    asked.current = new Set();
    setTotals({ total: null, source: null });
    setError(null);
    load(0);
  }, [key, load]);

  return {
    total: totals.total,
    sourceTotal: totals.source,
    error,
    row: (index) => pages.current.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE],
    want: (first, last) => {
      for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++) load(page);
    },
  };
}

/** The source's facets (the multi-select filters' options), or null while they load. */
export function useFacets(
  source: ResultsSource | null,
  sourceTotal: number | null,
): ResultTableFacetsResponse | null {
  const [facets, setFacets] = useState<ResultTableFacetsResponse | null>(null);
  const path = source === null ? null : facetsPath(source);
  // sourceTotal changes while a run adds rows, and the options follow.
  useEffect(() => {
    if (path === null) return setFacets(null);
    // After the first page: the facets need every row of the source read on the server, which would hold up
    // the first page of a big run.
    if (sourceTotal === null) return;
    const abort = new AbortController();
    apiFetch<ResultTableFacetsResponse>(path, { signal: abort.signal }).then(setFacets, () => {});
    return () => abort.abort();
  }, [path, sourceTotal]);
  return facets;
}
