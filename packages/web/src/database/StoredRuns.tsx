import { type ChangeEvent, useCallback, useEffect, useState } from "react";
import { apiFetch, queryString } from "../api/index.js";
import type { ApiPage, ApiRunImported, ApiStoredRun } from "../library-types/index.js";
import type { ResultsSource } from "../results-source/index.js";
import { useAnnounce } from "../status/index.js";
import { useToast } from "../toast/index.js";
import { dbQuery } from "./connected-db.js";
import { fileText, problemOf } from "./read-file.js";
import { resultsFileKind } from "./validation.js";

export interface StoredRunsProps {
  readonly db: string | null;
  readonly onOpen: (source: ResultsSource) => void;
  /** Changes when runs were added elsewhere (an import from a benchmark card): the list is read again. */
  readonly refreshKey?: number;
}

const PAGE_SIZE = 10;

/** The source that opens one stored run. */
export function sourceOfRun(db: string | null, run: Pick<ApiStoredRun, "id" | "run_name">): ResultsSource {
  return { db, runIds: [run.id], label: `Run ${run.run_name}` };
}

/** The connected database's stored runs, newest first, paged; Open shows one in the results view. */
export function StoredRuns({ db, onOpen, refreshKey = 0 }: StoredRunsProps) {
  const toast = useToast();
  const announce = useAnnounce();
  const [page, setPage] = useState(1);
  const [runs, setRuns] = useState<ApiPage<ApiStoredRun> | null>(null);

  const reload = useCallback(async () => {
    void refreshKey;
    try {
      setRuns(
        await apiFetch<ApiPage<ApiStoredRun>>(
          `/api/v2/verification-runs${queryString({ db: dbQuery(db), page, page_size: PAGE_SIZE })}`,
        ),
      );
    } catch (error) {
      toast({ tone: "error", message: `Could not list the stored runs: ${problemOf(error)}` });
    }
  }, [db, page, toast, refreshKey]);
  useEffect(() => void reload(), [reload]);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file === undefined) return;
    if (resultsFileKind(file.name) === undefined) {
      toast({ tone: "error", message: `${file.name}: choose a .jsonl run log or a .json results export` });
      return;
    }
    try {
      const imported = await apiFetch<ApiRunImported>(
        `/api/v2/verification-runs/imports${queryString({ db: dbQuery(db) })}`,
        { body: { content: await fileText(file), filename: file.name } },
      );
      announce(`Imported ${imported.imported_count} verification results from ${file.name}`);
      onOpen(sourceOfRun(db, { id: imported.run_id, run_name: imported.run_name }));
      await reload();
    } catch (error) {
      toast({ tone: "error", message: `Could not import ${file.name}: ${problemOf(error)}` });
    }
  };

  const pages = runs === null ? 1 : Math.max(1, Math.ceil(runs.total / PAGE_SIZE));
  return (
    <section className="stored-runs" aria-labelledby="stored-runs-heading">
      <div className="stored-runs-header">
        <h3 id="stored-runs-heading">Stored runs</h3>
        <label className="secondary-button upload-label">
          Upload results to view
          <input
            type="file"
            className="visually-hidden"
            accept=".jsonl,.json,application/json"
            onChange={(event) => void upload(event)}
          />
        </label>
      </div>
      {runs === null ? (
        <p>Loading…</p>
      ) : runs.total === 0 ? (
        <p>No run is stored in this database yet.</p>
      ) : (
        <table className="runs-table">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Benchmark</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.items.map((run) => (
              <tr key={run.id}>
                <td>
                  {run.run_name}
                  {run.is_imported ? <span className="db-badge">imported</span> : null}
                </td>
                <td>{run.benchmark_name}</td>
                <td>{run.status}</td>
                <td>{new Date(run.start_time).toLocaleString()}</td>
                <td>
                  <button
                    aria-label={`Open run ${run.run_name}`}
                    type="button"
                    className="secondary-button"
                    onClick={() => onOpen(sourceOfRun(db, run))}
                  >
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? (
        <nav className="db-actions" aria-label="Stored runs pages">
          <button
            type="button"
            className="secondary-button"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Newer
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="secondary-button"
            disabled={page >= pages}
            onClick={() => setPage(page + 1)}
          >
            Older
          </button>
        </nav>
      ) : null}
    </section>
  );
}
