import { type ReactElement, useEffect, useRef, useState } from "react";
import { ApiRequestError } from "../../api/index.js";
import type {
  BuilderPrimitiveInfo,
  BuilderTemplateRemainder,
  BuilderTemplateSpec,
} from "../../library-types/index.js";
import { generateTemplate } from "../builder-api.js";
import { addField, classWarnings, nameErrorsOf, removeField, replaceField } from "../form-state.js";
import { FieldCard } from "./FieldCard.js";
import { KeptAsWritten } from "./KeptAsWritten.js";
import { StrategyEditor } from "./StrategyEditor.js";

/** How long after the last form edit the class is regenerated. */
export const APPLY_DELAY_MS = 400;

type ApplyState =
  | { readonly state: "applied" }
  | { readonly state: "applying" }
  | { readonly state: "blocked"; readonly problems: readonly string[] };

export interface FormEditorProps {
  readonly spec: BuilderTemplateSpec;
  /** What the spec cannot express of the code it was read from: applying a form edit drops it. */
  readonly lossy: readonly string[];
  /** A mixed template's hand-written part: shown read-only, and every edit is written back into it verbatim. */
  readonly remainder?: BuilderTemplateRemainder | undefined;
  readonly primitives: readonly BuilderPrimitiveInfo[];
  /** The regenerated code of an applied edit. */
  readonly onCode: (code: string) => void;
}

function problemsOf(error: unknown): string[] {
  if (error instanceof ApiRequestError && Array.isArray(error.details))
    return error.details.filter((d): d is string => typeof d === "string");
  return [error instanceof Error ? error.message : String(error)];
}

/**
 * The visual editor on the template's TemplateSpec (spec 07 §1.3.6, "Our decision"): each edit that leaves no
 * name error is applied by regenerating the whole class (`POST …/builder/generate`), newest edit winning.
 */
export function FormEditor(props: FormEditorProps): ReactElement {
  const [spec, setSpec] = useState(props.spec);
  const [apply, setApply] = useState<ApplyState>({ state: "applied" });
  const edited = useRef(false);
  const onCode = useRef(props.onCode);
  onCode.current = props.onCode;
  const remainder = useRef(props.remainder);
  remainder.current = props.remainder;

  const names = spec.fields.map((f) => f.name);
  useEffect(() => {
    if (!edited.current) return;
    const nameErrors = nameErrorsOf(spec);
    if (nameErrors.length > 0) {
      setApply({ state: "blocked", problems: nameErrors });
      return;
    }
    const abort = new AbortController();
    setApply({ state: "applying" });
    const timer = setTimeout(() => {
      generateTemplate(spec, remainder.current, abort.signal).then(
        ({ code }) => {
          if (abort.signal.aborted) return;
          setApply({ state: "applied" });
          onCode.current(code);
        },
        (error: unknown) => {
          if (!abort.signal.aborted) setApply({ state: "blocked", problems: problemsOf(error) });
        },
      );
    }, APPLY_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [spec]);

  const edit = (next: BuilderTemplateSpec) => {
    edited.current = true;
    setSpec(next);
  };
  const warnings = classWarnings(spec);
  return (
    <div className="te-form" data-testid="template-form">
      {spec.fields.length > 1 && (
        <p className="te-banner">Multiple attributes template – {spec.fields.length} fields</p>
      )}
      {props.lossy.length > 0 && (
        <div className="te-notice">
          <p>The form cannot express everything in this code; applying a form edit drops or changes:</p>
          <ul>
            {props.lossy.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </div>
      )}
      {warnings.length > 0 && (
        <ul className="te-messages">
          {warnings.map((warning) => (
            <li key={warning} className="te-warn">
              Warning: {warning}
            </li>
          ))}
        </ul>
      )}
      <p className="te-apply" aria-live="polite" data-testid="form-apply-status">
        {apply.state === "applying" && "Applying…"}
        {apply.state === "applied" && (edited.current ? "Changes applied to the code." : "")}
        {apply.state === "blocked" && `Not applied: ${apply.problems.length} problem(s) below.`}
      </p>
      {apply.state === "blocked" && (
        <ul className="te-problems">
          {apply.problems.map((problem) => (
            <li key={problem} className="te-bad">
              {problem}
            </li>
          ))}
        </ul>
      )}
      {spec.fields.map((field, index) => (
        <FieldCard
          // biome-ignore lint/suspicious/noArrayIndexKey: fields have no id; a removed field remounts the ones after it
          key={`${index}-${spec.fields.length}`}
          index={index}
          field={field}
          otherNames={names.filter((_, j) => j !== index)}
          primitives={props.primitives}
          onChange={(next) => edit(replaceField(spec, index, next))}
          onRemove={() => edit(removeField(spec, index))}
        />
      ))}
      <button type="button" className="button" onClick={() => edit(addField(spec))}>
        Add field
      </button>
      {props.remainder && <KeptAsWritten className={spec.class_name} remainder={props.remainder} />}
      {spec.fields.length > 1 && (
        <StrategyEditor
          strategy={spec.verify_strategy}
          fieldNames={names}
          onChange={(strategy) => edit({ ...spec, verify_strategy: strategy })}
        />
      )}
    </div>
  );
}
