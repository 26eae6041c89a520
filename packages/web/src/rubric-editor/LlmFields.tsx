/** The fields of an LLM-judged trait: score range, literal classes, direction and the Deep Judgment block. */
import { useEffect, useState } from "react";
import type { LlmTrait } from "../library-types/index.js";
import { CheckboxField, DirectionField, FieldError, NumberField } from "./controls.js";
import {
  type ClassRow,
  classesProblem,
  classRows,
  type FieldErrors,
  MAX_CLASSES,
  MIN_CLASSES,
  rowsToClasses,
  SCORE_BOUNDS,
} from "./field-errors.js";

interface LlmFieldsProps {
  readonly trait: LlmTrait;
  readonly errors: FieldErrors;
  readonly onChange: (next: LlmTrait) => void;
  readonly idBase: string;
}

export function LlmFields({ trait, errors, onChange, idBase }: LlmFieldsProps) {
  if (typeof trait.kind !== "string") {
    return (
      <div className="rubric-readonly">
        <p>
          A structured (template-kind) trait: the judge fills the schema below. Its kind is edited in code;
          name and description can be changed here.
        </p>
        <section aria-label="Template schema">
          <pre>{JSON.stringify(trait.kind.schema, null, 2)}</pre>
        </section>
      </div>
    );
  }
  return (
    <>
      {trait.kind === "score" ? (
        <div className="rubric-row">
          <NumberField
            label="Minimum score"
            value={trait.min_score}
            min={SCORE_BOUNDS.min}
            max={SCORE_BOUNDS.max}
            step={1}
            error={errors.min_score}
            onChange={(min_score) => onChange({ ...trait, min_score })}
          />
          <NumberField
            label="Maximum score"
            value={trait.max_score}
            min={SCORE_BOUNDS.min}
            max={SCORE_BOUNDS.max}
            step={1}
            error={errors.max_score}
            onChange={(max_score) => onChange({ ...trait, max_score })}
          />
        </div>
      ) : null}
      {trait.kind === "literal" ? (
        <ClassesEditor trait={trait} onChange={onChange} idBase={idBase} error={errors.classes} />
      ) : null}
      <DirectionField
        value={trait.higher_is_better}
        onChange={(higher_is_better) => onChange({ ...trait, higher_is_better })}
      />
      <DeepJudgmentFields trait={trait} errors={errors} onChange={onChange} />
    </>
  );
}

/**
 * Literal classes as ordered rows. The rows live here while typing, because a record cannot hold two rows of
 * the same name (or two blank ones); the trait gets every state a record can represent.
 */
