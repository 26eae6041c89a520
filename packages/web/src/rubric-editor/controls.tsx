/** Labelled form controls of the trait cards, each with its error tied to it (`aria-describedby`). */
import { type ReactNode, useId } from "react";

export function FieldError({ id, message }: { readonly id: string; readonly message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p id={id} className="rubric-field-error">
      {message}
    </p>
  );
}

interface TextFieldProps {
  readonly label: string;
  readonly value: string;
  readonly onChange: (next: string) => void;
  readonly error?: string | undefined;
  readonly multiline?: boolean;
  readonly className?: string;
  readonly placeholder?: string;
}

export function TextField({
  label,
  value,
  onChange,
  error,
  multiline,
  className,
  placeholder,
}: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const shared = {
    id,
    value,
    placeholder,
    "aria-invalid": error !== undefined,
    "aria-describedby": error === undefined ? undefined : errorId,
  };
  return (
    <div className={`rubric-field ${className ?? ""}`}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...shared} rows={2} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          {...shared}
          type="text"
          spellCheck={false}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface NumberFieldProps {
  readonly label: string;
  readonly value: number | null;
  /** null when the box is emptied. */
  readonly onChange: (next: number | null) => void;
  readonly error?: string | undefined;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly placeholder?: string;
}

export function NumberField({
  label,
  value,
  onChange,
  error,
  min,
  max,
  step,
  placeholder,
}: NumberFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="rubric-field rubric-field-number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        value={value ?? ""}
        min={min}
        max={max}
        step={step}
        placeholder={placeholder}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : errorId}
        onChange={(event) => onChange(event.target.value === "" ? null : Number(event.target.value))}
      />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface CheckboxFieldProps {
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (next: boolean) => void;
  readonly hint?: ReactNode;
}

export function CheckboxField({ label, checked, onChange, hint }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="rubric-field rubric-field-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {hint === undefined ? null : (
        <p id={`${id}-hint`} className="rubric-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** `higher_is_better`: higher / lower is better, or "not applicable" when the trait holds null. */
export function DirectionField({
  value,
  onChange,
}: {
  readonly value: boolean | null;
  readonly onChange: (next: boolean | null) => void;
}) {
  const id = useId();
  const current = value === null ? "none" : value ? "higher" : "lower";
  return (
    <div className="rubric-field">
      <label htmlFor={id}>Score Direction</label>
      <select
        id={id}
        value={current}
        onChange={(event) => onChange(event.target.value === "none" ? null : event.target.value === "higher")}
      >
        <option value="higher">Higher is better</option>
        <option value="lower">Lower is better</option>
        {value === null ? <option value="none">Not applicable</option> : null}
      </select>
    </div>
  );
}

/** An editable list of one-line texts (TP/TN instructions). */
export function TextListField({
  legend,
  itemLabel,
  items,
  onChange,
  error,
}: {
  readonly legend: string;
  readonly itemLabel: string;
  readonly items: readonly string[];
  readonly onChange: (next: string[]) => void;
  readonly error?: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset className="rubric-list" aria-describedby={error === undefined ? undefined : `${id}-error`}>
      <legend>{legend}</legend>
      {items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in a list of plain strings.
        <div className="rubric-list-row" key={index}>
          <input
            type="text"
            aria-label={`${itemLabel} ${index + 1}`}
            value={item}
            onChange={(event) => onChange(items.map((old, i) => (i === index ? event.target.value : old)))}
          />
          <button
            type="button"
            aria-label={`Remove ${itemLabel} ${index + 1}`}
            onClick={() => onChange(items.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange([...items, ""])}>
        Add {itemLabel}
      </button>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
