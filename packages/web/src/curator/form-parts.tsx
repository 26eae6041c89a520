import { type ReactNode, useId } from "react";

/** A labelled text input with its error under it (linked by aria-describedby). */
export function TextField({
  label,
  value,
  onChange,
  error,
  multiline = false,
  type = "text",
  required = false,
  placeholder,
}: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly error?: string | undefined;
  readonly multiline?: boolean;
  readonly type?: "text" | "email" | "url";
  readonly required?: boolean;
  readonly placeholder?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value,
    "aria-invalid": error === undefined ? undefined : true,
    "aria-describedby": error === undefined ? undefined : errorId,
    "aria-required": required || undefined,
    placeholder,
  } as const;
  return (
    <div className="curator-field">
      <label htmlFor={id}>
        {label}
        {required ? " *" : ""}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(event) => onChange(event.target.value)} />
      )}
      {error === undefined ? null : (
        <p id={errorId} className="curator-field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Dialog footer buttons: Cancel, an optional alternative action, then the primary action. */
export function DialogButtons({
  onCancel,
  onConfirm,
  confirmLabel,
  busy = false,
  danger = false,
  alternative,
}: {
  readonly onCancel: () => void;
  readonly onConfirm: () => void;
  readonly confirmLabel: string;
  readonly busy?: boolean;
  readonly danger?: boolean;
  /** A second way out ("Run anyway", "Store under the other name"), shown between Cancel and the primary. */
  readonly alternative?: { readonly label: string; readonly onClick: () => void };
}): ReactNode {
  return (
    <>
      <button type="button" className="secondary-button" onClick={onCancel}>
        Cancel
      </button>
      {alternative === undefined ? null : (
        <button type="button" className="secondary-button" onClick={alternative.onClick}>
          {alternative.label}
        </button>
      )}
      <button
        type="button"
        className={danger ? "button danger-button" : "button"}
        disabled={busy}
        onClick={onConfirm}
      >
        {confirmLabel}
      </button>
    </>
  );
}

/** Comma-separated keywords as a list (blanks dropped, duplicates once). */
export function keywordsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((word) => word.trim())
        .filter((word) => word !== ""),
    ),
  ];
}

/** The message of any failure (an API error's message is written for people). */
export function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
