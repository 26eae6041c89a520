import { useId } from "react";
import { TextField } from "./form-parts.js";

/**
 * Custom properties as the dialogs edit them: one `key: value` per line. With `json` off every value is text
 * (the original's behaviour); with it on every value is JSON (`3`, `true`, `{"a": 1}`, `"text"`).
 */
export interface CustomPropertiesDraft {
  readonly text: string;
  readonly json: boolean;
}

type Parsed = { readonly values: Record<string, unknown> } | { readonly problem: string };

function linesOf(text: string): [key: string, value: string, line: number][] {
  return text.split("\n").flatMap((line, index) => {
    const at = line.indexOf(":");
    const key = at <= 0 ? "" : line.slice(0, at).trim();
    return key === "" ? [] : [[key, line.slice(at + 1).trim(), index + 1] as [string, string, number]];
  });
}

/** The draft of stored properties: JSON mode when any value is not a string, so saving keeps every type. */
export function customDraftOf(values: Readonly<Record<string, unknown>> | null): CustomPropertiesDraft {
  const entries = Object.entries(values ?? {});
  const json = entries.some(([, value]) => typeof value !== "string");
  return {
    json,
    text: entries.map(([key, value]) => `${key}: ${json ? JSON.stringify(value) : value}`).join("\n"),
  };
}

/** The properties a draft holds (lines without a key are skipped), or what is wrong with a JSON value. */
export function parseCustomProperties({ text, json }: CustomPropertiesDraft): Parsed {
  const values: Record<string, unknown> = {};
  for (const [key, value, line] of linesOf(text)) {
    if (!json) {
      values[key] = value;
      continue;
    }
    try {
      values[key] = JSON.parse(value);
    } catch {
      return {
        problem: `Line ${line} ("${key}"): ${value === "" ? "no value" : `${value} is not JSON`}. Write text in double quotes, or turn off "Values are JSON".`,
      };
    }
  }
  return { values };
}

/** The draft with JSON mode switched: the text is rewritten to mean the same values when it can be read. */
export function withJsonMode(draft: CustomPropertiesDraft, json: boolean): CustomPropertiesDraft {
  const parsed = parseCustomProperties(draft);
  if (json === draft.json || "problem" in parsed) return { ...draft, json };
  const text = Object.entries(parsed.values)
    .map(([key, value]) => `${key}: ${json || typeof value !== "string" ? JSON.stringify(value) : value}`)
    .join("\n");
  return { text, json };
}

/** The custom-properties box with its "Values are JSON" switch. */
export function CustomPropertiesField({
  draft,
  onChange,
  error,
}: {
  readonly draft: CustomPropertiesDraft;
  readonly onChange: (next: CustomPropertiesDraft) => void;
  readonly error?: string | undefined;
}) {
  const hintId = useId();
  return (
    <div className="curator-custom">
      <TextField
        label="Custom properties (one per line, key: value)"
        multiline
        value={draft.text}
        onChange={(text) => onChange({ ...draft, text })}
        error={error}
      />
      <label className="curator-check">
        <input
          type="checkbox"
          checked={draft.json}
          aria-describedby={hintId}
          onChange={(event) => onChange(withJsonMode(draft, event.target.checked))}
        />{" "}
        Values are JSON
      </label>
      <p id={hintId} className="curator-note">
        {draft.json
          ? 'Each value is JSON: 3, true, null, ["a", "b"], {"level": 2}, or "text" in double quotes.'
          : "Each value is stored as text. Turn on “Values are JSON” for numbers, true/false, lists or objects."}
      </p>
    </div>
  );
}