function ClassesEditor({
  trait,
  onChange,
  idBase,
  error,
}: {
  readonly trait: LlmTrait;
  readonly onChange: (next: LlmTrait) => void;
  readonly idBase: string;
  readonly error: string | undefined;
}) {
  const [rows, setRows] = useState<ClassRow[]>(() => classRows(trait.classes));
  const classesText = JSON.stringify(trait.classes);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an outside change of the classes resets the rows.
  useEffect(() => {
    if (JSON.stringify(rowsToClasses(rows)) !== classesText) setRows(classRows(trait.classes));
  }, [classesText]);

  const commit = (next: ClassRow[]) => {
    setRows(next);
    const classes = rowsToClasses(next);
    if (classes !== null) onChange({ ...trait, classes, min_score: 0, max_score: next.length - 1 });
  };
  const edit = (index: number, change: Partial<ClassRow>) =>
    commit(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    if (row !== undefined) next.splice(index + by, 0, row);
    commit(next);
  };
  const problem =
    (rowsToClasses(rows) === null ? "Two classes have the same name; rename one" : null) ??
    classesProblem(rows) ??
    error;
  const errorId = `${idBase}-classes-error`;
  return (
    <fieldset className="rubric-classes" aria-describedby={problem === undefined ? undefined : errorId}>
      <legend>Classes (in order: the index is the score)</legend>
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position (names change while typing).
        <div className="rubric-class-row" key={index}>
          <span className="rubric-class-index" aria-hidden="true">
            {index}
          </span>
          <input
            type="text"
            aria-label={`Class ${index + 1} name`}
            value={row.name}
            onChange={(event) => edit(index, { name: event.target.value })}
          />
          <input
            type="text"
            aria-label={`Class ${index + 1} description`}
            value={row.description}
            onChange={(event) => edit(index, { description: event.target.value })}
          />
          <button
            type="button"
            aria-label={`Move class ${index + 1} up`}
            disabled={index === 0}
            onClick={() => move(index, -1)}
          >
            ↑
          </button>
          <button
            type="button"
            aria-label={`Move class ${index + 1} down`}
            disabled={index === rows.length - 1}
            onClick={() => move(index, 1)}
          >
            ↓
          </button>
          <button
            type="button"
            aria-label={`Remove class ${index + 1}`}
            disabled={rows.length <= MIN_CLASSES}
            onClick={() => commit(rows.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        disabled={rows.length >= MAX_CLASSES}
        onClick={() => commit([...rows, { name: `Class ${rows.length + 1}`, description: "" }])}
      >
        Add class
      </button>
      <FieldError id={errorId} message={problem ?? undefined} />
    </fieldset>
  );
}

/** The trait's own deep-judgment settings (spec 03 §10.1); an empty number box means "the run's default". */
function DeepJudgmentFields({
  trait,
  errors,
  onChange,
}: {
  readonly trait: LlmTrait;
  readonly errors: FieldErrors;
  readonly onChange: (next: LlmTrait) => void;
}) {
  return (
    <fieldset className="rubric-deep-judgment">
      <legend>Deep Judgment</legend>
      <CheckboxField
        label="Enable deep judgment"
        checked={trait.deep_judgment_enabled}
        onChange={(deep_judgment_enabled) => onChange({ ...trait, deep_judgment_enabled })}
        hint="The judge quotes excerpts of the answer as evidence before scoring."
      />
      {trait.deep_judgment_enabled ? (
        <div className="rubric-row rubric-wrap">
          <CheckboxField
            label="Extract excerpts"
            checked={trait.deep_judgment_excerpt_enabled}
            onChange={(deep_judgment_excerpt_enabled) =>
              onChange({ ...trait, deep_judgment_excerpt_enabled })
            }
          />
          <NumberField
            label="Max excerpts"
            value={trait.deep_judgment_max_excerpts}
            min={1}
            step={1}
            placeholder="run default"
            error={errors.deep_judgment_max_excerpts}
            onChange={(deep_judgment_max_excerpts) => onChange({ ...trait, deep_judgment_max_excerpts })}
          />
          <NumberField
            label="Fuzzy match threshold"
            value={trait.deep_judgment_fuzzy_match_threshold}
            min={0}
            max={1}
            step={0.05}
            placeholder="run default"
            error={errors.deep_judgment_fuzzy_match_threshold}
            onChange={(deep_judgment_fuzzy_match_threshold) =>
              onChange({ ...trait, deep_judgment_fuzzy_match_threshold })
            }
          />
          <NumberField
            label="Retry attempts"
            value={trait.deep_judgment_excerpt_retry_attempts}
            min={0}
            step={1}
            placeholder="run default"
            error={errors.deep_judgment_excerpt_retry_attempts}
            onChange={(deep_judgment_excerpt_retry_attempts) =>
              onChange({ ...trait, deep_judgment_excerpt_retry_attempts })
            }
          />
          <CheckboxField
            label="Search enhancement"
            checked={trait.deep_judgment_search_enabled}
            onChange={(deep_judgment_search_enabled) => onChange({ ...trait, deep_judgment_search_enabled })}
          />
        </div>
      ) : null}
    </fieldset>
  );
}
