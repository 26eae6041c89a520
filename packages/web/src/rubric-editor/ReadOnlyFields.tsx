/** Callable and agentic traits, shown read-only: they are written in code, not in the browser (spec 07 §1.4). */
import type { AgenticTrait, CallableTrait } from "../library-types/index.js";
import { viewCallableCode } from "./callable-code.js";

function Facts({ facts }: { readonly facts: readonly (readonly [string, string])[] }) {
  return (
    <dl className="rubric-facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const direction = (value: boolean | null) =>
  value === null ? "not applicable" : value ? "higher is better" : "lower is better";
const kindText = (kind: AgenticTrait["kind"]) => (typeof kind === "string" ? kind : "structured (template)");
const classesText = (classes: Record<string, string> | null) =>
  classes === null ? null : Object.keys(classes).join(", ");

export function CallableFields({ trait }: { readonly trait: CallableTrait }) {
  const code = viewCallableCode(trait.callable_code);
  const classes = classesText(trait.classes);
  return (
    <div className="rubric-readonly">
      <p>
        A callable trait runs a function written in code; it cannot be edited here and is saved unchanged.
      </p>
      <Facts
        facts={[
          ["Description", trait.description ?? "—"],
          ["Kind", trait.kind],
          ["Language", code.language],
          ...(trait.kind === "score"
            ? [["Range", `${trait.min_score ?? "—"} to ${trait.max_score ?? "—"}`] as const]
            : []),
          ...(classes === null ? [] : [["Classes", classes] as const]),
          ["Invert result", trait.invert_result ? "yes" : "no"],
          ["Direction", direction(trait.higher_is_better)],
        ]}
      />
      {code.source === null ? null : (
        <section aria-label={`Code of ${trait.name}`}>
          <pre className="rubric-code">{code.source}</pre>
        </section>
      )}
    </div>
  );
}

export function AgenticFields({ trait }: { readonly trait: AgenticTrait }) {
  const classes = classesText(trait.classes);
  return (
    <div className="rubric-readonly">
      <p>An agentic trait is created in code or with the CLI; it is shown here and saved unchanged.</p>
      <Facts
        facts={[
          ["Description", trait.description],
          ["Kind", kindText(trait.kind)],
          ...(classes === null ? [] : [["Classes", classes] as const]),
          ["Context", trait.context_mode],
          ["Max turns", String(trait.max_turns)],
          ["Timeout", `${trait.timeout_seconds} s`],
          [
            "Trace",
            `${trait.materialize_trace ? "materialized" : "not materialized"}, ${trait.persist_trace ? "persisted" : "not persisted"}`,
          ],
          ["Model override", trait.model_override === null ? "none" : JSON.stringify(trait.model_override)],
          ["Direction", direction(trait.higher_is_better)],
        ]}
      />
    </div>
  );
}
