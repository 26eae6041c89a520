/**
 * The keys of the original's `get_summary()` (spec 06 §3.1), in its order, as read from the spec and the
 * original's `VerificationResultSet.get_summary()`: reference data for the summary tests.
 */
export const ORIGINAL_SUMMARY_KEYS = [
  "num_results",
  "num_completed",
  "num_with_template",
  "num_with_rubric",
  "num_with_judgment",
  "num_questions",
  "num_models",
  "num_parsing_models",
  "num_replicates",
  "total_execution_time",
  "tokens",
  "tokens_by_combo",
  "completion_by_combo",
  "rubric_traits",
  "template_pass_by_combo",
  "template_pass_overall",
  "replicate_stats",
  "tool_usage_stats",
  "trace_length_stats",
];

/** The keys of its `tokens` section, in its order. */
export const ORIGINAL_TOKEN_KEYS = [
  "total_input",
  "total_input_std",
  "total_output",
  "total_output_std",
  "template_input",
  "template_input_std",
  "template_output",
  "template_output_std",
  "rubric_input",
  "rubric_input_std",
  "rubric_output",
  "rubric_output_std",
  "deep_judgment_input",
  "deep_judgment_input_std",
  "deep_judgment_output",
  "deep_judgment_output_std",
  "median_per_question_input",
  "median_per_question_input_std",
  "median_per_question_output",
  "median_per_question_output_std",
];
