/** The fields of a regex trait, its example patterns and the live test box (run on the server, never here). */
import { useId, useState } from "react";
import { useDebouncedRequest } from "../api/index.js";
import type { RegexTestResult, RegexTrait } from "../library-types/index.js";
import { CheckboxField, DirectionField, TextField } from "./controls.js";
import type { FieldErrors } from "./field-errors.js";
import { REGEX_TEST_DELAY_MS, testRegex } from "./server-checks.js";

const EXAMPLES: readonly (readonly [string, string])[] = [
  [String.raw`\[\d+\]`, "a numbered citation such as [3]"],
  [String.raw`\b\d{4}\b`, "a four-digit number (a year)"],
  [String.raw`(?i)\bI don't know\b`, "a refusal, ignoring case (inline flag)"],
  [String.raw`^\s*(yes|no)\b`, "an answer that starts with yes or no"],
  [String.raw`https?://\S+`, "a URL"],
];

export function RegexFields({
  trait,
  errors,
  onChange,
}: {
  readonly trait: RegexTrait;
  readonly errors: FieldErrors;
  readonly onChange: (next: RegexTrait) => void;
}) {
  return (
    <>
      <TextField
        label="Pattern (Python regex)"
        className="rubric-mono"
        value={trait.pattern}
        error={errors.pattern}
        onChange={(pattern) => onChange({ ...trait, pattern })}
      />
      <div className="rubric-row rubric-wrap">
        <CheckboxField
          label="Case Sensitive"
          checked={trait.case_sensitive}
          onChange={(case_sensitive) => onChange({ ...trait, case_sensitive })}
        />
        <CheckboxField
          label="Invert Result"
          checked={trait.invert_result}
          onChange={(invert_result) => onChange({ ...trait, invert_result })}
          hint="When on, the trait passes when the pattern does NOT match (e.g. the answer must not contain a phrase)."
        />
        <DirectionField
          value={trait.higher_is_better}
          onChange={(higher_is_better) => onChange({ ...trait, higher_is_better })}
        />
      </div>
      <details className="rubric-help">
        <summary>Example patterns</summary>
        <p>Patterns use Python `re` syntax and are searched anywhere in the answer (`re.search`).</p>
        <dl>
          {EXAMPLES.map(([pattern, meaning]) => (
            <div key={pattern}>
              <dt>
                <code>{pattern}</code>
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
      </details>
      <RegexTestBox trait={trait} />
    </>
  );
}

/** Sends the pattern and a sample text to `POST /api/v2/regex/test` (debounced) and shows what matched. */
function RegexTestBox({ trait }: { readonly trait: RegexTrait }) {
  const id = useId();
  const [text, setText] = useState("");
  const request = { pattern: trait.pattern, text, case_sensitive: trait.case_sensitive };
  const state = useDebouncedRequest<RegexTestResult>(
    text === "" || trait.pattern === "" ? null : JSON.stringify(request),
    (signal) => testRegex(request, signal),
    REGEX_TEST_DELAY_MS,
  );
  return (
    <div className="rubric-regex-test">
      <label htmlFor={id}>Test the pattern on a sample text</label>
      <textarea id={id} rows={3} value={text} onChange={(event) => setText(event.target.value)} />
      <div className="rubric-regex-outcome" aria-live="polite" aria-busy={state.status === "pending"}>
        <RegexOutcome state={state} invert={trait.invert_result} />
      </div>
    </div>
  );
}

function RegexOutcome({
  state,
  invert,
}: {
  readonly state: ReturnType<typeof useDebouncedRequest<RegexTestResult>>;
  readonly invert: boolean;
}) {
  if (state.status === "idle") return <p className="rubric-hint">Type a pattern and a sample text.</p>;
  if (state.status === "failed") return <p className="rubric-field-error">Could not test: {state.message}</p>;
  if (state.value === undefined) return <p className="rubric-hint">Testing…</p>;
  const { matched, matches, error } = state.value;
  if (error !== null) return <p className="rubric-field-error">Pattern error: {error}</p>;
  const result = invert ? !matched : matched;
  return (
    <>
      <p>
        <strong>{matched ? "Matched" : "No match"}</strong>
        {matched ? ` — ${matches.length} match${matches.length === 1 ? "" : "es"}` : ""}; trait result:{" "}
        <strong>{String(result)}</strong>
        {invert ? " (inverted)" : ""}
      </p>
      {matches.length > 0 ? (
        <ol className="rubric-matches">
          {matches.slice(0, 20).map((match) => (
            <li key={`${match.start}-${match.end}`}>
              <code>{match.text === "" ? "(empty)" : match.text}</code> at {match.start}–{match.end}
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}
