import { useState } from "react";
import { Dialog } from "../dialog/index.js";
import { conflictingExtraKeys } from "./build-config.js";
import type { CommonArguments, ModelCard } from "./run-settings.js";

export interface ExtraArgumentsDialogProps {
  readonly card: ModelCard;
  readonly onSave: (patch: Pick<ModelCard, "common" | "extraJson">) => void;
  readonly onClose: () => void;
}

type NumberKey = "max_tokens" | "top_p" | "frequency_penalty" | "presence_penalty";

const NUMBER_FIELDS: readonly { key: NumberKey; label: string; min: number; max?: number; step: number }[] = [
  { key: "max_tokens", label: "Max Tokens", min: 1, step: 1 },
  { key: "top_p", label: "Top P", min: 0, max: 1, step: 0.01 },
  { key: "frequency_penalty", label: "Frequency Penalty", min: -2, max: 2, step: 0.1 },
  { key: "presence_penalty", label: "Presence Penalty", min: -2, max: 2, step: 0.1 },
];

/** The problems of the Common tab's values (empty when they are fine). */
export function commonArgumentProblems(common: CommonArguments): string[] {
  const problems: string[] = [];
  for (const field of NUMBER_FIELDS) {
    const value = common[field.key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < field.min || (field.max !== undefined && value > field.max))
      problems.push(
        `${field.label} must be ${field.max === undefined ? `at least ${field.min}` : `between ${field.min} and ${field.max}`}.`,
      );
  }
  return problems;
}

/** The JSON tab's text as an object, or the reason it is not one. */
export function parseExtraJson(text: string): { value: Record<string, unknown> } | { problem: string } {
  if (text.trim() === "") return { value: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return { problem: "The JSON must be an object ({...})." };
    return { value: parsed as Record<string, unknown> };
  } catch (error) {
    return { problem: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** "Extra Arguments" (spec 07 §1.5): Common sampling settings and a free JSON object, stored as `extra_kwargs`. */
export function ExtraArgumentsDialog({ card, onSave, onClose }: ExtraArgumentsDialogProps) {
  const [tab, setTab] = useState<"common" | "json">("common");
  const [common, setCommon] = useState<CommonArguments>(card.common);
  const [jsonText, setJsonText] = useState(
    Object.keys(card.extraJson).length === 0 ? "" : JSON.stringify(card.extraJson, null, 2),
  );
  const json = parseExtraJson(jsonText);
  const problems = [...commonArgumentProblems(common), ...("problem" in json ? [json.problem] : [])];
  const conflicts = "value" in json ? conflictingExtraKeys(common, json.value) : [];
  const setNumber = (key: NumberKey, text: string) => {
    const { [key]: _old, ...rest } = common;
    setCommon(text === "" ? rest : { ...rest, [key]: Number(text) });
  };
  const save = () => {
    if (problems.length > 0 || !("value" in json)) return;
    onSave({ common, extraJson: json.value });
    onClose();
  };
  return (
    <Dialog
      title="Extra Arguments"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="secondary-button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" disabled={problems.length > 0} onClick={save}>
            Save
          </button>
        </>
      }
    >
      <div role="tablist" aria-label="Extra argument kinds" className="dialog-tabs">
        {(["common", "json"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className="dialog-tab"
            onClick={() => setTab(name)}
          >
            {name === "common" ? "Common" : "JSON"}
          </button>
        ))}
      </div>
      {tab === "common" ? (
        <div role="tabpanel" aria-label="Common" className="form-grid">
          {NUMBER_FIELDS.map((field) => (
            <label key={field.key} className="field">
              {field.label}
              <input
                type="number"
                min={field.min}
                max={field.max}
                step={field.step}
                value={common[field.key] ?? ""}
                onChange={(event) => setNumber(field.key, event.target.value)}
              />
            </label>
          ))}
          <label className="field">
            Stop sequences (one a line)
            <textarea
              rows={3}
              value={(common.stop ?? []).join("\n")}
              onChange={(event) => {
                const { stop: _old, ...rest } = common;
                const stop = event.target.value.split("\n").filter((line) => line !== "");
                setCommon(stop.length === 0 ? rest : { ...rest, stop });
              }}
            />
          </label>
        </div>
      ) : (
        <div role="tabpanel" aria-label="JSON">
          <label className="field">
            Extra arguments as a JSON object
            <textarea rows={8} value={jsonText} onChange={(event) => setJsonText(event.target.value)} />
          </label>
        </div>
      )}
      {conflicts.length > 0 && (
        <p className="warning-text">Set in both tabs (the JSON value wins): {conflicts.join(", ")}</p>
      )}
      {problems.map((problem) => (
        <p key={problem} className="error-text" role="alert">
          {problem}
        </p>
      ))}
    </Dialog>
  );
}
