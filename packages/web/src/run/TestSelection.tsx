import { useState } from "react";
import { matchingQuestions, type RunQuestion } from "./checkpoint-questions.js";

export interface TestSelectionProps {
  readonly questions: readonly RunQuestion[];
  readonly selection: readonly string[];
  readonly disabled: boolean;
  /** Custom few-shot: the examples picked per question. */
  readonly customFewShot: boolean;
  readonly fewShotSelections: Readonly<Record<string, readonly string[]>>;
  readonly onFewShotChange: (questionId: string, examples: readonly string[]) => void;
  readonly onSelectionChange: (selection: readonly string[]) => void;
  readonly onRunSingle: (questionId: string) => void;
}

/** The selection after "Select Visible" / "Deselect Visible". */
export function withVisible(selection: readonly string[], visible: readonly string[], on: boolean): string[] {
  if (on) return [...new Set([...selection, ...visible])];
  const hidden = new Set(visible);
  return selection.filter((id) => !hidden.has(id));
}

/** Test Selection (spec 07 §1.5): the finished questions of the working benchmark. */
export function TestSelection(props: TestSelectionProps) {
  const { questions, selection, disabled, onSelectionChange } = props;
  const [search, setSearch] = useState("");
  const finished = questions.filter((q) => q.finished);
  const visible = matchingQuestions(finished, search);
  const visibleIds = visible.map((q) => q.id);
  const selected = new Set(selection);
  const allVisibleSelected = visible.length > 0 && visible.every((q) => selected.has(q.id));
  const someVisibleSelected = visible.some((q) => selected.has(q.id));
  return (
    <section className="run-panel" aria-labelledby="selection-heading">
      <h3 id="selection-heading">Test Selection ({finished.length} available)</h3>
      {finished.length === 0 ? (
        <p className="muted-text">
          No finished templates available. Complete some templates in the curator first.
        </p>
      ) : (
        <>
          <div className="selection-bar">
            <label className="field">
              Search questions
              <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
            </label>
            <button
              type="button"
              className="secondary-button"
              disabled={disabled}
              onClick={() => onSelectionChange(withVisible(selection, visibleIds, true))}
            >
              Select Visible
            </button>
            <button
              type="button"
              className="secondary-button"
              disabled={disabled}
              onClick={() => onSelectionChange(withVisible(selection, visibleIds, false))}
            >
              Deselect Visible
            </button>
            <button
              type="button"
              className="secondary-button"
              disabled={disabled || selection.length === 0}
              onClick={() => onSelectionChange([])}
            >
              Clear All ({selection.length})
            </button>
          </div>
          <div className="selection-table-wrap">
            <table className="selection-table">
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all visible questions"
                      disabled={disabled}
                      checked={allVisibleSelected}
                      ref={(box) => {
                        if (box !== null) box.indeterminate = someVisibleSelected && !allVisibleSelected;
                      }}
                      onChange={(event) =>
                        onSelectionChange(withVisible(selection, visibleIds, event.target.checked))
                      }
                    />
                  </th>
                  <th scope="col">Question</th>
                  {props.customFewShot && <th scope="col">Examples</th>}
                  <th scope="col">Last modified</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {visible.map((q) => (
                  <tr key={q.id}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${q.text}`}
                        disabled={disabled}
                        checked={selected.has(q.id)}
                        onChange={(event) =>
                          onSelectionChange(
                            event.target.checked
                              ? [...selection, q.id]
                              : selection.filter((id) => id !== q.id),
                          )
                        }
                      />
                    </td>
                    <td className="question-preview" title={q.text}>
                      {q.text}
                    </td>
                    {props.customFewShot && (
                      <td>
                        {q.fewShotExamples.length === 0
                          ? "none"
                          : q.fewShotExamples.map(({ ref: example, question }) => {
                              const picked = props.fewShotSelections[q.id] ?? [];
                              return (
                                <label key={example} className="check-label">
                                  <input
                                    type="checkbox"
                                    disabled={disabled}
                                    checked={picked.includes(example)}
                                    onChange={(event) =>
                                      props.onFewShotChange(
                                        q.id,
                                        event.target.checked
                                          ? [...picked, example]
                                          : picked.filter((x) => x !== example),
                                      )
                                    }
                                  />
                                  {question}
                                </label>
                              );
                            })}
                      </td>
                    )}
                    <td>{q.lastModified === null ? "" : new Date(q.lastModified).toLocaleString()}</td>
                    <td>
                      <button
                        type="button"
                        className="secondary-button"
                        disabled={disabled}
                        aria-label={`Run Single: ${q.text}`}
                        onClick={() => props.onRunSingle(q.id)}
                      >
                        Run Single
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
