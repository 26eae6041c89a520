import {
  isEmptyFilter,
  type ResultTableFacetList,
  type ResultTableFilter,
  type ResultTableRow,
  type ResultTableSort,
  resultTableRow,
  selectRows,
  tableFacets,
} from "../../result-table/index.js";
import type { Storage } from "../../storage/index.js";

// The results table of a source (a database connection and some runs) is held in memory between requests:
// its rows are read once (a few hundred bytes each), and every page, sort, filter and facet after that is
// computed from them. An entry is current while its runs' result count and stored table-row count are what
// they were when it was read (two index counts per request): a running job adds rows, a saved replacement
// rewrites one, and either changes a count. The last filtered selection is kept too, so scrolling through
// pages of one filter does not filter again.
//
// Reading a run's 100,000 table rows takes most of a second, and the first page of a run opened in its saving
// order (what every opening shows) does not need them: until they are held, such pages are read directly, a
// page of whole results in saving order (tens of milliseconds), and the whole table is read on the first
// request that needs it (another sort, a filter, the facets).

/** Sources kept (least recently used dropped first). */
const MAX_SOURCES = 4;
/**
 * Rows kept across the sources (about 1 kB of memory each): older sources are dropped past it, the source in use
 * never, so a server that showed a few 100,000-row runs does not hold all of them.
 */
const MAX_HELD_ROWS = 150_000;

interface Entry {
  readonly token: string;
  readonly rows: readonly ResultTableRow[];
  facets: ResultTableFacetList | null;
  selection: { readonly key: string; readonly rows: ResultTableRow[] } | null;
}

interface Held {
  readonly loading: Promise<Entry>;
  /** Set once the rows are read. */
  entry: Entry | null;
}

/** A page of the table under a view. */
export interface TablePageRows {
  readonly items: readonly ResultTableRow[];
  /** Rows matching the filter. */
  readonly total: number;
  /** Rows of the runs. */
  readonly sourceTotal: number;
}

const tokenOf = (counts: { results: number; tableRows: number }) => `${counts.results}/${counts.tableRows}`;
const keyOf = (db: string, runIds: readonly string[]) => `${db}\u0000${[...runIds].sort().join("\u0000")}`;

/** Results-table rows per source, read from storage once and reused while the runs do not change. */
export class ResultTableCache {
  readonly #entries = new Map<string, Held>();

  async #entry(db: string, storage: Storage, runIds: readonly string[]): Promise<Entry> {
    const key = keyOf(db, runIds);
    const token = tokenOf(await storage.countResultTableRows(runIds));
    const held = this.#entries.get(key);
    if (held !== undefined) {
      const entry = await held.loading.catch(() => null);
      if (entry !== null && entry.token === token) {
        this.#entries.delete(key);
        this.#entries.set(key, held);
        return entry;
      }
    }
    const loading = (async (): Promise<Entry> => {
      const rows = await storage.readResultTableRows(runIds);
      // Reading filled missing table rows: the token is taken after, so the next request finds it current.
      const after = tokenOf(await storage.countResultTableRows(runIds));
      return { token: after, rows, facets: null, selection: null };
    })();
    const next: Held = { loading, entry: null };
    loading.then(
      (entry) => {
        next.entry = entry;
        this.#dropBeyondRowBudget(key);
      },
      () => this.#entries.get(key) === next && this.#entries.delete(key),
    );
    this.#entries.delete(key);
    this.#entries.set(key, next);
    while (this.#entries.size > MAX_SOURCES)
      this.#entries.delete(this.#entries.keys().next().value as string);
    return loading;
  }

  /** The rows of the runs matching the filter, in the sort's order. */
  async select(
    db: string,
    storage: Storage,
    runIds: readonly string[],
    filter: ResultTableFilter,
    sort: ResultTableSort,
  ): Promise<{ rows: readonly ResultTableRow[]; total: number }> {
    const entry = await this.#entry(db, storage, runIds);
    const key = JSON.stringify([filter, sort]);
    if (entry.selection?.key !== key) entry.selection = { key, rows: selectRows(entry.rows, filter, sort) };
    return { rows: entry.selection.rows, total: entry.rows.length };
  }

  /** A page (`page` from 1) of the rows of the runs matching the filter, in the sort's order. */
  async page(
    db: string,
    storage: Storage,
    runIds: readonly string[],
    filter: ResultTableFilter,
    sort: ResultTableSort,
    page: number,
    pageSize: number,
  ): Promise<TablePageRows> {
    const start = (page - 1) * pageSize;
    const [runId] = runIds;
    const inSavingOrder = sort.sort === "row" && sort.order === "asc" && isEmptyFilter(filter);
    if (runIds.length === 1 && runId !== undefined && inSavingOrder && !this.#isHeld(db, runIds)) {
      // Counted first: a row saved between the two reads is then on a later page, not missing from the total.
      const { results } = await storage.countResultTableRows(runIds);
      const whole = await storage.loadResults({ runId, limit: pageSize, offset: start });
      return { items: whole.map(resultTableRow), total: results, sourceTotal: results };
    }
    const { rows, total } = await this.select(db, storage, runIds, filter, sort);
    return { items: rows.slice(start, start + pageSize), total: rows.length, sourceTotal: total };
  }

  /** Drops the least recently used sources, other than `keep`, while the held rows exceed the budget. */
  #dropBeyondRowBudget(keep: string): void {
    let held = 0;
    for (const { entry } of this.#entries.values()) held += entry?.rows.length ?? 0;
    for (const [key, { entry }] of this.#entries) {
      if (held <= MAX_HELD_ROWS) return;
      if (key === keep || entry === null) continue;
      this.#entries.delete(key);
      held -= entry.rows.length;
    }
  }

  /** Whether the source's rows are read and held (possibly out of date: the next request checks). */
  #isHeld(db: string, runIds: readonly string[]): boolean {
    return this.#entries.get(keyOf(db, runIds))?.entry != null;
  }

  /** The values of each multi-select filter over every row of the runs, with counts. */
  async facets(
    db: string,
    storage: Storage,
    runIds: readonly string[],
  ): Promise<ResultTableFacetList & { total: number }> {
    const entry = await this.#entry(db, storage, runIds);
    entry.facets ??= tableFacets(entry.rows);
    return { ...entry.facets, total: entry.rows.length };
  }
}
