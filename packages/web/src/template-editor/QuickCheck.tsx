import { type ReactElement, useId } from "react";
import { type RequestState, useDebouncedRequest } from "../api/index.js";
import type { BuilderValidation } from "../library-types/index.js";
import { type TemplateLanguage, validateTemplate } from "./builder-api.js";

/** How long after the last keystroke the template is checked. */
export const QUICK_CHECK_DELAY_MS = 600;

const MODE_LABEL: Record<string, string> = {
  verified: "VerifiedField template",
  classic: "classic template",
  mixed: "mixed template",
};

function summary(state: RequestState<BuilderValidation>, empty: boolean): string {
  if (empty) return "The template is empty.";
  switch (state.status) {
    case "idle":
    case "pending":
      return "Checking…";
    case "failed":
      return `Quick Check could not run: ${state.message}`;
    case "done": {
      const result = state.value as BuilderValidation;
      if (!result.valid)
        return `${result.errors.length} problem${result.errors.length === 1 ? "" : "s"}: the template would not load.`;
      const kind = result.mode ? MODE_LABEL[result.mode] : "template";
      return `Valid: class ${result.class_name ?? "?"} (${kind}).`;
    }
  }
}

/**
 * The server's Quick Check (spec 02 §8, spec 07 §1.3.5 "Our decision"): the template is loaded as a verification
 * would, in a sandbox of its own, 600 ms after the last edit; problems are listed under the editor.
 */
export function QuickCheck(props: {
  readonly code: string;
  readonly language: TemplateLanguage;
}): ReactElement {
  const titleId = useId();
  const empty = props.code.trim() === "";
  const state = useDebouncedRequest(
    empty ? null : `${props.language}\n${props.code}`,
    (signal) => validateTemplate(props.code, props.language, signal),
    QUICK_CHECK_DELAY_MS,
  );
  const done = state.status === "done" ? state.value : undefined;
  const errors = done?.errors ?? [];
  const invalid = done !== undefined && !done.valid;
  return (
    <section className="te-quick-check" aria-labelledby={titleId}>
      <h4 id={titleId}>Quick Check</h4>
      <div aria-live="polite" data-testid="quick-check">
        <p className={invalid ? "te-bad" : done !== undefined ? "te-good" : "te-muted"}>
          {summary(state, empty)}
        </p>
        {errors.length > 0 && (
          <ul className="te-problems">
            {errors.map((error) => (
              <li key={error}>
                <pre>{error}</pre>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
