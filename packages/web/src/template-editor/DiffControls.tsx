import { type ReactElement, useState } from "react";
import type { TemplateLanguage } from "./builder-api.js";
import { DiffView } from "./code/DiffView.js";
import { PressedButtons, type PressedChoice } from "./PressedButtons.js";
import { type Baseline, revertActions, startingBaseline } from "./revert.js";

const BASELINES: readonly PressedChoice<Baseline>[] = [
  { value: "saved", label: "vs Saved" },
  { value: "original", label: "vs Original" },
];

export interface DiffControlsProps {
  readonly value: string;
  readonly savedValue: string;
  readonly originalValue: string;
  readonly language: TemplateLanguage;
  readonly onChange: (next: string) => void;
}

/** "Show Diff" (vs Saved / vs Original) and the revert buttons, shown when the text differs from either. */
export function DiffControls(props: DiffControlsProps): ReactElement | null {
  const [shown, setShown] = useState(false);
  const [baseline, setBaseline] = useState<Baseline>("saved");
  const { value, savedValue, originalValue } = props;
  const reverts = revertActions(value, savedValue, originalValue);
  if (reverts.length === 0 && !shown) return null;
  const against = baseline === "saved" ? savedValue : originalValue;
  return (
    <div className="te-diff-controls">
      <div className="te-toolbar">
        <button
          type="button"
          className="button"
          aria-expanded={shown}
          onClick={() => {
            if (!shown) setBaseline(startingBaseline(value, savedValue));
            setShown(!shown);
          }}
        >
          {shown ? "Hide Diff" : "Show Diff"}
        </button>
        {reverts.map((action) => (
          <button
            key={action.label}
            type="button"
            className="button te-secondary"
            onClick={() => props.onChange(action.text)}
          >
            {action.label}
          </button>
        ))}
      </div>
      {shown && (
        <section className="te-diff-panel" aria-label="Changes">
          <div className="te-toolbar">
            <PressedButtons choices={BASELINES} chosen={baseline} onChoose={setBaseline} />
          </div>
          {against === value ? (
            <p className="te-muted">No differences from the {baseline} text.</p>
          ) : (
            <DiffView
              value={value}
              original={against}
              language={props.language}
              label={`Changes to the template against the ${baseline} text`}
            />
          )}
        </section>
      )}
    </div>
  );
}
