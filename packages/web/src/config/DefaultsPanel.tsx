import { type FormEvent, useEffect, useRef, useState } from "react";
import { apiFetch } from "../api/index.js";
import type { ApiModelDefaults, ModelInterfaces } from "../library-types/index.js";
import { useToast } from "../toast/index.js";
import { defaultsProblems } from "./validation.js";

/** How long "Saved" stays shown after a save. */
export const SAVED_MESSAGE_MS = 3000;

type Field = keyof ApiModelDefaults;

const TEXT_FIELDS: readonly { field: Field; label: string; anthropic?: boolean }[] = [
  { field: "default_provider", label: "Provider" },
  { field: "default_model", label: "Model" },
  { field: "default_endpoint_base_url", label: "Endpoint base URL (openai_endpoint)" },
  { field: "default_anthropic_base_url", label: "Anthropic base URL", anthropic: true },
  { field: "default_anthropic_opus_model", label: "Anthropic Opus model", anthropic: true },
  { field: "default_anthropic_sonnet_model", label: "Anthropic Sonnet model", anthropic: true },
  { field: "default_anthropic_haiku_model", label: "Anthropic Haiku model", anthropic: true },
];

/** The Defaults tab: the default model settings of `defaults.json`, saved and reset through the server. */
export function DefaultsPanel() {
  const toast = useToast();
  const [defaults, setDefaults] = useState<ApiModelDefaults | null>(null);
  const [interfaces, setInterfaces] = useState<readonly string[]>([]);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const load = async () => {
    try {
      const [current, registry] = await Promise.all([
        apiFetch<ApiModelDefaults>("/api/v2/config/defaults"),
        apiFetch<ModelInterfaces>("/api/v2/interfaces"),
      ]);
      setDefaults(current);
      setInterfaces(registry.interfaces.map((i) => i.name));
    } catch (error) {
      toast({ tone: "error", message: `Could not read the defaults: ${(error as Error).message}` });
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once when the tab opens
  useEffect(() => void load(), []);

  const flash = (message: string) => {
    setStatus(message);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus(""), SAVED_MESSAGE_MS);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (defaults === null) return;
    const found = defaultsProblems(defaults);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      const saved = await apiFetch<{ config: ApiModelDefaults }>("/api/v2/config/defaults", {
        method: "PUT",
        body: defaults,
      });
      setDefaults(saved.config);
      flash("Defaults saved");
    } catch (error) {
      toast({ tone: "error", message: `Could not save the defaults: ${(error as Error).message}` });
    }
  };

  const reset = async () => {
    try {
      await apiFetch("/api/v2/config/defaults/reset", { method: "POST" });
      await load();
      setProblems({});
      flash("Defaults reset to the fallback");
    } catch (error) {
      toast({ tone: "error", message: `Could not reset the defaults: ${(error as Error).message}` });
    }
  };

  if (defaults === null) return <p>Loading…</p>;
  const set = (field: Field, value: string) => setDefaults({ ...defaults, [field]: value });
  const choices = interfaces.includes(defaults.default_interface)
    ? interfaces
    : [defaults.default_interface, ...interfaces];
  return (
    <form className="config-form" onSubmit={(event) => void save(event)} noValidate>
      <label htmlFor="default-interface">Interface</label>
      <select
        id="default-interface"
        value={defaults.default_interface}
        onChange={(event) => set("default_interface", event.target.value)}
      >
        {choices.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {TEXT_FIELDS.map(({ field, label }) => (
        <div key={field} className="config-field">
          <label htmlFor={`defaults-${field}`}>{label}</label>
          <input
            id={`defaults-${field}`}
            value={defaults[field] ?? ""}
            aria-invalid={problems[field] !== undefined}
            aria-describedby={problems[field] === undefined ? undefined : `defaults-${field}-problem`}
            onChange={(event) => set(field, event.target.value)}
          />
          {problems[field] === undefined ? null : (
            <p id={`defaults-${field}-problem`} className="field-problem">
              {problems[field]}
            </p>
          )}
        </div>
      ))}
      <div className="db-actions">
        <button type="submit" className="button">
          Save defaults
        </button>
        <button type="button" className="secondary-button" onClick={() => void reset()}>
          Reset
        </button>
        <span role="status" aria-live="polite" className="save-status">
          {status}
        </span>
      </div>
    </form>
  );
}
