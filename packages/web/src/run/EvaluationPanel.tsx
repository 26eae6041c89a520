import type { ReactNode } from "react";
import type { EvaluationSettings, FewShotMode, RubricDeepJudgment } from "./run-settings.js";

export interface EvaluationPanelProps {
  readonly evaluation: EvaluationSettings;
  readonly onChange: (evaluation: EvaluationSettings) => void;
}

function Check(props: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="check-label">
      <input
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      {props.label}
    </label>
  );
}

function Group({ label, children }: { label: string; children: ReactNode }) {
  return (
    <fieldset className="evaluation-group">
      <legend>{label}</legend>
      {children}
    </fieldset>
  );
}

/**
 * Evaluation settings (spec 07 §1.5 table). Correctness and Rubric cannot both be off: turning Rubric off turns
 * Correctness on; "Rubric Only" is Rubric with Correctness off.
 */
export function EvaluationPanel({ evaluation: e, onChange }: EvaluationPanelProps) {
  const set = (patch: Partial<EvaluationSettings>) => onChange({ ...e, ...patch });
  return (
    <section className="run-panel" aria-labelledby="evaluation-heading">
      <h3 id="evaluation-heading">Evaluation</h3>
      <div className="evaluation-grid">
        <Group label="What to evaluate">
          <Check
            label="Correctness"
            checked={e.correctness}
            disabled={!e.rubric}
            onChange={(on) => set({ correctness: on })}
          />
          <Check
            label="Rubric"
            checked={e.rubric}
            onChange={(on) => set({ rubric: on, correctness: on ? e.correctness : true })}
          />
          {e.rubric && (
            <>
              <label className="radio-label">
                <input
                  type="radio"
                  name="rubric-mode"
                  checked={e.correctness}
                  onChange={() => set({ correctness: true })}
                />
                Template + Rubric
              </label>
              <label className="radio-label">
                <input
                  type="radio"
                  name="rubric-mode"
                  checked={!e.correctness}
                  onChange={() => set({ correctness: false })}
                />
                Rubric Only
              </label>
              <label className="field">
                Rubric strategy
                <select
                  value={e.rubricStrategy}
                  onChange={(event) =>
                    set({ rubricStrategy: event.target.value as EvaluationSettings["rubricStrategy"] })
                  }
                >
                  <option value="batch">All Together (Batch)</option>
                  <option value="sequential">One by One (Sequential)</option>
                </select>
              </label>
            </>
          )}
        </Group>
        <Group label="Detection">
          <Check
            label="Abstention Detection"
            checked={e.abstention}
            onChange={(on) => set({ abstention: on })}
          />
          <Check
            label="Sufficiency Detection"
            checked={e.sufficiency}
            onChange={(on) => set({ sufficiency: on })}
          />
          <Check
            label="Embedding Check"
            checked={e.embeddingCheck}
            onChange={(on) => set({ embeddingCheck: on })}
          />
          {e.embeddingCheck && (
            <label className="field">
              Embedding threshold
              <input
                type="number"
                min={0}
                max={1}
                step={0.01}
                value={e.embeddingThreshold}
                onChange={(event) =>
                  set({ embeddingThreshold: Math.min(1, Math.max(0, Number(event.target.value))) })
                }
              />
            </label>
          )}
        </Group>
        <Group label="Deep Judgment">
          <Check
            label="Deep Judgment (templates)"
            checked={e.deepJudgment}
            onChange={(on) => set({ deepJudgment: on })}
          />
          {e.deepJudgment && (
            <Check
              label="Search Enhancement"
              checked={e.deepJudgmentSearch}
              onChange={(on) => set({ deepJudgmentSearch: on })}
            />
          )}
          {e.rubric && (
            <>
              <label className="field">
                Deep Judgment (rubrics)
                <select
                  value={e.rubricDeepJudgment}
                  onChange={(event) => set({ rubricDeepJudgment: event.target.value as RubricDeepJudgment })}
                >
                  <option value="disabled">Off</option>
                  <option value="enable_all">Enable All</option>
                  <option value="use_checkpoint">Use Checkpoint</option>
                </select>
              </label>
              {e.rubricDeepJudgment === "enable_all" && (
                <Check
                  label="Extract Excerpts"
                  checked={e.rubricDeepJudgmentExcerpts}
                  onChange={(on) => set({ rubricDeepJudgmentExcerpts: on })}
                />
              )}
            </>
          )}
        </Group>
        <Group label="Few-shot">
          <label className="field">
            Few-shot mode
            <select
              value={e.fewShot}
              onChange={(event) => set({ fewShot: event.target.value as FewShotMode })}
            >
              <option value="off">Off</option>
              <option value="all">All</option>
              <option value="k-shot">k-shot</option>
              <option value="custom">Custom</option>
            </select>
          </label>
          {e.fewShot === "k-shot" && (
            <label className="field">
              k
              <input
                type="number"
                min={1}
                max={10}
                value={e.fewShotK}
                onChange={(event) =>
                  set({ fewShotK: Math.min(10, Math.max(1, Math.round(Number(event.target.value)) || 1)) })
                }
              />
            </label>
          )}
        </Group>
        <Group label="MCP traces">
          <Check
            label="Full trace to template parsing"
            checked={e.fullTraceForTemplate}
            onChange={(on) => set({ fullTraceForTemplate: on })}
          />
          <Check
            label="Full trace to rubric evaluation"
            checked={e.fullTraceForRubric}
            onChange={(on) => set({ fullTraceForRubric: on })}
          />
        </Group>
      </div>
    </section>
  );
}
