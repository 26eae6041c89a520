import type { FloatSpec } from "../../python-repr/index.js";

// ---------------------------------------------------------------------------------------------------------
// Float fields (spec 06 §1, §2.1). Everything else that is a `number` in the schema is an int in the
// original (token counts, retries, calls, indices), or can be either (callable and LLM trait scores,
// `agentic_trait_scores`, free-form objects such as parsed responses), in which case an integral value is
// written as an int.

const excerpts: FloatSpec = { "*": { "*": { similarity_score: true } } };

/**
 * The float fields of a result row: `execution_time`, `verify_granular_result` (a score, `float` in
 * practice), `field_scores`, `embedding_similarity_score`, metric trait scores and excerpt similarity scores.
 */
export const ROW_FLOATS: FloatSpec = {
  metadata: { execution_time: true },
  template: { verify_granular_result: true, field_scores: true, embedding_similarity_score: true },
  rubric: { metric_trait_scores: true },
  deep_judgment: { extracted_excerpts: excerpts },
  deep_judgment_rubric: { extracted_rubric_excerpts: excerpts },
};

const models: FloatSpec = { "*": { temperature: true } };

/** The float fields of an export's header: model temperatures, job timestamps and duration, trait thresholds. */
export const HEADER_FLOATS: FloatSpec = {
  metadata: {
    verification_config: { answering_models: models, parsing_models: models },
    job_summary: { start_time: true, end_time: true, total_duration: true },
  },
  shared_data: { rubric_definition: { "*": { "*": { deep_judgment_fuzzy_match_threshold: true } } } },
};

/**
 * A `scenario_results` record (spec 08 §6.3): no field is always a float. Outcome values are bool, int or
 * float and parsed fields are free-form, so an integral number is written as an int there (as in rows).
 */
export const SCENARIO_FLOATS: FloatSpec = {};
