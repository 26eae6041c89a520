import type { VerificationResultTemplate } from "../../library-types/index.js";
import { DetailSection, Facts, formatValue, hasEntries, JsonValue, Verdict, yesNo } from "./parts.js";

type Template = VerificationResultTemplate;

/** Field names of the extraction: the ground truth's (besides `correct`) and the extracted ones, in order. */
function fieldNames(template: Template): string[] {
  const names = new Set<string>();
  const correct = template.parsed_gt_response?.correct;
  for (const name of Object.keys(template.parsed_gt_response ?? {})) if (name !== "correct") names.add(name);
  if (typeof correct === "object" && correct !== null)
    for (const name of Object.keys(correct)) names.add(name);
  for (const name of Object.keys(template.parsed_llm_response ?? {})) names.add(name);
  for (const name of Object.keys(template.field_results ?? {})) names.add(name);
  return [...names];
}

function groundTruthOf(template: Template, name: string): unknown {
  const gt = template.parsed_gt_response;
  if (gt === null) return undefined;
  if (name in gt) return gt[name];
  const correct = gt.correct;
  return typeof correct === "object" && correct !== null
    ? (correct as Record<string, unknown>)[name]
    : undefined;
}

/** Ground truth next to the LLM's extraction, per field, with the per-field verdict and score when present. */
export function ExtractionSection({ template }: { readonly template: Template }) {
  if (template.parsed_gt_response === null && template.parsed_llm_response === null) return null;
  const names = fieldNames(template);
  const withResults = template.field_results !== null;
  const withScores = template.field_scores !== null;
  return (
    <DetailSection title="Ground Truth vs LLM Extraction">
      {names.length === 0 ? (
        <p>No fields were extracted.</p>
      ) : (
        <table className="detail-table">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Ground truth</th>
              <th scope="col">LLM extraction</th>
              {withResults ? <th scope="col">Field result</th> : null}
              {withScores ? <th scope="col">Field score</th> : null}
            </tr>
          </thead>
          <tbody>
            {names.map((name) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  <JsonValue value={groundTruthOf(template, name)} />
                </td>
                <td>
                  <JsonValue value={template.parsed_llm_response?.[name]} />
                </td>
                {withResults ? (
                  <td>
                    {name in (template.field_results ?? {}) ? (
                      <Verdict passed={template.field_results?.[name]} />
                    ) : (
                      "—"
                    )}
                  </td>
                ) : null}
                {withScores ? <td>{formatValue(template.field_scores?.[name])}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </DetailSection>
  );
}

/** The template's verdict, partial credit and how the fields were combined. */
export function VerifySection({ template }: { readonly template: Template }) {
  if (!template.template_verification_performed && template.verify_result === null) return null;
  const granular = template.verify_granular_result;
  return (
    <DetailSection title="Verification">
      <Facts
        entries={[
          ["Verify result", <Verdict key="v" passed={template.verify_result} />],
          [
            "Granular result",
            granular === null || granular === undefined ? undefined : formatValue(granular),
          ],
          ["Composition", template.composition_strategy ?? undefined],
          ["Field verification error", template.field_verification_error ?? undefined],
          ["Dynamic parse decision", template.dynamic_parse_decision ?? undefined],
          ["Dynamic decision reasoning", template.dynamic_decision_reasoning ?? undefined],
          ["Agentic extraction error", template.agentic_extraction_error ?? undefined],
          ["Agentic extraction recovery", template.agentic_extraction_recovery ?? undefined],
        ]}
      />
    </DetailSection>
  );
}

/** Regex expectations (pass/fail per name, with details) and what the regexes extracted. */
export function RegexSection({ template }: { readonly template: Template }) {
  if (!template.regex_validations_performed && !hasEntries(template.regex_extraction_results)) return null;
  const results = template.regex_validation_results ?? {};
  const details = template.regex_validation_details ?? {};
  return (
    <DetailSection title="Regex Checks">
      <Facts entries={[["Overall", <Verdict key="o" passed={template.regex_overall_success} />]]} />
      {Object.keys(results).length === 0 ? null : (
        <table className="detail-table">
          <thead>
            <tr>
              <th scope="col">Expectation</th>
              <th scope="col">Result</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(results).map(([name, passed]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  <Verdict passed={passed} />
                </td>
                <td>{details[name] === undefined ? "—" : <JsonValue value={details[name]} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {hasEntries(template.regex_extraction_results) ? (
        <>
          <h4>Regex extraction</h4>
          <JsonValue value={template.regex_extraction_results} />
        </>
      ) : null}
    </DetailSection>
  );
}

/** The embedding similarity check: score, model and whether it overrode the verdict. */
export function EmbeddingSection({ template }: { readonly template: Template }) {
  if (!template.embedding_check_performed) return null;
  return (
    <DetailSection title="Embedding Check">
      <Facts
        entries={[
          ["Similarity score", formatValue(template.embedding_similarity_score)],
          ["Model", template.embedding_model_used ?? "—"],
          ["Override applied", yesNo(template.embedding_override_applied)],
        ]}
      />
    </DetailSection>
  );
}

/** Abstention and sufficiency checks: verdict, override and the judge's reasoning. */
export function AbstentionSection({ template }: { readonly template: Template }) {
  const abstention = template.abstention_check_performed;
  const sufficiency = template.sufficiency_check_performed;
  if (!abstention && !sufficiency) return null;
  return (
    <DetailSection title="Abstention and Sufficiency">
      {abstention ? (
        <>
          <h4>Abstention</h4>
          <Facts
            entries={[
              [
                "Verdict",
                template.abstention_detected === null
                  ? "Not determined"
                  : template.abstention_detected
                    ? "Abstained"
                    : "Did not abstain",
              ],
              ["Override applied", yesNo(template.abstention_override_applied)],
              ["Reasoning", template.abstention_reasoning ?? undefined],
            ]}
          />
        </>
      ) : null}
      {sufficiency ? (
        <>
          <h4>Sufficiency</h4>
          <Facts
            entries={[
              [
                "Verdict",
                template.sufficiency_detected === null
                  ? "Not determined"
                  : template.sufficiency_detected
                    ? "Sufficient"
                    : "Insufficient",
              ],
              ["Override applied", yesNo(template.sufficiency_override_applied)],
              ["Reasoning", template.sufficiency_reasoning ?? undefined],
            ]}
          />
        </>
      ) : null}
    </DetailSection>
  );
}
