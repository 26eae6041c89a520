/**
 * Result rows for the storage tests. Hand-written test data, not the output of any model or run: every
 * section is filled (template with usage and agent metrics, rubric of every kind, template and rubric deep
 * judgment) so that a save → load round trip has something to lose.
 */
import { Benchmark } from "../../benchmark/index.js";
import { parseVerificationResult, resultId, type VerificationResult } from "../../results/index.js";

const answering = { interface: "openai_endpoint", model_name: "gpt-4.1-mini", tools: ["pubmed"], config_id: "agent" };
const parsing = { interface: "openai_endpoint", model_name: "judge-mini", tools: [], config_id: null };

/** The options of {@link richResult}. */
export interface RichResultOptions {
  questionId: string;
  questionText?: string;
  replicate?: number | null;
  passed?: boolean;
  answeringModel?: string;
  timestamp?: string;
  runName?: string | null;
}

/** A result with template, rubric and both deep-judgment sections filled in. */
export function richResult(options: RichResultOptions): VerificationResult {
  const timestamp = options.timestamp ?? "2026-04-21 12:00:00";
  const replicate = options.replicate ?? null;
  const answeringModel = { ...answering, model_name: options.answeringModel ?? answering.model_name };
  const passed = options.passed ?? true;
  return parseVerificationResult({
    metadata: {
      question_id: options.questionId,
      template_id: "5d41402abc4b2a76b9719d911017c592",
      failure: passed
        ? null
        : { category: "content", stage: "verify_template", reason: "target: expected BCL2, found MCL1" },
      caveats: passed ? [] : ["retries_used"],
      warnings: ["answer trimmed to the final message"],
      retry_counts: {
        connection: { used: 0, budget: 3 },
        timeout: { used: 0, budget: 3 },
        rate_limit: { used: passed ? 0 : 1, budget: 3 },
        server_error: { used: 0, budget: 3 },
      },
      question_text: options.questionText ?? `Quelle est la cible de ${options.questionId} ? 靶点是什么？`,
      raw_answer: "BCL2",
      keywords: ["oncology", "apoptosis"],
      answering: answeringModel,
      parsing,
      answering_system_prompt: "You are an expert pharmacologist.",
      execution_time: 2.75,
      timestamp,
      result_id: resultId({ answering: answeringModel, parsing, question_id: options.questionId, replicate, timestamp }),
      run_name: options.runName ?? "nightly",
      replicate,
      few_shot_enabled: true,
      few_shot_example_count: 2,
      evaluation_mode: "template_and_rubric",
    },
    template: {
      raw_llm_response: "Venetoclax inhibits BCL2 — the anti-apoptotic protein.",
      trace_messages: [{ role: "assistant", content: "Venetoclax inhibits BCL2.", block_index: 0 }],
      conversation_context: [{ role: "user", content: "What is the target of venetoclax?" }],
      parsed_gt_response: { target: "BCL2", correct: { target: "BCL2" } },
      parsed_llm_response: { target: passed ? "BCL2" : "MCL1" },
      template_verification_performed: true,
      verify_result: passed,
      verify_granular_result: passed ? 1 : 0.25,
      field_results: { target: passed },
      field_scores: { target: passed ? 1 : 0 },
      composition_strategy: "all_of",
      embedding_check_performed: true,
      embedding_similarity_score: 0.875,
      embedding_model_used: "all-MiniLM-L6-v2",
      regex_validations_performed: true,
      regex_validation_results: { gene_symbol: true },
      regex_validation_details: { gene_symbol: { matches_found: ["BCL2"], pattern: "[A-Z0-9]+" } },
      regex_overall_success: true,
      regex_extraction_results: { gene_symbol: ["BCL2"] },
      answering_mcp_servers: ["pubmed"],
      usage_metadata: {
        answer_generation: {
          input_tokens: 120,
          output_tokens: 40,
          total_tokens: 160,
          model: "gpt-4.1-mini",
          input_token_details: { audio: 0, cache_read: 64 },
          output_token_details: { audio: 0, reasoning: 12 },
        },
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
      metric_trait_scores: { coverage: { precision: 1, recall: 0.5, f1: 0.6666666666666666 } },
      metric_trait_confusion_lists: { coverage: { tp: ["BCL2"], fn: ["BAX"], fp: [], tn: [] } },
      agentic_trait_scores: { looked_up_sources: true, failed_trait: null },
      agentic_trait_investigation_traces: { looked_up_sources: "searched PubMed twice" },
      agentic_trait_extraction_metadata: {
        looked_up_sources: { method: "local_json", local_json_error: null, parser_error: null },
      },
      trait_provenance: { clarity: "global", safe: "global", tone: "question_specific" },
    },
    deep_judgment: {
      deep_judgment_mode: "full",
      deep_judgment_performed: true,
      extracted_excerpts: {
        target: [
          {
            text: "Venetoclax inhibits BCL2",
            confidence: "high",
            similarity_score: 0.98,
            hallucination_risk: "low",
            hallucination_justification: "stated in the label",
          },
        ],
      },
      attribute_reasoning: { target: "The answer names BCL2 as the inhibited protein." },
      deep_judgment_stages_completed: ["excerpts", "reasoning", "parameters"],
      deep_judgment_model_calls: 3,
      deep_judgment_excerpt_retry_count: 1,
      attributes_without_excerpts: [],
      deep_judgment_search_enabled: true,
      hallucination_risk_assessment: { target: "low" },
    },
    deep_judgment_rubric: {
      deep_judgment_rubric_performed: true,
      extracted_rubric_excerpts: {
        clarity: [{ text: "inhibits BCL2", confidence: "medium", similarity_score: 0.9 }],
      },
      rubric_trait_reasoning: { clarity: "Direct and short." },
      deep_judgment_rubric_scores: { clarity: 4 },
      standard_rubric_scores: { safe: true },
      trait_metadata: { clarity: { stages_completed: ["excerpt_extraction", "reasoning"], model_calls: 2 } },
      traits_without_valid_excerpts: [],
      rubric_hallucination_risk_assessment: { clarity: { overall_risk: "none", per_excerpt_risks: ["none"] } },
      total_deep_judgment_model_calls: 2,
      total_traits_evaluated: 1,
      total_excerpt_retries: 0,
    },
    evaluation_input: "Venetoclax inhibits BCL2.",
    used_full_trace: false,
    trace_extraction_error: null,
  });
}

/** A result that failed before any template verification (a timeout): no template, rubric or judgment. */
export function timedOutResult(questionId: string, timestamp = "2026-04-21 12:00:05"): VerificationResult {
  return parseVerificationResult({
    metadata: {
      question_id: questionId,
      template_id: "no_template",
      failure: { category: "timeout", stage: "generate_answer", reason: "no answer within 60 s", details: { after_s: 60 } },
      question_text: `Question ${questionId}`,
      answering,
      parsing,
      execution_time: 60.5,
      timestamp,
      result_id: resultId({ answering, parsing, question_id: questionId, timestamp }),
    },
    template: null,
  });
}

/**
 * `count` results over the questions in turn, each with its own result id (the replicate number makes it so),
 * every third one failing.
 */
export function manyResults(questionIds: readonly string[], count: number, options: { answeringModel?: string } = {}) {
  return Array.from({ length: count }, (_, index) =>
    richResult({
      questionId: questionIds[index % questionIds.length] as string,
      replicate: index + 1,
      passed: index % 3 !== 2,
      ...options,
    }),
  );
}

/** The questions of {@link threeQuestionBenchmark}. */
export const THREE_QUESTIONS = ["q1", "q2", "q3"] as const;

/** A benchmark "bench" of the three questions q1–q3. */
export function threeQuestionBenchmark(): Benchmark {
  const bench = Benchmark.create({ name: "bench", version: "1.0.0" });
  for (const id of THREE_QUESTIONS) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  return bench;
}

/** `passes` rich rows over q1–q3 (one in four failing), with replicates, then a timed-out row of q2. */
export function mixedResults(rows: number): VerificationResult[] {
  const out: VerificationResult[] = [];
  for (let i = 0; i < rows; i++)
    out.push(richResult({ questionId: THREE_QUESTIONS[i % 3] as string, replicate: i + 1, passed: i % 4 !== 0 }));
  out.push(timedOutResult("q2"));
  return out;
}
