import type {
  Excerpt,
  VerificationResultDeepJudgment,
  VerificationResultDeepJudgmentRubric,
} from "../../library-types/index.js";
import { DetailSection, Facts, formatValue, JsonValue, yesNo } from "./parts.js";

function ExcerptList({ excerpts }: { readonly excerpts: readonly Excerpt[] }) {
  if (excerpts.length === 0) return <p>No excerpts.</p>;
  return (
    <ol className="detail-excerpts">
      {excerpts.map((excerpt, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: excerpts are shown in their order
        <li key={index}>
          <blockquote>{excerpt.text}</blockquote>
          <Facts
            entries={[
              ["Confidence", excerpt.confidence],
              ["Similarity", formatValue(excerpt.similarity_score)],
              ["Explanation", excerpt.explanation],
              ["Hallucination risk", excerpt.hallucination_risk],
              ["Justification", excerpt.hallucination_justification],
              [
                "Search results",
                excerpt.search_results === undefined || excerpt.search_results === null ? undefined : (
                  <JsonValue key="search" value={excerpt.search_results} />
                ),
              ],
            ]}
          />
        </li>
      ))}
    </ol>
  );
}

/** Template deep judgment, per attribute: excerpts, reasoning, hallucination risk; then the run's counters. */
export function DeepJudgmentSection({
  judgment,
}: {
  readonly judgment: VerificationResultDeepJudgment | null;
}) {
  if (judgment === null || !judgment.deep_judgment_performed) return null;
  const excerpts = judgment.extracted_excerpts ?? {};
  const reasoning = judgment.attribute_reasoning ?? {};
  const risks = judgment.hallucination_risk_assessment ?? {};
  const attributes = [
    ...new Set([...Object.keys(excerpts), ...Object.keys(reasoning), ...Object.keys(risks)]),
  ];
  const without = judgment.attributes_without_excerpts ?? [];
  return (
    <DetailSection title="Deep Judgment">
      <Facts
        entries={[
          ["Mode", judgment.deep_judgment_mode ?? undefined],
          ["Stages completed", judgment.deep_judgment_stages_completed?.join(", ")],
          ["Model calls", String(judgment.deep_judgment_model_calls)],
          ["Excerpt retries", String(judgment.deep_judgment_excerpt_retry_count)],
          ["Search enabled", yesNo(judgment.deep_judgment_search_enabled)],
          ["Attributes without excerpts", without.length === 0 ? undefined : without.join(", ")],
        ]}
      />
      {attributes.map((name) => (
        <div key={name} className="detail-attribute">
          <h4>Attribute {name}</h4>
          <Facts
            entries={[
              ["Hallucination risk", risks[name]],
              ["Reasoning", reasoning[name]],
            ]}
          />
          {excerpts[name] === undefined ? null : <ExcerptList excerpts={excerpts[name]} />}
        </div>
      ))}
    </DetailSection>
  );
}

/** Rubric deep judgment, per trait: excerpts, reasoning, deep-judgment vs standard score, metadata. */
export function RubricDeepJudgmentSection({
  judgment,
}: {
  readonly judgment: VerificationResultDeepJudgmentRubric | null;
}) {
  if (judgment === null || !judgment.deep_judgment_rubric_performed) return null;
  const excerpts = judgment.extracted_rubric_excerpts ?? {};
  const reasoning = judgment.rubric_trait_reasoning ?? {};
  const scores = judgment.deep_judgment_rubric_scores ?? {};
  const standard = judgment.standard_rubric_scores ?? {};
  const metadata = judgment.trait_metadata ?? {};
  const risks = judgment.rubric_hallucination_risk_assessment ?? {};
  const traits = [...new Set([...Object.keys(scores), ...Object.keys(excerpts), ...Object.keys(reasoning)])];
  const without = judgment.traits_without_valid_excerpts ?? [];
  return (
    <DetailSection title="Rubric Deep Judgment">
      <Facts
        entries={[
          ["Traits evaluated", String(judgment.total_traits_evaluated)],
          ["Model calls", String(judgment.total_deep_judgment_model_calls)],
          ["Excerpt retries", String(judgment.total_excerpt_retries)],
          ["Traits without valid excerpts", without.length === 0 ? undefined : without.join(", ")],
          [
            "Standard scores (other traits)",
            Object.keys(standard).length === 0 ? undefined : <JsonValue key="standard" value={standard} />,
          ],
        ]}
      />
      {traits.map((name) => (
        <div key={name} className="detail-attribute">
          <h4>Trait {name}</h4>
          <Facts
            entries={[
              ["Deep-judgment score", name in scores ? formatValue(scores[name]) : undefined],
              ["Standard score", name in standard ? formatValue(standard[name]) : undefined],
              ["Reasoning", reasoning[name]],
              ["Hallucination risk", risks[name]?.overall_risk],
              [
                "Trait metadata",
                metadata[name] === undefined ? undefined : (
                  <JsonValue key="metadata" value={metadata[name]} />
                ),
              ],
            ]}
          />
          {excerpts[name] === undefined ? null : <ExcerptList excerpts={excerpts[name]} />}
        </div>
      ))}
    </DetailSection>
  );
}
