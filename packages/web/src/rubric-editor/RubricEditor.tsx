import { useDebouncedRequest } from "../api/index.js";
/**
 * The rubric editor (spec 07 §1.4): trait cards of every kind for the global rubric or one question's rubric,
 * "Add trait", "Import literal trait", and the server's validation of the edited rubric (debounced).
 */
import "./rubric-editor.css";
import { type ChangeEvent, useId, useRef, useState } from "react";
import type { LlmTrait, Rubric, RubricTrait } from "../library-types/index.js";
import { parseLiteralImport } from "./literal-import.js";
import { VALIDATION_DELAY_MS, validateRubric } from "./server-checks.js";
import { TraitCard } from "./TraitCard.js";
import {
  appendTrait,
  duplicateNames,
  newTrait,
  placedTraits,
  refKey,
  removeTrait,
  replaceTrait,
  type TraitRef,
} from "./traits.js";
import { NO_VERDICT, problemsOf, type ServerVerdict } from "./validation.js";

/** The props of the rubric editor (the contract shared with the curator). */
export interface RubricEditorProps {
  readonly scope: "global" | "question";
  readonly rubric: Rubric | null;
  /** Every edit; null when the last trait is removed. */
  readonly onChange: (next: Rubric | null) => void;
  /** Question scope: the global rubric's trait names ("overrides global trait" labels and the list shown). */
  readonly globalTraitNames?: readonly string[];
  readonly title?: string;
}

export function RubricEditor({ scope, rubric, onChange, globalTraitNames = [], title }: RubricEditorProps) {
  const id = useId();
  const traits = placedTraits(rubric);
  const duplicates = duplicateNames(rubric);
  const validation = useDebouncedRequest<ServerVerdict>(
    rubric === null || traits.length === 0 ? null : JSON.stringify(rubric),
    (signal) => validateRubric(rubric as Rubric, signal),
    VALIDATION_DELAY_MS,
  );
  const verdict = traits.length === 0 ? NO_VERDICT : (validation.value ?? NO_VERDICT);
  const heading = title ?? (scope === "global" ? "Global rubric" : "Question rubric");
  const ownNames = new Set(traits.map(({ trait }) => trait.name));
  // A converted trait moves to its type's list (its card is a new one): its type select keeps the focus.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const change = (ref: TraitRef, next: RubricTrait) => {
    if (next.type !== ref.type) {
      const index = traits.filter((placed) => placed.ref.type === next.type).length;
      setFocusKey(refKey({ type: next.type, index }));
    }
    onChange(replaceTrait(rubric as Rubric, ref, next));
  };
  const remove = (ref: TraitRef) => {
    onChange(removeTrait(rubric as Rubric, ref));
    addButton.current?.focus();
  };
  return (
    <section className="rubric-editor" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{heading}</h3>
      {scope === "question" ? <GlobalTraits names={globalTraitNames} overridden={ownNames} /> : null}
      <ValidationSummary
        status={validation.status}
        message={validation.message}
        verdict={verdict}
        hasVerdict={validation.value !== undefined}
      />
      {traits.length === 0 ? (
        <p className="rubric-hint">
          {scope === "global" ? "No global traits yet." : "No traits for this question yet."}
        </p>
      ) : null}
      {traits.map(({ ref, trait }) => (
        <TraitCard
          key={refKey(ref)}
          trait={trait}
          duplicated={duplicates.has(trait.name.trim().toLowerCase())}
          overridesGlobal={scope === "question" && globalTraitNames.includes(trait.name)}
          problems={problemsOf(verdict, refKey(ref))}
          focusType={focusKey === refKey(ref)}
          onFocused={() => setFocusKey(null)}
          onChange={(next) => change(ref, next)}
          onRemove={() => remove(ref)}
        />
      ))}
      <div className="rubric-actions">
        <button type="button" ref={addButton} onClick={() => onChange(appendTrait(rubric, newTrait(rubric)))}>
          Add trait
        </button>
        <LiteralImport
          takenNames={traits.map(({ trait }) => trait.name)}
          onImport={(trait) => onChange(appendTrait(rubric, trait))}
        />
      </div>
    </section>
  );
}

/** Question scope: the global traits evaluated with this question's, and which of them it overrides. */
function GlobalTraits({
  names,
  overridden,
}: {
  readonly names: readonly string[];
  readonly overridden: Set<string>;
}) {
  if (names.length === 0) return <p className="rubric-hint">The benchmark has no global traits.</p>;
  return (
    <div className="rubric-global-traits">
      <p>Global traits that will be included in evaluation:</p>
      <ul>
        {names.map((name) => (
          <li key={name}>
            {name}
            {overridden.has(name) ? " (overridden by this question's trait)" : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Whether the server accepts the rubric, and its problems that belong to no single trait. */
function ValidationSummary({
  status,
  message,
  verdict,
  hasVerdict,
}: {
  readonly status: "idle" | "pending" | "done" | "failed";
  readonly message: string | undefined;
  readonly verdict: ServerVerdict;
  readonly hasVerdict: boolean;
}) {
  const general = problemsOf(verdict, null);
  const count = verdict.invalid.length + verdict.readiness.length;
  // While the next answer is pending the last one stays (no announcement on every keystroke).
  const text =
    status === "idle"
      ? ""
      : status === "pending" && !hasVerdict
        ? "Checking the rubric…"
        : status === "failed"
          ? `Could not check the rubric: ${message ?? "unknown error"}`
          : verdict.invalid.length > 0
            ? `The server refuses this rubric: ${verdict.invalid.length} problem${verdict.invalid.length === 1 ? "" : "s"} (see the traits).`
            : count > 0
              ? `Valid, but not ready to run: ${count} problem${count === 1 ? "" : "s"} (see the traits).`
              : "The rubric is valid.";
  return (
    <div className="rubric-validation">
      <p
        aria-live="polite"
        aria-busy={status === "pending"}
        className={verdict.invalid.length > 0 ? "rubric-status-bad" : "rubric-status"}
      >
        {text}
      </p>
      {general.length > 0 ? (
        <ul className="rubric-problems" aria-label="Rubric problems">
          {general.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat; their order is the server's.
            <li key={index}>{problem.message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** "Import literal trait": reads a JSON file and adds the trait, or says what is wrong with the file. */
function LiteralImport({
  takenNames,
  onImport,
}: {
  readonly takenNames: readonly string[];
  readonly onImport: (trait: LlmTrait) => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file === undefined) return;
    const outcome = parseLiteralImport(await file.text(), takenNames);
    if ("error" in outcome) {
      setError(`${file.name}: ${outcome.error}`);
      return;
    }
    setError(null);
    onImport(outcome.trait);
  };
  return (
    <div className="rubric-import">
      <input
        id={id}
        type="file"
        accept="application/json,.json"
        className="visually-hidden"
        onChange={(event) => void read(event)}
      />
      <label htmlFor={id} className="rubric-file-button">
        Import literal trait
      </label>
      {error === null ? null : (
        <p role="alert" className="rubric-field-error">
          {error}
        </p>
      )}
    </div>
  );
}
