import { type ReactElement, useId, useState } from "react";
import type { Parsed } from "../form-state.js";

export interface ParsedInputProps {
  readonly label: string;
  readonly initialText: string;
  readonly parse: (text: string) => Parsed<unknown>;
  readonly onValue: (value: unknown) => void;
  readonly multiline?: boolean;
  readonly hint?: string;
  readonly inputMode?: "text" | "numeric" | "decimal";
}

/**
 * A text input whose text becomes a value (a number, a list, JSON): the text is the input's own, a value is
 * sent on each edit that reads, and an edit that does not read shows why instead.
 */
export function ParsedInput(props: ParsedInputProps): ReactElement {
  const id = useId();
  const [text, setText] = useState(props.initialText);
  const [error, setError] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const change = (next: string) => {
    setText(next);
    const parsed = props.parse(next);
    if (parsed.ok) {
      setError(null);
      setWarning(parsed.warning ?? null);
      props.onValue(parsed.value);
    } else {
      setError(parsed.error);
      setWarning(null);
    }
  };
  const describedBy = [
    props.hint ? `${id}-hint` : null,
    error ? `${id}-error` : null,
    warning ? `${id}-warning` : null,
  ]
    .filter(Boolean)
    .join(" ");
  const common = {
    id,
    value: text,
    "aria-invalid": error !== null,
    ...(describedBy === "" ? {} : { "aria-describedby": describedBy }),
  };
  return (
    <div className="te-input">
      <label htmlFor={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={3} onChange={(event) => change(event.target.value)} />
      ) : (
        <input
          {...common}
          inputMode={props.inputMode ?? "text"}
          onChange={(event) => change(event.target.value)}
        />
      )}
      {props.hint && (
        <small id={`${id}-hint`} className="te-muted">
          {props.hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} className="te-bad">
          {error}
        </small>
      )}
      {warning && (
        <small id={`${id}-warning`} className="te-warn">
          {warning}
        </small>
      )}
    </div>
  );
}
