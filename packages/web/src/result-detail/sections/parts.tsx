import { type ReactNode, useId } from "react";

/** A titled part of the detail; its heading names the region. */
export function DetailSection({ title, children }: { readonly title: string; readonly children: ReactNode }) {
  const id = useId();
  return (
    <section className="detail-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** Label → value pairs; entries whose value is undefined are left out. */
export function Facts({
  entries,
}: {
  readonly entries: readonly (readonly [string, ReactNode | undefined])[];
}) {
  const shown = entries.filter(([, value]) => value !== undefined);
  if (shown.length === 0) return null;
  return (
    <dl className="detail-facts">
      {shown.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Text as the result holds it (whitespace kept). */
export function Verbatim({ text }: { readonly text: string }) {
  return <pre className="detail-text">{text}</pre>;
}

/** A value for people to read: strings as they are, the rest as JSON. */
export function formatValue(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, null, 2);
}

/** A JSON value, pretty-printed. */
export function JsonValue({ value }: { readonly value: unknown }) {
  const text = formatValue(value);
  return text.includes("\n") ? <pre className="detail-text">{text}</pre> : <code>{text}</code>;
}

/** "Yes" / "No" / "—" for a boolean that may be unknown. */
export function yesNo(value: boolean | null | undefined): string {
  return value === true ? "Yes" : value === false ? "No" : "—";
}

/** A pass/fail badge (text, not colour alone). */
export function Verdict({ passed }: { readonly passed: boolean | null | undefined }) {
  if (passed === null || passed === undefined) return <span className="badge">Not evaluated</span>;
  return <span className={passed ? "badge pass" : "badge fail"}>{passed ? "Passed" : "Failed"}</span>;
}

/** Whether a record-like value has any entry. */
export function hasEntries(
  value: Readonly<Record<string, unknown>> | null | undefined,
): value is Readonly<Record<string, unknown>> {
  return value !== null && value !== undefined && Object.keys(value).length > 0;
}
