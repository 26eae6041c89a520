import { type FormEvent, useCallback, useEffect, useState } from "react";
import { ApiRequestError, apiFetch, queryString } from "../api/index.js";
import type { ApiPage, ApiStoredBenchmark } from "../library-types/index.js";
import { useAnnounce } from "../status/index.js";
import { useToast } from "../toast/index.js";
import type { WorkingBenchmark } from "../working-benchmark/index.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { dbQuery } from "./connected-db.js";
import { fileText, problemOf } from "./read-file.js";
import { benchmarkNameProblem, runNameProblem } from "./validation.js";

export interface BenchmarksPanelProps {
  readonly db: string | null;
  readonly working: WorkingBenchmark | null;
  readonly onLoad: (benchmark: WorkingBenchmark) => void;
  /** Results were imported into a new run (the stored runs list refreshes). */
  readonly onImported?: () => void;
}

const benchmarkPath = (name: string, db: string | null, suffix = "") =>
  `/api/v2/benchmarks/${encodeURIComponent(name)}${suffix}${queryString({ db: dbQuery(db) })}`;

/** Imports a JSON results export into a new run of a benchmark (the card's "Import Results"). */
function ImportResults({
  db,
  name,
  onImported,
}: {
  db: string | null;
  name: string;
  onImported?: () => void;
}) {
  const toast = useToast();
  const announce = useAnnounce();
  const [runName, setRunName] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | undefined>();
  const importIt = async (event: FormEvent) => {
    event.preventDefault();
    const nameProblem = runNameProblem(runName);
    if (nameProblem !== undefined || file === null) return setProblem(nameProblem ?? "Choose a JSON export.");
    try {
      const exported = JSON.parse(await fileText(file)) as Record<string, unknown>;
      const outcome = await apiFetch<{ imported_count: number; skipped_count: number }>(
        benchmarkPath(name, db, "/results"),
        {
          body: {
            results_export: exported,
            source_filename: file.name,
            ...(runName.trim() === "" ? {} : { run_name: runName.trim() }),
          },
        },
      );
      setProblem(undefined);
      const message = `Imported ${outcome.imported_count} verification results${outcome.skipped_count > 0 ? ` (${outcome.skipped_count} of other questions skipped)` : ""}`;
      announce(message);
      toast({ tone: "info", message });
      onImported?.();
    } catch (error) {
      setProblem(error instanceof SyntaxError ? `${file.name} is not JSON` : problemOf(error));
    }
  };
  const id = `import-${name.replace(/\W/g, "_")}`;
  return (
    <form className="db-form" onSubmit={(event) => void importIt(event)} noValidate>
      <label htmlFor={`${id}-file`}>Results export (JSON)</label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".json,application/json"
        onChange={(event) => setFile(event.target.files?.[0] ?? null)}
      />
      <label htmlFor={`${id}-run`}>Run name (optional)</label>
      <input id={`${id}-run`} value={runName} onChange={(event) => setRunName(event.target.value)} />
      <button aria-label={`Import Results into ${name}`} type="submit" className="secondary-button">
        Import Results
      </button>
      {problem === undefined ? null : (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The Manage Benchmarks tab: cards of the connected database's benchmarks; create, load, delete, import. */
export function BenchmarksPanel({ db, working, onLoad, onImported }: BenchmarksPanelProps) {
  const toast = useToast();
  const announce = useAnnounce();
  const [benchmarks, setBenchmarks] = useState<readonly ApiStoredBenchmark[] | null>(null);
  const [newName, setNewName] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const [toDelete, setToDelete] = useState<ApiStoredBenchmark | null>(null);
  const [importing, setImporting] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const page = await apiFetch<ApiPage<ApiStoredBenchmark>>(
        `/api/v2/benchmarks${queryString({ db: dbQuery(db), page_size: 100 })}`,
      );
      setBenchmarks(page.items);
    } catch (error) {
      toast({ tone: "error", message: `Could not list the benchmarks: ${problemOf(error)}` });
    }
  }, [db, toast]);
  useEffect(() => void reload(), [reload]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const found = benchmarkNameProblem(newName, benchmarks?.map((b) => b.name) ?? []);
    setProblem(found);
    if (found !== undefined) return;
    try {
      await apiFetch(`/api/v2/benchmarks${queryString({ db: dbQuery(db) })}`, {
        body: { name: newName.trim() },
      });
      announce(`Created benchmark ${newName.trim()}`);
      setNewName("");
      await reload();
    } catch (error) {
      setProblem(error instanceof ApiRequestError ? error.message : problemOf(error));
    }
  };

  const remove = async (benchmark: ApiStoredBenchmark) => {
    setToDelete(null);
    try {
      await apiFetch(benchmarkPath(benchmark.name, db), { method: "DELETE" });
      announce(`Deleted benchmark ${benchmark.name}`);
      await reload();
    } catch (error) {
      toast({ tone: "error", message: `Could not delete ${benchmark.name}: ${problemOf(error)}` });
    }
  };

  return (
    <div className="db-panel">
      <form className="db-form" onSubmit={(event) => void create(event)} noValidate>
        <label htmlFor="new-benchmark-name">New benchmark</label>
        <input
          id="new-benchmark-name"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? undefined : "new-benchmark-problem"}
        />
        <button type="submit" className="button">
          Create benchmark
        </button>
        {problem === undefined ? null : (
          <p id="new-benchmark-problem" className="field-problem" role="alert">
            {problem}
          </p>
        )}
      </form>
      {benchmarks === null ? (
        <p>Loading…</p>
      ) : benchmarks.length === 0 ? (
        <p>This database holds no benchmark yet.</p>
      ) : (
        <ul className="benchmark-cards" aria-label="Benchmarks">
          {benchmarks.map((benchmark) => {
            const isWorking = working?.name === benchmark.name && working.db === db;
            return (
              <li key={benchmark.id} className="benchmark-card">
                <h4>{benchmark.name}</h4>
                <p className="db-muted">
                  {benchmark.scenario_count > 0
                    ? `${benchmark.scenario_count} scenario${benchmark.scenario_count === 1 ? "" : "s"}`
                    : `${benchmark.total_questions} question${benchmark.total_questions === 1 ? "" : "s"} (${benchmark.finished_count} finished, ${benchmark.unfinished_count} unfinished)`}{" "}
                  · modified {new Date(benchmark.last_modified).toLocaleString()}
                </p>
                <div className="db-actions">
                  {isWorking ? (
                    <span className="db-badge">Working benchmark</span>
                  ) : (
                    <button
                      aria-label={`Load Benchmark ${benchmark.name}`}
                      type="button"
                      className="button"
                      onClick={() => {
                        onLoad({ db, name: benchmark.name });
                        announce(`Loaded benchmark ${benchmark.name}`);
                      }}
                    >
                      Load Benchmark
                    </button>
                  )}
                  <button
                    aria-label={`Import Results ${benchmark.name}`}
                    type="button"
                    className="secondary-button"
                    aria-expanded={importing === benchmark.name}
                    onClick={() => setImporting(importing === benchmark.name ? null : benchmark.name)}
                  >
                    Import Results…
                  </button>
                  <button
                    aria-label={`Delete ${benchmark.name}`}
                    type="button"
                    className="secondary-button"
                    onClick={() => setToDelete(benchmark)}
                  >
                    Delete
                  </button>
                </div>
                {importing === benchmark.name ? (
                  <ImportResults
                    db={db}
                    name={benchmark.name}
                    {...(onImported === undefined ? {} : { onImported })}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {toDelete === null ? null : (
        <ConfirmDialog
          title={`Delete ${toDelete.name}?`}
          confirmLabel="Delete benchmark"
          onConfirm={() => void remove(toDelete)}
          onCancel={() => setToDelete(null)}
        >
          <p>
            The benchmark {toDelete.name} goes with its {toDelete.total_questions} questions and every
            verification run stored for it, with their results. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
