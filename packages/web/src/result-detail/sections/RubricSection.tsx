import type { VerificationResultRubric } from "../../library-types/index.js";
import { DetailSection, formatValue, hasEntries } from "./parts.js";

interface TraitRow {
  readonly name: string;
  readonly kind: string;
  readonly score: string;
}

function rows(rubric: VerificationResultRubric): TraitRow[] {
  const out: TraitRow[] = [];
  const labels = rubric.llm_trait_labels ?? {};
  const add = (kind: string, scores: Readonly<Record<string, unknown>> | null) => {
    for (const [name, value] of Object.entries(scores ?? {})) {
      const label = kind === "LLM" ? labels[name] : undefined;
      out.push({
        name,
        kind,
        score: label === undefined ? formatValue(value) : `${label} (${formatValue(value)})`,
      });
    }
  };
  add("LLM", rubric.llm_trait_scores);
  add("Regex", rubric.regex_trait_scores);
  add("Callable", rubric.callable_trait_scores);
  add("Agentic", rubric.agentic_trait_scores);
  return out;
}

/** Rubric trait scores (literal traits by their label), metric values with confusion lists, agentic traces. */
export function RubricSection({ rubric }: { readonly rubric: VerificationResultRubric | null }) {
  if (rubric === null || !rubric.rubric_evaluation_performed) return null;
  const traits = rows(rubric);
  const provenance = rubric.trait_provenance ?? {};
  const metrics = Object.entries(rubric.metric_trait_scores ?? {});
  const confusion = rubric.metric_trait_confusion_lists ?? {};
  return (
    <DetailSection title="Rubric Scores">
      {rubric.rubric_evaluation_strategy === null ? null : (
        <p>Evaluated in {rubric.rubric_evaluation_strategy} mode.</p>
      )}
      {traits.length === 0 ? null : (
        <table className="detail-table">
          <thead>
            <tr>
              <th scope="col">Trait</th>
              <th scope="col">Kind</th>
              <th scope="col">Score</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {traits.map((trait) => (
              <tr key={`${trait.kind}:${trait.name}`}>
                <th scope="row">{trait.name}</th>
                <td>{trait.kind}</td>
                <td>{trait.score}</td>
                <td>{provenance[trait.name] ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {metrics.map(([name, values]) => (
        <div key={name} className="detail-metric">
          <h4>Metric trait {name}</h4>
          <p>
            {Object.entries(values)
              .map(([metric, value]) => `${metric}: ${formatValue(value)}`)
              .join(", ")}
          </p>
          {confusion[name] === undefined ? null : (
            <dl className="detail-facts">
              {(["tp", "tn", "fp", "fn"] as const).map((list) => (
                <div key={list}>
                  <dt>{list.toUpperCase()}</dt>
                  <dd>{confusion[name]?.[list].join(", ") || "—"}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      ))}
      {hasEntries(rubric.agentic_trait_investigation_traces) ? (
        <>
          <h4>Agentic investigations</h4>
          <dl className="detail-facts">
            {Object.entries(rubric.agentic_trait_investigation_traces).map(([name, trace]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>
                  {trace}
                  {rubric.agentic_trait_extraction_metadata?.[name] === undefined
                    ? null
                    : ` (extraction: ${rubric.agentic_trait_extraction_metadata[name]?.method})`}
                </dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {hasEntries(rubric.dynamic_rubric_skipped_traits) ? (
        <>
          <h4>Dynamic traits skipped</h4>
          <ul>
            {Object.entries(rubric.dynamic_rubric_skipped_traits).map(([name, why]) => (
              <li key={name}>
                {name}: {why}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {rubric.dynamic_rubric_promoted_traits === null ||
      rubric.dynamic_rubric_promoted_traits.length === 0 ? null : (
        <p>Dynamic traits promoted: {rubric.dynamic_rubric_promoted_traits.join(", ")}</p>
      )}
    </DetailSection>
  );
}
