import { type FormEvent, useCallback, useEffect, useState } from "react";
import { apiFetch } from "../api/index.js";
import type { ApiDatabaseConnection, ApiDatabaseFiles } from "../library-types/index.js";
import { useAnnounce } from "../status/index.js";
import { useToast } from "../toast/index.js";
import { ConfirmDialog } from "./ConfirmDialog.js";
import { DEFAULT_CONNECTION } from "./connected-db.js";
import { problemOf } from "./read-file.js";
import { connectionNameProblem, databaseNameProblem } from "./validation.js";

export interface ConnectPanelProps {
  readonly connected: string | null;
  readonly onConnect: (db: string | null) => void;
}

/** A connection name for a SQLite file: its name without `.db`, made of the allowed characters. */
function connectionNameOf(file: string): string {
  const name = file
    .replace(/\.db$/i, "")
    .replace(/[^A-Za-z0-9_-]/g, "_")
    .slice(0, 64);
  return name === "" ? "db" : name;
}

/** The Connect tab: the server's connections and the SQLite files of its database folder. */
export function ConnectPanel({ connected, onConnect }: ConnectPanelProps) {
  const toast = useToast();
  const announce = useAnnounce();
  const [connections, setConnections] = useState<readonly ApiDatabaseConnection[]>([]);
  const [files, setFiles] = useState<ApiDatabaseFiles | null>(null);
  const [newName, setNewName] = useState("");
  const [nameProblem, setNameProblem] = useState<string | undefined>();
  const [toDelete, setToDelete] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [list, dir] = await Promise.all([
        apiFetch<{ connections: ApiDatabaseConnection[] }>("/api/v2/databases/connections"),
        apiFetch<ApiDatabaseFiles>("/api/v2/databases"),
      ]);
      setConnections(list.connections);
      setFiles(dir);
    } catch (error) {
      toast({ tone: "error", message: `Could not list the databases: ${problemOf(error)}` });
    }
  }, [toast]);
  useEffect(() => void reload(), [reload]);

  const connectFile = async (file: string, existing: readonly string[]) => {
    const name = existing[0] ?? connectionNameOf(file);
    const problem = connectionNameProblem(name);
    if (problem !== undefined) return toast({ tone: "error", message: problem });
    try {
      if (existing.length === 0)
        await apiFetch("/api/v2/databases/connections", {
          body: { name, sqlite_file: file, create_if_missing: false },
        });
      onConnect(name);
      announce(`Connected to ${file}`);
      await reload();
    } catch (error) {
      toast({ tone: "error", message: `Could not connect to ${file}: ${problemOf(error)}` });
    }
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const problem = databaseNameProblem(newName, files?.databases.map((d) => d.name) ?? []);
    setNameProblem(problem);
    if (problem !== undefined) return;
    try {
      const created = await apiFetch<{ name: string }>("/api/v2/databases", {
        body: { name: newName.trim() },
      });
      setNewName("");
      announce(`Created ${created.name}`);
      await reload();
    } catch (error) {
      setNameProblem(problemOf(error));
    }
  };

  const remove = async (file: string) => {
    setToDelete(null);
    try {
      const closing = files?.databases.find((d) => d.name === file)?.connections ?? [];
      await apiFetch(`/api/v2/databases/${encodeURIComponent(file)}`, { method: "DELETE" });
      if (connected !== null && closing.includes(connected)) onConnect(null);
      announce(`Deleted ${file}`);
      await reload();
    } catch (error) {
      toast({ tone: "error", message: `Could not delete ${file}: ${problemOf(error)}` });
    }
  };

  return (
    <div className="db-panel">
      <h3>Connections</h3>
      <ul className="db-list" aria-label="Connections">
        {connections.map((connection) => {
          const isCurrent =
            connection.name === connected || (connected === null && connection.name === DEFAULT_CONNECTION);
          return (
            <li key={connection.name} className="db-row">
              <span>
                <strong>{connection.name}</strong> <span className="db-muted">{connection.database}</span>
              </span>
              {isCurrent ? (
                <span className="db-badge">Connected</span>
              ) : (
                <button
                  aria-label={`Connect to ${connection.name}`}
                  type="button"
                  className="secondary-button"
                  onClick={() => onConnect(connection.name === DEFAULT_CONNECTION ? null : connection.name)}
                >
                  Connect
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <h3>SQLite files</h3>
      {files === null ? null : <p className="db-muted">In {files.db_directory}</p>}
      <ul className="db-list" aria-label="SQLite files">
        {files?.databases.map((file) => (
          <li key={file.name} className="db-row">
            <span>
              <strong>{file.name}</strong> <span className="db-muted">{Math.ceil(file.size / 1024)} kB</span>
            </span>
            <span className="db-actions">
              <button
                aria-label={`Connect to ${file.name}`}
                type="button"
                className="secondary-button"
                onClick={() => void connectFile(file.name, file.connections)}
              >
                Connect
              </button>
              <button
                aria-label={`Delete ${file.name}`}
                type="button"
                className="secondary-button"
                onClick={() => setToDelete(file.name)}
              >
                Delete
              </button>
            </span>
          </li>
        ))}
      </ul>
      <form className="db-form" onSubmit={(event) => void create(event)} noValidate>
        <label htmlFor="new-database-name">New SQLite database</label>
        <input
          id="new-database-name"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          aria-invalid={nameProblem !== undefined}
          aria-describedby={nameProblem === undefined ? undefined : "new-database-problem"}
          placeholder="results"
        />
        <button type="submit" className="button">
          Create database
        </button>
        {nameProblem === undefined ? null : (
          <p id="new-database-problem" className="field-problem" role="alert">
            {nameProblem}
          </p>
        )}
      </form>
      {toDelete === null ? null : (
        <ConfirmDialog
          title={`Delete ${toDelete}?`}
          confirmLabel="Delete database"
          onConfirm={() => void remove(toDelete)}
          onCancel={() => setToDelete(null)}
        >
          <p>
            The file {toDelete} is deleted from the server's database folder, with every benchmark and run it
            holds. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
