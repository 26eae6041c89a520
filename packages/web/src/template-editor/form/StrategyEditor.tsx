import { type ReactElement, useId } from "react";
import type { BuilderStrategySpec } from "../../library-types/index.js";
import { type StrategyMode, strategyMode, strategyOf } from "../form-state.js";

const KINDS = [
  { kind: "default", label: "All fields must be correct (default)" },
  { kind: "all_of", label: "All of the chosen fields" },
  { kind: "any_of", label: "Any of the chosen fields" },
  { kind: "at_least_n", label: "At least N of the chosen fields" },
] as const;

/** How the verdict combines the fields (spec 02 §7): default, or all/any/at least N of chosen fields. */
export function StrategyEditor(props: {
  readonly strategy: BuilderStrategySpec | null;
  readonly fieldNames: readonly string[];
  readonly onChange: (next: BuilderStrategySpec | null) => void;
}): ReactElement {
  const id = useId();
  const mode = strategyMode(props.strategy);
  if (mode.kind === "nested")
    return (
      <p className="te-muted">
        Composition: this template combines its fields with a nested strategy, kept as it is; edit it in the
        code.
      </p>
    );
  const set = (next: StrategyMode) => props.onChange(strategyOf(next, props.strategy));
  const chosen = mode.kind === "default" ? props.fieldNames : mode.fields;
  return (
    <fieldset className="te-strategy">
      <legend>Composition</legend>
      <div className="te-input">
        <label htmlFor={`${id}-kind`}>How fields combine into the verdict</label>
        <select
          id={`${id}-kind`}
          value={mode.kind}
          onChange={(event) => {
            const kind = event.target.value as (typeof KINDS)[number]["kind"];
            set(
              kind === "default"
                ? { kind }
                : { kind, n: mode.kind === "default" ? 1 : mode.n, fields: chosen },
            );
          }}
        >
          {KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      {mode.kind !== "default" && (
        <>
          {mode.kind === "at_least_n" && (
            <div className="te-input te-narrow">
              <label htmlFor={`${id}-n`}>N</label>
              <input
                id={`${id}-n`}
                type="number"
                min={0}
                value={mode.n}
                onChange={(event) => set({ ...mode, n: Math.max(0, Number(event.target.value) || 0) })}
              />
            </div>
          )}
          <fieldset className="te-checks">
            <legend>Fields checked</legend>
            {props.fieldNames.map((name) => (
              <label key={name} className="te-check">
                <input
                  type="checkbox"
                  checked={mode.fields.includes(name)}
                  onChange={(event) =>
                    set({
                      ...mode,
                      fields: event.target.checked
                        ? props.fieldNames.filter((n) => n === name || mode.fields.includes(n))
                        : mode.fields.filter((n) => n !== name),
                    })
                  }
                />
                {name}
              </label>
            ))}
          </fieldset>
        </>
      )}
    </fieldset>
  );
}
