import {
  type ResultTableFacets,
  type ResultTableFilter,
  type ResultTableRow,
  type ResultTableSort,
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

/** Sources kept (least recently used dropped first). */
const MAX_SOURCES = 4;

interface Entry {
  readonly token: string;
  readonly rows: readonly ResultTableRow[];
  facets: ResultTableFacets | null;
  selection: { readonly key: string; readonly rows: ResultTableRow[] } | null;
}

const tokenOf = (counts: { results: number; tableRows: number }) => `${counts.results}/${counts.tableRows}`;

/** Results-table rows per source, read from storage once and reused while the runs do not change. */
export class ResultTableCache {
  readonly #entries = new Map<string, Promise<Entry>>();

  async #entry(db: string, storage: Storage, runIds: readonly string[]): Promise<Entry> {
    const key = `${db}\u0000${[...runIds].sort().join("\u0000")}`;
    const token = tokenOf(await storage.countResultTableRows(runIds));
    const held = this.#entries.get(key);
    if (held !== undefined) {
      const entry = await held.catch(() => null);
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
    this.#entries.delete(key);
    this.#entries.set(key, loading);
    loading.catch(() => this.#entries.get(key) === loading && this.#entries.delete(key));
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

  /** The values of each multi-select filter over every row of the runs, with counts. */
  async facets(
    db: string,
    storage: Storage,
    runIds: readonly string[],
  ): Promise<{ facets: ResultTableFacets; total: number }> {
    const entry = await this.#entry(db, storage, runIds);
    entry.facets ??= tableFacets(entry.rows);
    return { facets: entry.facets, total: entry.rows.length };
  }
}
