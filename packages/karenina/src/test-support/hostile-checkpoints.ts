/**
 * Checkpoint text for tests of hostile data: built as text, because a value nested 10,000 levels deep cannot
 * go through JSON.stringify (that is the attack). Hand-written test data in the shape the original writes.
 */

/** JSON text of `[[[…]]]`, `depth` levels deep. */
export const deepArrayJson = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** JSON text of `{"a": {"a": … 1}}`, `depth` levels deep. */
export const deepObjectJson = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** JSON text of a PropertyValue whose value is the given JSON text (`valueJson`, inserted as is). */
export const propertyJson = (name: string, valueJson: string): string =>
  `{"@type": "PropertyValue", "name": ${JSON.stringify(name)}, "value": ${valueJson}}`;

export interface HostileCheckpointParts {
  /** JSON texts of the question's PropertyValues, after `finished`. */
  questionProperties?: readonly string[];
  /** JSON texts of the question's ratings. */
  questionRatings?: readonly string[];
  /** JSON texts of the benchmark-level PropertyValues. */
  rootProperties?: readonly string[];
  /** Extra `"key": value` JSON text inside the question object. */
  questionExtra?: string;
}

/** A one-question checkpoint (`q1`, "What is 2+2?") with the given parts spliced in as JSON text. */
export function hostileCheckpointText(parts: HostileCheckpointParts = {}): string {
  const properties = [propertyJson("finished", "true"), ...(parts.questionProperties ?? [])];
  const ratings = parts.questionRatings?.length ? `, "rating": [${parts.questionRatings.join(", ")}]` : "";
  const root = parts.rootProperties?.length
    ? `, "additionalProperty": [${parts.rootProperties.join(", ")}]`
    : "";
  const extra = parts.questionExtra ? `, ${parts.questionExtra}` : "";
  return `{"@context": {}, "@type": "DataFeed", "name": "hostile", "dateCreated": "2025-01-01T00:00:00",
  "dateModified": "2025-01-01T00:00:00"${root}, "dataFeedElement": [{"@type": "DataFeedItem", "@id": "q1",
  "dateCreated": "2025-01-01T00:00:00", "dateModified": "2025-01-01T00:00:00", "item": {"@type": "Question",
  "text": "What is 2+2?", "acceptedAnswer": {"@type": "Answer", "text": "4"}, "hasPart": {"@type":
  "SoftwareSourceCode", "name": "t", "text": "class Answer: pass", "programmingLanguage": "Python"},
  "additionalProperty": [${properties.join(", ")}]${ratings}${extra}}}]}`;
}

/** JSON text of a question-specific regex trait rating named `name`. */
export const regexRatingJson = (name: string): string =>
  `{"@type": "Rating", "name": ${JSON.stringify(name)}, "description": "Cites a source", "bestRating": 1.0,
  "worstRating": 0.0, "additionalType": "karenina:QuestionSpecificRegexTrait", "additionalProperty": [
  ${propertyJson("pattern", '"\\\\[\\\\d+\\\\]"')}, ${propertyJson("case_sensitive", "true")},
  ${propertyJson("invert_result", "false")}, ${propertyJson("higher_is_better", "true")}]}`;

/** JSON text of a question-specific literal LLM trait rating whose `classes` is the given JSON text. */
export const literalRatingJson = (name: string, classesJson: string): string =>
  `{"@type": "Rating", "name": ${JSON.stringify(name)}, "description": "Tone", "bestRating": 1.0,
  "worstRating": 0.0, "additionalType": "karenina:QuestionSpecificLLMRubricTrait", "additionalProperty": [
  ${propertyJson("kind", '"literal"')}, ${propertyJson("classes", classesJson)}]}`;

/** JSON text of a question-specific template-kind LLM trait rating whose class schema is the given JSON text. */
export const templateRatingJson = (name: string, schemaJson: string): string =>
  `{"@type": "Rating", "name": ${JSON.stringify(name)}, "description": "Steps", "bestRating": 0.0,
  "worstRating": 0.0, "additionalType": "karenina:QuestionSpecificLLMRubricTrait", "additionalProperty": [
  ${propertyJson("kind", `{"type": "template", "schema": ${schemaJson}}`)}]}`;
