import { type FormEvent, useCallback, useEffect, useState } from "react";
import { accessToken, apiFetch } from "../api/index.js";
import { ConfirmDialog } from "../database/index.js";
import { useAnnounce } from "../status/index.js";
import { useToast } from "../toast/index.js";
import { envKeyProblem, envValueProblem } from "./validation.js";

type Variables = Record<string, string>;

/** The Environment / API keys tab: `.env` variables masked, shown on demand (token route), added, removed. */
export function EnvPanel() {
  const toast = useToast();
  const announce = useAnnounce();
  const [masked, setMasked] = useState<Variables>({});
  const [unmasked, setUnmasked] = useState<Variables | null>(null);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const [toRemove, setToRemove] = useState<string | null>(null);
  const [raw, setRaw] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setMasked(await apiFetch<Variables>("/api/v2/config/env-vars"));
      setUnmasked(null);
    } catch (error) {
      toast({ tone: "error", message: `Could not read .env: ${(error as Error).message}` });
    }
  }, [toast]);
  useEffect(() => void reload(), [reload]);

  const show = async () => {
    if (accessToken() === undefined) {
      toast({
        tone: "error",
        message: "Showing keys needs the access token: open the address karenina serve printed.",
      });
      return;
    }
    try {
      setUnmasked(await apiFetch<Variables>("/api/v2/config/env-vars/unmasked"));
    } catch (error) {
      toast({ tone: "error", message: `Could not show the keys: ${(error as Error).message}` });
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const found = envKeyProblem(key, Object.keys(masked)) ?? envValueProblem(value);
    setProblem(found);
    if (found !== undefined) return;
    try {
      const answer = await apiFetch<{ message: string }>("/api/v2/config/env-vars", {
        method: "PUT",
        body: { key, value },
      });
      announce(answer.message);
      toast({ tone: "info", message: answer.message });
      setKey("");
      setValue("");
      await reload();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const remove = async (name: string) => {
    setToRemove(null);
    try {
      const answer = await apiFetch<{ message: string }>(
        `/api/v2/config/env-vars/${encodeURIComponent(name)}`,
        {
          method: "DELETE",
        },
      );
      announce(answer.message);
      await reload();
    } catch (error) {
      toast({ tone: "error", message: `Could not remove ${name}: ${(error as Error).message}` });
    }
  };

  const editRaw = async () => {
    try {
      setRaw((await apiFetch<{ content: string }>("/api/v2/config/env-file")).content);
    } catch (error) {
      toast({ tone: "error", message: `Could not read .env: ${(error as Error).message}` });
    }
  };
  const saveRaw = async () => {
    if (raw === null) return;
    try {
      const answer = await apiFetch<{ message: string }>("/api/v2/config/env-file", {
        method: "PUT",
        body: { content: raw },
      });
      announce(answer.message);
      setRaw(null);
      await reload();
    } catch (error) {
      toast({ tone: "error", message: `Could not write .env: ${(error as Error).message}` });
    }
  };

  const shown = unmasked ?? masked;
  const names = Object.keys(masked).sort();
  return (
    <div className="config-form">
      <p className="db-muted">The .env of the served folder. Changes reach the server at its next start.</p>
      {names.length === 0 ? (
        <p>No variable is set.</p>
      ) : (
        <table className="runs-table" aria-label="Environment variables">
          <tbody>
            {names.map((name) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  <code data-testid={`env-${name}`}>{shown[name]}</code>
                </td>
                <td>
                  <button
                    aria-label={`Remove ${name}`}
                    type="button"
                    className="secondary-button"
                    onClick={() => setToRemove(name)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="db-actions">
        {unmasked === null ? (
          <button type="button" className="secondary-button" onClick={() => void show()}>
            Show values
          </button>
        ) : (
          <button type="button" className="secondary-button" onClick={() => setUnmasked(null)}>
            Hide values
          </button>
        )}
        <button type="button" className="secondary-button" onClick={() => void editRaw()}>
          Edit raw file
        </button>
      </div>
      <form className="db-form" onSubmit={(event) => void add(event)} noValidate>
        <label htmlFor="env-key">Name</label>
        <input
          id="env-key"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? undefined : "env-problem"}
          placeholder="OPENAI_API_KEY"
        />
        <label htmlFor="env-value">Value</label>
        <input
          id="env-value"
          type="password"
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <button type="submit" className="button">
          Add variable
        </button>
        {problem === undefined ? null : (
          <p id="env-problem" className="field-problem" role="alert">
            {problem}
          </p>
        )}
      </form>
      {raw === null ? null : (
        <div className="config-field">
          <label htmlFor="env-raw">.env text</label>
          <textarea id="env-raw" rows={8} value={raw} onChange={(event) => setRaw(event.target.value)} />
          <div className="db-actions">
            <button type="button" className="button" onClick={() => void saveRaw()}>
              Save file
            </button>
            <button type="button" className="secondary-button" onClick={() => setRaw(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {toRemove === null ? null : (
        <ConfirmDialog
          title={`Remove ${toRemove}?`}
          confirmLabel="Remove variable"
          onConfirm={() => void remove(toRemove)}
          onCancel={() => setToRemove(null)}
        >
          <p>{toRemove} is removed from .env (the previous file is kept as .env.bak).</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
