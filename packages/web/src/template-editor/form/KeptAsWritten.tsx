import { type ReactElement, useId } from "react";
import type { BuilderTemplateRemainder } from "../../library-types/index.js";
import { keptAsWrittenText } from "./kept-as-written.js";

export interface KeptAsWrittenProps {
  readonly className: string;
  readonly remainder: BuilderTemplateRemainder;
}

/** The read-only view of a mixed template's hand-written part: the form edits its VerifiedFields only. */
export function KeptAsWritten(props: KeptAsWrittenProps): ReactElement {
  const titleId = useId();
  return (
    <section className="te-kept" aria-labelledby={titleId}>
      <h4 id={titleId}>Kept as written</h4>
      <p className="te-muted">
        The hand-written part of this template (classic fields, methods, imports) is kept byte for byte; edit
        it in the code editor.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <pre className="te-kept-code" tabIndex={0} data-testid="kept-as-written">
        {keptAsWrittenText(props.className, props.remainder)}
      </pre>
    </section>
  );
}
