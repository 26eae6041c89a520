import { useState } from "react";
import { newPattern, TRACE_COLOURS, type TraceColour, type TracePattern } from "./highlight-patterns.js";
import { compileUserRegex, MAX_PATTERN_LENGTH } from "./safe-regex.js";
import { TraceViewer } from "./TraceViewer.js";
import { useTraceHighlighting } from "./use-trace-highlighting.js";
import "./trace-viewer.css";

export const SAMPLE_TRACE = `I will look up the target first.
--- AI Message ---
Let me search PubMed for venetoclax.
--- Tool Message (call_id: call_1) ---
Venetoclax is a selective BCL2 inhibitor.
--- AI Message ---
The target of venetoclax is BCL2.`;

/**
 * The "Trace Highlighting" settings (spec 07 §1.8): a master switch, pattern rows (name, regex, colour,
 * enabled) that can be added and removed, and a live preview on editable sample text. Changes are stored at
 * once in `localStorage["karenina-trace-highlighting"]` and reach every open trace viewer.
 */
export function TraceHighlightSettings() {
  const [settings, setSettings] = useTraceHighlighting();
  const [sample, setSample] = useState(SAMPLE_TRACE);
  const setPatterns = (patterns: readonly TracePattern[]) => setSettings({ ...settings, patterns });
  const update = (id: string, change: Partial<TracePattern>) =>
    setPatterns(settings.patterns.map((p) => (p.id === id ? { ...p, ...change } : p)));

  return (
    <div className="trace-settings">
      <label>
        <input
          type="checkbox"
          checked={settings.enabled}
          onChange={(event) => setSettings({ ...settings, enabled: event.target.checked })}
        />{" "}
        Highlight messages in traces
      </label>
      <p>
        Lines of a trace matching a pattern start a new message, shown in its colour. Patterns are JavaScript
        regular expressions, at most {MAX_PATTERN_LENGTH} characters, tried on lines of at most 300
        characters.
      </p>
      <table>
        <caption className="visually-hidden">Highlight patterns</caption>
        <thead>
          <tr>
            <th scope="col">Enabled</th>
            <th scope="col">Name</th>
            <th scope="col">Regex</th>
            <th scope="col">Colour</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {settings.patterns.map((pattern) => {
            const error = pattern.regex === "" ? undefined : compileUserRegex(pattern.regex, "").error;
            return (
              <tr key={pattern.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Enable ${pattern.name}`}
                    checked={pattern.enabled}
                    onChange={(event) => update(pattern.id, { enabled: event.target.checked })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Name of ${pattern.name}`}
                    value={pattern.name}
                    onChange={(event) => update(pattern.id, { name: event.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Regex of ${pattern.name}`}
                    value={pattern.regex}
                    maxLength={MAX_PATTERN_LENGTH}
                    aria-invalid={error !== undefined}
                    onChange={(event) => update(pattern.id, { regex: event.target.value })}
                  />
                  {error === undefined ? null : <span className="trace-error">{error}</span>}
                </td>
                <td>
                  <select
                    aria-label={`Colour of ${pattern.name}`}
                    value={pattern.colour}
                    className={`trace-colour-${pattern.colour}`}
                    onChange={(event) => update(pattern.id, { colour: event.target.value as TraceColour })}
                  >
                    {TRACE_COLOURS.map((colour) => (
                      <option key={colour} value={colour}>
                        {colour}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    onClick={() => setPatterns(settings.patterns.filter((p) => p.id !== pattern.id))}
                  >
                    Remove <span className="visually-hidden">{pattern.name}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div>
        <button
          type="button"
          onClick={() => setPatterns([...settings.patterns, newPattern(settings.patterns)])}
        >
          Add pattern
        </button>
      </div>
      <label>
        Sample text
        <textarea value={sample} onChange={(event) => setSample(event.target.value)} />
      </label>
      <TraceViewer text={sample} label="Preview" patterns={settings.enabled ? settings.patterns : []} />
    </div>
  );
}
