import { type KeyboardEvent, useCallback, useEffect, useState } from "react";
import { apiFetch } from "../api/index.js";
import { ConfirmDialog } from "../database/index.js";
import { Dialog } from "../dialog/index.js";
import type {
  PresetListItem,
  StoredVerificationPreset,
  VerificationConfigInput,
} from "../library-types/index.js";

export interface PresetsDialogProps {
  /** The current settings as a config (null when they cannot make one; saving is then off). */
  readonly currentConfig: () => VerificationConfigInput | null;
  readonly onApply: (config: VerificationConfigInput) => void;
  readonly onClose: () => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function InlineEdit(props: { label: string; value: string; onSave: (value: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(props.value);
  if (!editing)
    return (
      <button
        type="button"
        className="link-button"
        onClick={() => {
          setText(props.value);
          setEditing(true);
        }}
      >
        {props.value === "" ? `Add ${props.label.toLowerCase()}` : props.value}
        <span className="visually-hidden"> (edit {props.label.toLowerCase()})</span>
      </button>
    );
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      setEditing(false);
      if (text !== props.value) props.onSave(text);
    } else if (event.key === "Escape") {
      event.stopPropagation();
      setEditing(false);
    }
  };
  return (
    <input
      aria-label={props.label}
      // biome-ignore lint/a11y/noAutofocus: the field appears because the person asked to edit it
      autoFocus
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => setEditing(false)}
    />
  );
}

/** Manage Presets (spec 07 §1.5): list, apply, rename, describe, delete, save the current configuration. */
export function PresetsDialog({ currentConfig, onApply, onClose }: PresetsDialogProps) {
  const [presets, setPresets] = useState<readonly PresetListItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [deleting, setDeleting] = useState<PresetListItem | null>(null);
  const reload = useCallback(() => {
    apiFetch<{ items: PresetListItem[] }>("/api/v2/presets?page_size=100")
      .then((page) => setPresets([...page.items].sort((a, b) => a.name.localeCompare(b.name))))
      .catch((error: unknown) => setProblem(messageOf(error)));
  }, []);
  useEffect(reload, [reload]);
  const act = async (action: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await action();
      reload();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  const apply = (id: string) =>
    act(async () => {
      const preset = await apiFetch<StoredVerificationPreset>(`/api/v2/presets/${encodeURIComponent(id)}`);
      onApply(preset.config as VerificationConfigInput);
      onClose();
    });
  const save = () =>
    act(async () => {
      const config = currentConfig();
      if (config === null)
        throw new Error("The current settings cannot make a configuration; fix them first.");
      await apiFetch("/api/v2/presets", {
        body: { name: name.trim(), ...(description.trim() === "" ? {} : { description }), config },
      });
      setName("");
      setDescription("");
    });
  const patch = (id: string, body: Record<string, string>) =>
    act(() => apiFetch(`/api/v2/presets/${encodeURIComponent(id)}`, { method: "PUT", body }));
  return (
    <Dialog title="Manage Presets" onClose={onClose}>
      {problem !== null && (
        <p className="error-box" role="alert">
          {problem}
        </p>
      )}
      {presets.length === 0 ? (
        <p className="muted-text">No presets saved yet.</p>
      ) : (
        <ul className="preset-list">
          {presets.map((preset) => (
            <li key={preset.id} className="preset-item">
              <InlineEdit
                label="Name"
                value={preset.name}
                onSave={(value) => void patch(preset.id, { name: value })}
              />
              <InlineEdit
                label="Description"
                value={preset.description ?? ""}
                onSave={(value) => void patch(preset.id, { description: value })}
              />
              <span className="muted-text">
                {preset.summary.answering_model_count} answering · {preset.summary.parsing_model_count}{" "}
                parsing · {preset.summary.replicate_count} replicates
                {preset.summary.enabled_features.map((feature) => (
                  <span key={feature} className="chip">
                    {feature}
                  </span>
                ))}
              </span>
              <span className="muted-text">Updated {new Date(preset.updated_at).toLocaleString()}</span>
              <div className="card-actions">
                <button type="button" className="button" onClick={() => void apply(preset.id)}>
                  Apply {preset.name}
                </button>
                <button type="button" className="secondary-button" onClick={() => setDeleting(preset)}>
                  Delete {preset.name}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {deleting !== null && (
        <ConfirmDialog
          title="Delete preset"
          confirmLabel="Delete"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const { id } = deleting;
            setDeleting(null);
            void act(() => apiFetch(`/api/v2/presets/${encodeURIComponent(id)}`, { method: "DELETE" }));
          }}
        >
          <p>Delete the preset “{deleting.name}”? This cannot be undone.</p>
        </ConfirmDialog>
      )}
      <fieldset className="preset-save">
        <legend>Save current configuration</legend>
        <label className="field">
          Preset name
          <input maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className="field">
          Preset description
          <textarea
            maxLength={500}
            rows={2}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
          />
        </label>
        <button type="button" className="button" disabled={name.trim() === ""} onClick={() => void save()}>
          Save Preset
        </button>
      </fieldset>
    </Dialog>
  );
}
