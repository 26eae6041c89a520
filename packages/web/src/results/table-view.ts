import { queryString, withTokenQuery } from "../api/index.js";
import type { FacetName } from "../library-types/index.js";
import type { ResultsSource } from "../results-source/index.js";
import { defineSlice } from "../session/index.js";

// What the results table shows of its source: the filters and the sort of spec 07 §1.6, kept in the session
// (so they survive tab switches and reloads) and sent to the server as the query of its table routes.

/**
 * The multi-select filters: each the name of its query parameter and of its server facet (the library's
 * `FacetName`: a facet the server gains or loses fails the typecheck here).
 */
export const MULTI_FILTERS = [
  "status",
  "verification",
  "keyword",
  "answering_model",
  "parsing_model",
  "mcp_server",
  "rubric",
  "granular",
  "run_name",
  "replicate",
] as const satisfies readonly FacetName[];
export type MultiFilter = (typeof MULTI_FILTERS)[number];
// Every facet has its filter: the two lists are one.
type UnfilteredFacet = Exclude<FacetName, MultiFilter>;
export const EVERY_FACET_FILTERED: [UnfilteredFacet] extends [never] ? true : never = true;

/** The single-value filters: two texts, the execution time range and the timestamp range. */
export const TEXT_FILTERS = ["question", "raw_answer", "time_min", "time_max", "from", "to"] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];

export interface TableView {
  readonly text: Readonly<Partial<Record<TextFilter, string>>>;
  readonly multi: Readonly<Partial<Record<MultiFilter, readonly string[]>>>;
  readonly sort: string;
  readonly order: "asc" | "desc";
}

export const EMPTY_VIEW: TableView = { text: {}, multi: {}, sort: "row", order: "asc" };

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

function parseView(stored: unknown): TableView | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const { text, multi, sort, order } = stored as Record<string, unknown>;
  if (typeof sort !== "string" || (order !== "asc" && order !== "desc")) return undefined;
  if (typeof text !== "object" || text === null || typeof multi !== "object" || multi === null)
    return undefined;
  const texts = Object.entries(text).filter(
    ([key, value]) => (TEXT_FILTERS as readonly string[]).includes(key) && typeof value === "string",
  );
  const multis = Object.entries(multi).filter(
    ([key, value]) => (MULTI_FILTERS as readonly string[]).includes(key) && isStrings(value),
  );
  return { text: Object.fromEntries(texts), multi: Object.fromEntries(multis), sort, order };
}

/** The table's filters and sort (session-restored). */
export const tableViewSlice = defineSlice<TableView>({
  key: "results-table-view",
  version: 1,
  initial: EMPTY_VIEW,
  parse: parseView,
});

/** Whether any filter is set (the heading then says "x of y"). */
export function isFiltered(view: TableView): boolean {
  return (
    Object.values(view.text).some((value) => value !== undefined && value.trim() !== "") ||
    Object.values(view.multi).some((values) => values !== undefined && values.length > 0)
  );
}

/** The query parameters of the view's filters and sort (unset filters left out). */
export function viewParams(view: TableView): Record<string, string | readonly string[]> {
  const params: Record<string, string | readonly string[]> = {};
  for (const name of TEXT_FILTERS) {
    const value = view.text[name]?.trim();
    if (value !== undefined && value !== "") params[name] = value;
  }
  for (const name of MULTI_FILTERS) {
    const values = view.multi[name];
    if (values !== undefined && values.length > 0) params[name] = values;
  }
  if (view.sort !== "row" || view.order !== "asc") {
    params.sort = view.sort;
    params.order = view.order;
  }
  return params;
}

const sourceParams = (source: ResultsSource) => ({ db: source.db, run_id: source.runIds });

/** The path of a page of the table (`page` from 1). */
export function pagePath(source: ResultsSource, view: TableView, page: number, pageSize: number): string {
  return `/api/v2/results${queryString({ ...sourceParams(source), ...viewParams(view), page, page_size: pageSize })}`;
}

/** The path of the source's facets (the multi-select filters' options). */
export function facetsPath(source: ResultsSource): string {
  return `/api/v2/results/facets${queryString(sourceParams(source))}`;
}

/** The download link of the source's rows, filtered as the view is (the token in the query: a plain link). */
export function exportHref(
  source: ResultsSource,
  view: TableView | null,
  format: "json" | "csv",
  token?: string,
): string {
  const params = { ...sourceParams(source), ...(view === null ? {} : viewParams(view)), format };
  return withTokenQuery(`/api/v2/results/export${queryString(params)}`, token);
}

/** The view sorted by `column`: ascending first, then descending, then back to saving order. */
export function toggledSort(view: TableView, column: string): TableView {
  if (view.sort !== column) return { ...view, sort: column, order: "asc" };
  if (view.order === "asc") return { ...view, order: "desc" };
  return { ...view, sort: "row", order: "asc" };
}

/** What a summary metric card filters the table to (the summary panel's `SummaryFilter`). */
export type CardFilter = "completed" | "errors" | "passed" | "failed" | "abstained";

const CARD_FILTERS: Record<CardFilter, Partial<Record<"status" | "verification", readonly string[]>>> = {
  completed: { status: ["completed"] },
  // The summary counts every row that is not completed as an error, abstentions included.
  errors: { status: ["failed", "abstained"] },
  passed: { verification: ["passed"] },
  failed: { verification: ["failed"] },
  abstained: { status: ["abstained"] },
};

/**
 * The view filtered as a summary metric card says: its status or verification filter replaces both of
 * those; the other filters and the sort stay.
 */
export function cardFilteredView(view: TableView, card: CardFilter): TableView {
  const { status: _status, verification: _verification, ...others } = view.multi;
  return { ...view, multi: { ...others, ...CARD_FILTERS[card] } };
}
