/** One trait of the rubric: name, type, description and the fields of its kind, with its problems. */
import { useEffect, useId, useRef } from "react";
import type { RubricTrait } from "../library-types/index.js";
import { TextField } from "./controls.js";
import { traitFieldErrors } from "./field-errors.js";
import { LlmFields } from "./LlmFields.js";
import { MetricFields } from "./MetricFields.js";
import { AgenticFields, CallableFields } from "./ReadOnlyFields.js";
import { RegexFields } from "./RegexFields.js";
import { cardKind, convertTrait, type EditableKind, KIND_LABELS } from "./traits.js";
import type { ServerProblem } from "./validation.js";

export interface TraitCardProps {
  readonly trait: RubricTrait;
  /** Whether another trait of this rubric has the same name, ignoring case. */
  readonly duplicated: boolean;
  /** Question scope: a global trait has this name, and this trait replaces it for the question. */
  readonly overridesGlobal: boolean;
  readonly problems: readonly ServerProblem[];
  /** Move the focus to the type select once mounted (the card of a trait just converted). */
  readonly focusType?: boolean;
  readonly onFocused?: () => void;
  readonly onChange: (next: RubricTrait) => void;
  readonly onRemove: () => void;
}

const READ_ONLY_LABELS = { template: "Structured (template)", callable: "Callable", agentic: "Agentic" };

export function TraitCard(props: TraitCardProps) {
  const { trait, duplicated, overridesGlobal, problems, focusType, onFocused, onChange, onRemove } = props;
  const id = useId();
  const typeSelect = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (!focusType) return;
    typeSelect.current?.focus();
    onFocused?.();
  }, [focusType, onFocused]);
  const kind = cardKind(trait);
  const errors = traitFieldErrors(trait, duplicated);
  const editable = trait.type !== "callable" && trait.type !== "agentic";
  const displayName = trait.name === "" ? "(unnamed)" : trait.name;
  return (
    <article className="rubric-card" aria-labelledby={`${id}-title`} data-trait-type={trait.type}>
      <header className="rubric-card-header">
        <h4 id={`${id}-title`}>
          {displayName}
          <span className="rubric-kind-badge">
            {kind in KIND_LABELS ? KIND_LABELS[kind as EditableKind] : READ_ONLY_LABELS[kind as "callable"]}
          </span>
          {overridesGlobal ? <span className="rubric-override-badge">overrides global trait</span> : null}
        </h4>
        <button
          type="button"
          className="rubric-remove"
          aria-label={`Remove trait ${displayName}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </header>
      {editable ? (
        <div className="rubric-row">
          <TextField
            label="Trait name"
            value={trait.name}
            error={errors.name}
            onChange={(name) => onChange({ ...trait, name })}
          />
          <div className="rubric-field">
            <label htmlFor={`${id}-type`}>Type</label>
            <select
              ref={typeSelect}
              id={`${id}-type`}
              value={kind}
              onChange={(event) => onChange(convertTrait(trait, event.target.value as EditableKind))}
            >
              {Object.entries(KIND_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
              {kind === "template" ? (
                <option value="template" disabled>
                  {READ_ONLY_LABELS.template}
                </option>
              ) : null}
            </select>
          </div>
        </div>
      ) : null}
      {editable ? (
        <TextField
          label="Description"
          multiline
          value={trait.description ?? ""}
          onChange={(description) => onChange({ ...trait, description })}
        />
      ) : null}
      <KindFields trait={trait} errors={errors} onChange={onChange} idBase={id} />
      {problems.length > 0 ? (
        <ul className="rubric-problems" aria-label={`Problems of ${displayName}`}>
          {problems.map((problem, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: messages may repeat; their order is the server's.
            <li key={index}>
              {problem.field === null ? "" : `${problem.field}: `}
              {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

function KindFields({
  trait,
  errors,
  onChange,
  idBase,
}: {
  readonly trait: RubricTrait;
  readonly errors: ReturnType<typeof traitFieldErrors>;
  readonly onChange: (next: RubricTrait) => void;
  readonly idBase: string;
}) {
  switch (trait.type) {
    case "llm":
      return <LlmFields trait={trait} errors={errors} onChange={onChange} idBase={idBase} />;
    case "regex":
      return <RegexFields trait={trait} errors={errors} onChange={onChange} />;
    case "metric":
      return <MetricFields trait={trait} errors={errors} onChange={onChange} />;
    case "callable":
      return <CallableFields trait={trait} />;
    case "agentic":
      return <AgenticFields trait={trait} />;
  }
}
