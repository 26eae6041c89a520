import { type ReactElement, useId } from "react";
import type { BuilderPrimitiveInfo } from "../../library-types/index.js";
import { type ParamControl, paramControls, paramText, parseParam } from "../form-state.js";
import { ParsedInput } from "./ParsedInput.js";

const HINTS: Partial<Record<ParamControl["control"], string>> = {
  lines: "One per line",
  json: "JSON",
};

function ParamInput(props: {
  readonly control: ParamControl;
  readonly value: unknown;
  readonly onValue: (value: unknown) => void;
}): ReactElement {
  const id = useId();
  const { control } = props;
  const label = `${control.name}${control.required ? " (required)" : ""}`;
  if (control.control === "boolean")
    return (
      <div className="te-input te-check">
        <input
          id={id}
          type="checkbox"
          checked={props.value === true}
          onChange={(event) => props.onValue(event.target.checked)}
        />
        <label htmlFor={id}>{control.name}</label>
      </div>
    );
  if (control.control === "enum")
    return (
      <div className="te-input">
        <label htmlFor={id}>{label}</label>
        <select
          id={id}
          value={String(props.value ?? "")}
          onChange={(event) => props.onValue(event.target.value)}
        >
          {control.nullable && <option value="">(none)</option>}
          {control.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </div>
    );
  const hint = [HINTS[control.control], control.nullable ? "empty for none" : null]
    .filter(Boolean)
    .join("; ");
  return (
    <ParsedInput
      label={label}
      initialText={paramText(control, props.value)}
      parse={(text) => parseParam(control, text)}
      onValue={props.onValue}
      multiline={control.control === "lines" || control.control === "json"}
      {...(hint === "" ? {} : { hint })}
      {...(control.control === "integer" || control.control === "number"
        ? { inputMode: "decimal" as const }
        : {})}
    />
  );
}

/** The options of a field's primitive (its parameters, from the primitive's JSON Schema). */
export function PrimitiveParams(props: {
  readonly primitive: BuilderPrimitiveInfo;
  readonly verifyWith: Record<string, unknown>;
  readonly onChange: (next: Record<string, unknown>) => void;
}): ReactElement | null {
  const controls = paramControls(props.primitive);
  if (controls.length === 0) return null;
  return (
    <div className="te-params">
      {controls.map((control) => (
        <ParamInput
          key={control.name}
          control={control}
          value={props.verifyWith[control.name]}
          onValue={(value) => {
            // `type` stays last, as the library serializes a primitive (spec 02 §4).
            const { type, ...params } = props.verifyWith;
            props.onChange({ ...params, [control.name]: value, type });
          }}
        />
      ))}
    </div>
  );
}
