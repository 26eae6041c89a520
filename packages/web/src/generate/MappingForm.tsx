import { useId, useState } from "react";
import { keywordsOfRow, type MappingDraft, sampleValues } from "./generate-state.js";

type Row = Readonly<Record<string, string>>;

export interface MappingFormProps {
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
  readonly mapping: MappingDraft;
  readonly onChange: (next: MappingDraft) => void;
}

type SingleField = "authorName" | "authorEmail" | "authorAffiliation" | "url" | "answerNotes";

const OPTIONAL_FIELDS: readonly { readonly field: SingleField; readonly label: string }[] = [
  { field: "authorName", label: "Author name column" },
  { field: "authorEmail", label: "Author email column" },
  { field: "authorAffiliation", label: "Author affiliation column" },
  { field: "url", label: "URL column" },
  { field: "answerNotes", label: "Answer notes column" },
];

function Samples({ rows, column }: { readonly rows: readonly Row[]; readonly column: string }) {
  if (column === "") return null;
  const values = sampleValues(rows, column);
  return (
    <span className="generate-samples">
      {values.length === 0
        ? "No values in the preview"
        : `e.g. ${values.map((value) => `“${value}”`).join(", ")}`}
    </span>
  );
}

function ColumnSelect({
  label,
  value,
  columns,
  rows,
  required,
  onChange,
}: {
  readonly label: string;
  readonly value: string;
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
  readonly required: boolean;
  readonly onChange: (column: string) => void;
}) {
  return (
    <div className="generate-field">
      <label>
        {label}
        {required && " (required)"}
        <select value={value} required={required} onChange={(event) => onChange(event.target.value)}>
          <option value="">{required ? "Select column…" : "None (skip)"}</option>
          {columns.map((column) => (
            <option key={column} value={column}>
              {column}
            </option>
          ))}
        </select>
      </label>
      <Samples rows={rows} column={value} />
    </div>
  );
}

/** The column mapping: the two required columns, then the Advanced panel (spec 07 §1.1 step 3). */
export function MappingForm({ columns, rows, mapping, onChange }: MappingFormProps) {
  const [advanced, setAdvanced] = useState(false);
  const panelId = useId();
  const requiredSet = mapping.question !== "" && mapping.answer !== "";
  const keywordColumns = mapping.keywords.filter((keyword) => keyword.column !== "");
  const setKeyword = (index: number, next: { column?: string; separator?: string }) =>
    onChange({
      ...mapping,
      keywords: mapping.keywords.map((keyword, at) => (at === index ? { ...keyword, ...next } : keyword)),
    });
  return (
    <fieldset className="generate-mapping">
      <legend>Column mapping</legend>
      <div className="generate-grid">
        <ColumnSelect
          label="Question column"
          value={mapping.question}
          columns={columns}
          rows={rows}
          required
          onChange={(question) => onChange({ ...mapping, question })}
        />
        <ColumnSelect
          label="Answer column"
          value={mapping.answer}
          columns={columns}
          rows={rows}
          required
          onChange={(answer) => onChange({ ...mapping, answer })}
        />
      </div>
      <button
        type="button"
        className="secondary-button"
        aria-expanded={advanced && requiredSet}
        aria-controls={panelId}
        disabled={!requiredSet}
        onClick={() => setAdvanced((open) => !open)}
      >
        {advanced && requiredSet ? "Hide Advanced" : "Advanced"}
      </button>
      {advanced && requiredSet && (
        <div id={panelId} className="generate-advanced">
          <div className="generate-grid">
            {OPTIONAL_FIELDS.map(({ field, label }) => (
              <ColumnSelect
                key={field}
                label={label}
                value={mapping[field]}
                columns={columns}
                rows={rows}
                required={false}
                onChange={(column) => onChange({ ...mapping, [field]: column })}
              />
            ))}
          </div>
          <h3>Keyword columns</h3>
          {mapping.keywords.map((keyword, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: keyword rows are positional (two may name one column).
            <div key={index} className="generate-keyword-row">
              <ColumnSelect
                label={`Keyword column ${index + 1}`}
                value={keyword.column}
                columns={columns}
                rows={rows}
                required={false}
                onChange={(column) => setKeyword(index, { column })}
              />
              <label className="generate-field">
                Separator {index + 1}
                <input
                  className="generate-separator"
                  value={keyword.separator}
                  onChange={(event) => setKeyword(index, { separator: event.target.value })}
                />
              </label>
              {mapping.keywords.length > 1 && (
                <button
                  type="button"
                  className="secondary-button"
                  aria-label={`Remove keyword column ${index + 1}`}
                  onClick={() =>
                    onChange({ ...mapping, keywords: mapping.keywords.filter((_, at) => at !== index) })
                  }
                >
                  Remove
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            className="secondary-button"
            onClick={() =>
              onChange({ ...mapping, keywords: [...mapping.keywords, { column: "", separator: "," }] })
            }
          >
            Add Keyword Column
          </button>
          {keywordColumns.length > 0 && (
            <div className="generate-keyword-preview">
              <h4>Keyword preview</h4>
              <ul>
                {rows.slice(0, 5).map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no id and never move.
                  <li key={index}>
                    Row {index + 1}: {keywordsOfRow(row, keywordColumns).join(", ") || "(none)"}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      )}
    </fieldset>
  );
}
