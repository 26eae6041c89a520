import { memo, useEffect, useState } from "react";
import type { ResultTableFacetsResponse } from "../library-types/index.js";
import type { MultiFilter, TableView, TextFilter } from "./table-view.js";

/**
 * Options shown per multi-select: a facet can have a value per row (replicates of a 100,000-row run), and
 * rendering that many options stalled the page for seconds on every render. The server sends them most
 * frequent first (at most 200 per facet), with the number of values it left out.
 */
export const MAX_OPTIONS = 200;

/** Debounce of the text filters (spec 07 §1.6). */
export const TEXT_DEBOUNCE_MS = 300;

const MULTI_LABELS: Record<MultiFilter, string> = {
  status: "Status",
  verification: "Verification",
  keyword: "Keywords",
  answering_model: "Answering model",
  parsing_model: "Parsing model",
  mcp_server: "MCP servers",
  rubric: "Rubric",
  granular: "Granular",
  run_name: "Run",
  replicate: "Replicate",
};

const TEXT_LABELS: Record<TextFilter, { label: string; type: string }> = {
  question: { label: "Question contains", type: "search" },
  raw_answer: { label: "Raw answer contains", type: "search" },
  time_min: { label: "Time from (s)", type: "number" },
  time_max: { label: "Time to (s)", type: "number" },
  from: { label: "Timestamp from", type: "date" },
  to: { label: "Timestamp to", type: "date" },
};

/** A text filter whose value reaches the view 300 ms after the last keystroke. */
function TextFilterInput({
  name,
  value,
  onChange,
}: {
  readonly name: TextFilter;
  readonly value: string;
  readonly onChange: (name: TextFilter, value: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onChange(name, draft), TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, name, onChange]);
  const id = `results-filter-${name}`;
  return (
    <div className="results-filter">
      <label htmlFor={id}>{TEXT_LABELS[name].label}</label>
      <input
        id={id}
        type={TEXT_LABELS[name].type}
        value={draft}
        min={TEXT_LABELS[name].type === "number" ? 0 : undefined}
        step={TEXT_LABELS[name].type === "number" ? "any" : undefined}
        onChange={(event) => setDraft(event.target.value)}
      />
    </div>
  );
}

export interface ResultsFiltersProps {
  readonly view: TableView;
  readonly facets: ResultTableFacetsResponse | null;
  readonly onChange: (view: TableView) => void;
}

/** The table's filters: texts (debounced), ranges and multi-selects whose options are the server's facets. */
export const ResultsFilters = memo(function ResultsFilters({ view, facets, onChange }: ResultsFiltersProps) {
  const setText = (name: TextFilter, value: string) =>
    onChange({ ...view, text: { ...view.text, [name]: value } });
  return (
    <fieldset className="results-filters">
      <legend>Filters</legend>
      {(Object.keys(TEXT_LABELS) as TextFilter[]).map((name) => (
        <TextFilterInput key={name} name={name} value={view.text[name] ?? ""} onChange={setText} />
      ))}
      {(Object.keys(MULTI_LABELS) as MultiFilter[]).map((name) => {
        const all = facets?.facets[name] ?? [];
        const options = all.slice(0, MAX_OPTIONS);
        const omitted = (facets?.omitted[name] ?? 0) + all.length - options.length;
        const selected = view.multi[name] ?? [];
        const id = `results-filter-${name}`;
        return (
          <div className="results-filter" key={name}>
            <label htmlFor={id}>{MULTI_LABELS[name]}</label>
            <select
              id={id}
              multiple
              size={Math.min(4, Math.max(2, options.length))}
              value={[...selected]}
              onChange={(event) =>
                onChange({
                  ...view,
                  multi: {
                    ...view.multi,
                    [name]: [...event.target.selectedOptions].map((option) => option.value),
                  },
                })
              }
            >
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {`${option.value === "single" && name === "replicate" ? "Single" : option.value} (${option.count})`}
                </option>
              ))}
            </select>
            {omitted > 0 ? (
              <small className="results-filter-omitted">{`+ ${omitted.toLocaleString("en-US")} rarer values not listed`}</small>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
});
