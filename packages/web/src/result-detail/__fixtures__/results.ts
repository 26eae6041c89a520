/**
 * Result rows for the detail tests. Hand-written test data (shaped after the storage tests' `richResult`), not
 * the output of any model or run: every section is filled so that each part of the detail has something to show.
 */
import type { VerificationResult } from "../../library-types/index.js";

const answering = { interface: "openai_endpoint", model_name: "gpt-4.1-mini", tools: ["pubmed"], config_id: "agent" };
const parsing = { interface: "openai_endpoint", model_name: "judge-mini", tools: [], config_id: null };

const noRetries = {
  connection: { used: 0, budget: 3 },
  timeout: { used: 0, budget: 3 },
  rate_limit: { used: 1, budget: 3 },
  server_error: { used: 0, budget: 3 },
};

/** A failed result with template, rubric and both deep-judgment sections filled in. Hand-written test data. */
export function richResult(): VerificationResult {
  return {
    metadata: {
      question_id: "q-venetoclax",
      template_id: "5d41402abc4b2a76b9719d911017c592",
      failure: { category: "content", stage: "verify_template", reason: "target: expected BCL2, found MCL1", details: null, group: "content" },
      caveats: ["retries_used"],
      warnings: ["answer trimmed to the final message"],
      partial_content: null,
      retry_counts: noRetries,
      question_text: "What is the target of venetoclax? 靶点是什么？",
      raw_answer: "BCL2",
      keywords: ["oncology", "apoptosis"],
      answering,
      parsing,
      answering_system_prompt: "You are an expert pharmacologist.",
      parsing_system_prompt: "Extract the target.",
      execution_time: 2.75,
      timestamp: "2026-04-21 12:00:00",
      result_id: "ccb35805790e357a",
      run_name: "nightly",
      replicate: 2,
      few_shot_enabled: true,
      few_shot_example_count: 2,
      evaluation_mode: "template_and_rubric",
      scenario_id: null,
      scenario_node: null,
      scenario_turn: null,
      scenario_path: null,
    },
    template: {
      raw_llm_response:
        "--- AI Message ---\nLet me search.\n--- Tool Message (call_id: call_1) ---\nMCL1 and BCL2 hits\n--- AI Message ---\nVenetoclax inhibits MCL1.",
      trace_messages: [],
      conversation_context: [{ role: "user", content: "What is the target of venetoclax?" }],
      parsed_gt_response: { target: "BCL2", correct: { target: "BCL2", mechanism: "inhibitor" } },
      parsed_llm_response: { target: "MCL1", mechanism: "inhibitor" },
      template_verification_performed: true,
      verify_result: false,
      verify_granular_result: 0.5,
      field_verification_error: null,
      field_results: { target: false, mechanism: true },
      field_scores: { target: 0, mechanism: 1 },
      composition_strategy: "all_of",
      embedding_check_performed: true,
      embedding_similarity_score: 0.875,
      embedding_override_applied: false,
      embedding_model_used: "all-MiniLM-L6-v2",
      regex_validations_performed: true,
      regex_validation_results: { gene_symbol: true },
      regex_validation_details: { gene_symbol: { matches_found: ["MCL1"], pattern: "[A-Z0-9]+" } },
      regex_overall_success: true,
      regex_extraction_results: { gene_symbol: ["MCL1"] },
      recursion_limit_reached: false,
      response_timeout_partial: false,
      usage_unavailable: false,
      investigation_trace: null,
      agentic_parsing_performed: false,
      agentic_extraction_recovery: null,
      agentic_extraction_error: null,
      dynamic_parsing_performed: false,
      dynamic_parse_decision: null,
      dynamic_decision_reasoning: null,
      abstention_check_performed: true,
      abstention_detected: false,
      abstention_override_applied: false,
      abstention_reasoning: "The model gave a direct answer.",
      sufficiency_check_performed: true,
      sufficiency_detected: true,
      sufficiency_override_applied: false,
      sufficiency_reasoning: "Names one protein.",
      answering_mcp_servers: ["pubmed"],
      usage_metadata: {
        answer_generation: { input_tokens: 120, output_tokens: 40, total_tokens: 160, model: "gpt-4.1-mini" },
        parsing: { input_tokens: 300, output_tokens: 20, total_tokens: 320, model: "judge-mini" },
        total: { input_tokens: 420, output_tokens: 60, total_tokens: 480 },
      },
      agent_metrics: {
        iterations: 3,
        tool_calls: 2,
        tools_used: ["pubmed_search"],
        tool_call_counts: { pubmed_search: 2 },
        suspect_failed_tool_calls: 0,
        suspect_failed_tools: [],
        limit_reached: false,
      },
    },
    rubric: {
      rubric_evaluation_performed: true,
      rubric_evaluation_strategy: "batch",
      llm_trait_scores: { clarity: 4, safe: true, tone: 2 },
      llm_trait_labels: { tone: "neutral" },
      regex_trait_scores: { cites_pmid: false },
      callable_trait_scores: { short_enough: true },
      metric_trait_scores: { coverage: { precision: 1, recall: 0.5 } },
      metric_trait_confusion_lists: { coverage: { tp: ["BCL2"], fn: ["BAX"], fp: [], tn: [] } },
      agentic_trait_scores: { looked_up_sources: true },
      agentic_trait_investigation_traces: { looked_up_sources: "searched PubMed twice" },
      agentic_trait_extraction_metadata: {
        looked_up_sources: { method: "local_json", local_json_error: null, parser_error: null },
      },
      dynamic_rubric_skipped_traits: null,
      dynamic_rubric_promoted_traits: null,
      trait_provenance: { clarity: "global", safe: "global", tone: "question_specific" },
    },
    deep_judgment: {
      deep_judgment_mode: "full",
      deep_judgment_performed: true,
      extracted_excerpts: {
        target: [
          {
            text: "Venetoclax inhibits MCL1",
            confidence: "high",
            similarity_score: 0.98,
            search_results: [{ title: "BCL2 inhibitors", url: "https://example.org/bcl2" }],
            hallucination_risk: "high",
            hallucination_justification: "the label says BCL2",
          },
        ],
      },
      attribute_reasoning: { target: "The answer names MCL1 as the inhibited protein." },
      deep_judgment_stages_completed: ["excerpts", "reasoning", "parameters"],
      deep_judgment_model_calls: 3,
      deep_judgment_excerpt_retry_count: 1,
      attributes_without_excerpts: ["mechanism"],
      deep_judgment_search_enabled: true,
      hallucination_risk_assessment: { target: "high" },
    },
    deep_judgment_rubric: {
      deep_judgment_rubric_performed: true,
      extracted_rubric_excerpts: { clarity: [{ text: "inhibits MCL1", confidence: "medium", similarity_score: 0.9 }] },
      rubric_trait_reasoning: { clarity: "Direct and short." },
      deep_judgment_rubric_scores: { clarity: 4 },
      standard_rubric_scores: { safe: true },
      trait_metadata: { clarity: { model_calls: 2 } },
      traits_without_valid_excerpts: [],
      rubric_hallucination_risk_assessment: { clarity: { overall_risk: "low", per_excerpt_risks: ["low"] } },
      total_deep_judgment_model_calls: 2,
      total_traits_evaluated: 1,
      total_excerpt_retries: 0,
    },
    evaluation_input: "Venetoclax inhibits MCL1.",
    used_full_trace: false,
    trace_extraction_error: null,
  };
}

/** A result that timed out before any template verification: no template, rubric or judgment. Hand-written. */
export function timedOutResult(): VerificationResult {
  const rich = richResult();
  return {
    metadata: {
      ...rich.metadata,
      template_id: "no_template",
      failure: { category: "timeout", stage: "generate_answer", reason: "no answer within 60 s", details: { after_s: 60 }, group: "retry" },
      caveats: [],
      warnings: [],
      raw_answer: null,
      answering_system_prompt: null,
      parsing_system_prompt: null,
      retry_counts: null,
    },
    template: null,
    rubric: null,
    deep_judgment: null,
    deep_judgment_rubric: null,
    evaluation_input: null,
    used_full_trace: true,
    trace_extraction_error: null,
  };
}
