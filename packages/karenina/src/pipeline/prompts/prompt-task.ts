/**
 * One name per distinct judge-side or answering LLM call (spec 04 §2.5): user instructions and adapter
 * additions are looked up by it.
 */
export const PROMPT_TASKS = [
  "generation",
  "parsing",
  "agentic_parsing_investigation",
  "agentic_parsing_extraction",
  "agentic_parsing_decision",
  "abstention_detection",
  "sufficiency_detection",
  "rubric_llm_trait_batch",
  "rubric_llm_trait_single",
  "rubric_llm_trait_template",
  "rubric_literal_trait_batch",
  "rubric_literal_trait_single",
  "rubric_metric_trait",
  "dj_template_excerpt_extraction",
  "dj_template_hallucination",
  "dj_template_reasoning",
  "dj_template_reasoning_only",
  "dj_rubric_excerpt_extraction",
  "dj_rubric_hallucination",
  "dj_rubric_reasoning",
  "dj_rubric_score_extraction",
  "rubric_agentic_trait_investigation",
  "rubric_agentic_trait_extraction",
  "rubric_dynamic_presence_check",
] as const;
export type PromptTask = (typeof PROMPT_TASKS)[number];
