import { type ReactElement, useId } from "react";
import type { BuilderFieldSpec, BuilderPrimitiveInfo } from "../../library-types/index.js";
import { checkFieldName } from "../field-names.js";
import {
  descriptionWarnings,
  FIELD_TYPES,
  type FieldType,
  fieldTypeOf,
  groundTruthText,
  parseChoices,
  parseGroundTruth,
  primitivesFor,
  withFieldType,
  withPrimitive,
} from "../form-state.js";
import { ParsedInput } from "./ParsedInput.js";
import { PrimitiveParams } from "./PrimitiveParams.js";

export interface FieldCardProps {
  readonly index: number;
  readonly field: BuilderFieldSpec;
  readonly otherNames: readonly string[];
  readonly primitives: readonly BuilderPrimitiveInfo[];
  readonly onChange: (next: BuilderFieldSpec) => void;
  readonly onRemove: () => void;
}

function Messages(props: {
  readonly id: string;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}) {
  if (props.errors.length === 0 && props.warnings.length === 0) return null;
  return (
    <ul id={props.id} className="te-messages">
      {props.errors.map((error) => (
        <li key={error} className="te-bad">
          Error: {error}
        </li>
      ))}
      {props.warnings.map((warning) => (
        <li key={warning} className="te-warn">
          Warning: {warning}
        </li>
      ))}
    </ul>
  );
}

function GroundTruthInput(props: {
  readonly field: BuilderFieldSpec;
  readonly onChange: (value: unknown) => void;
}): ReactElement {
  const id = useId();
  const { field } = props;
  const shown = groundTruthText(field);
  const label = "Correct value (ground truth)";
  if (shown.kind === "typed" && field.type === "bool")
    return (
      <div className="te-input">
        <label htmlFor={id}>{label}</label>
        <select
          id={id}
          value={shown.text}
          onChange={(event) => props.onChange(event.target.value === "true")}
        >
          <option value="true">True</option>
          <option value="false">False</option>
        </select>
      </div>
    );
  if (shown.kind === "typed" && field.type === "literal")
    return (
      <div className="te-input">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={shown.text} onChange={(event) => props.onChange(event.target.value)}>
          {[...new Set([...(field.literal_values ?? []), shown.text])].map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
    );
  const hint =
    shown.kind === "json"
      ? "JSON (this ground truth does not fit the field's type, e.g. a conditional one)"
      : field.type === "list_str"
        ? "One item per line"
        : field.type === "date"
          ? "A date, e.g. 2024-05-01"
          : undefined;
  return (
    <ParsedInput
      label={label}
      initialText={shown.text}
      parse={(text) => parseGroundTruth(field.type, { kind: shown.kind, text })}
      onValue={props.onChange}
      multiline={shown.kind === "json" || field.type === "list_str"}
      {...(hint ? { hint } : {})}
      {...(field.type === "int" || field.type === "float" ? { inputMode: "decimal" as const } : {})}
    />
  );
}

/** One field of the template: name, type, description, ground truth, verification primitive and its options. */
export function FieldCard(props: FieldCardProps): ReactElement {
  const id = useId();
  const { field, primitives } = props;
  const names = checkFieldName(field.name, props.otherNames);
  const descriptionNotes = descriptionWarnings(field.description);
  const type = fieldTypeOf(field);
  const primitiveName = String(field.verify_with.type ?? "");
  const primitive = primitives.find((p) => p.name === primitiveName);
  const choices = primitivesFor(type, primitives);
  const set = (patch: Partial<BuilderFieldSpec>) => props.onChange({ ...field, ...patch });
  return (
    <fieldset className="te-field" data-testid={`field-card-${props.index}`}>
      <legend>
        Field {props.index + 1}: {field.name || "(no name)"}
      </legend>
      <div className="te-row">
        <div className="te-input">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            value={field.name}
            aria-invalid={names.errors.length > 0}
            aria-describedby={`${id}-name-notes`}
            spellCheck={false}
            onChange={(event) => set({ name: event.target.value })}
          />
          <Messages id={`${id}-name-notes`} errors={names.errors} warnings={names.warnings} />
        </div>
        <div className="te-input">
          <label htmlFor={`${id}-type`}>Type</label>
          <select
            id={`${id}-type`}
            value={type}
            onChange={(event) =>
              props.onChange(withFieldType(field, event.target.value as FieldType, primitives))
            }
          >
            {FIELD_TYPES.map((option) => (
              <option key={option.type} value={option.type}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="te-input te-narrow">
          <ParsedInput
            label="Weight"
            initialText={String(field.weight)}
            inputMode="decimal"
            parse={(text) =>
              text.trim() !== "" && Number.isFinite(Number(text))
                ? { ok: true, value: Number(text) }
                : { ok: false, error: "Enter a number" }
            }
            onValue={(value) => set({ weight: value as number })}
          />
        </div>
      </div>
      <div className="te-input">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={2}
          value={field.description}
          aria-describedby={`${id}-description-notes`}
          onChange={(event) => set({ description: event.target.value })}
        />
        <Messages id={`${id}-description-notes`} errors={[]} warnings={descriptionNotes} />
      </div>
      <div className="te-input">
        <label htmlFor={`${id}-hint`}>Extraction hint (optional)</label>
        <input
          id={`${id}-hint`}
          value={field.extraction_hint ?? ""}
          onChange={(event) =>
            set({ extraction_hint: event.target.value === "" ? null : event.target.value })
          }
        />
      </div>
      {type === "literal" && (
        <ParsedInput
          label="Choices"
          hint="One per line; blanks are dropped"
          multiline
          initialText={(field.literal_values ?? []).join("\n")}
          parse={parseChoices}
          onValue={(values) => set({ literal_values: values as string[] })}
        />
      )}
      <GroundTruthInput
        key={`${type}-${JSON.stringify(field.literal_values)}`}
        field={field}
        onChange={(value) => set({ ground_truth: value })}
      />
      <div className="te-input">
        <label htmlFor={`${id}-primitive`}>Verification</label>
        <select
          id={`${id}-primitive`}
          value={primitiveName}
          aria-describedby={`${id}-primitive-help`}
          onChange={(event) => {
            const chosen = primitives.find((p) => p.name === event.target.value);
            if (chosen) props.onChange(withPrimitive(field, chosen));
          }}
        >
          {!choices.some((p) => p.name === primitiveName) && (
            <option value={primitiveName}>{primitiveName}</option>
          )}
          {choices.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
              {p.is_trace ? " (checks the raw response)" : ""}
            </option>
          ))}
        </select>
        <small id={`${id}-primitive-help`} className="te-muted">
          {primitive?.description}
          {primitive?.is_trace &&
            " A regex or trace check: it reads the raw response, not a field the judge extracted."}
        </small>
      </div>
      {primitive && (
        <PrimitiveParams
          key={primitiveName}
          primitive={primitive}
          verifyWith={field.verify_with}
          onChange={(verifyWith) => set({ verify_with: verifyWith })}
        />
      )}
      <button type="button" className="button te-secondary te-remove" onClick={props.onRemove}>
        Remove field {field.name}
      </button>
    </fieldset>
  );
}
