// Hand-written test data: the parts of a ResultSummary and a comparison the panel reads (two answering models,
// one judge, one run). Sections the panel does not read are left out, hence the casts.
import type { HeatmapQuestion, ResultSummary } from "../../library-types/index.js";

const tokens = (input: number, output: number) => ({
  input,
  output,
  total: input + output,
  num_results: 2,
  input_median: input / 2,
  input_std: 1,
  output_median: output / 2,
  output_std: 0.5,
});

export function twoModelSummary(): ResultSummary {
  return {
    num_results: 4,
    num_completed: 3,
    num_with_template: 4,
    num_with_rubric: 0,
    num_with_judgment: 0,
    num_questions: 2,
    num_models: 2,
    num_parsing_models: 1,
    num_replicates: 0,
    total_execution_time: 12.5,
    tokens: { total_tokens: 1234, total_input_median: 100, total_output_median: 20 },
    tokens_by_combo: {
      "openai:gpt-4.1 | openai:judge": tokens(200, 40),
      "openai:mini +[files] | openai:judge | files": tokens(900, 94),
    },
    completion_by_combo: {
      "openai:gpt-4.1 | openai:judge": { total: 2, completed: 2, completion_pct: 100 },
      "openai:mini +[files] | openai:judge | files": { total: 2, completed: 1, completion_pct: 50 },
    },
    rubric_traits: null,
    template_pass_by_combo: {
      "openai:gpt-4.1 | openai:judge": { total: 2, passed: 2, pass_pct: 100, pass_rate: 1 },
      "openai:mini +[files] | openai:judge | files": { total: 2, passed: 0, pass_pct: 0, pass_rate: 0 },
    },
    template_pass_overall: { total: 4, passed: 2, pass_pct: 50, pass_rate: 0.5 },
    replicate_stats: null,
    outcomes: { results: 4, passed: 2, failed: 2, not_evaluated: 0, verified: 4, pass_rate: 0.5, pass_pct: 50 },
    failures_by_category: { content: 1, abstention: 1 },
    cost: null,
  } as unknown as ResultSummary;
}

const cell = (result_id: string, passed: boolean | null, extra: Partial<Record<string, unknown>> = {}) => ({
  result_id,
  replicate: null,
  passed,
  abstained: false,
  insufficient: false,
  error: false,
  execution_type: "Standard" as const,
  input_tokens: 1000,
  output_tokens: 234,
  iterations: 0,
  ...extra,
});

/** Two questions × two models; q2 has no row of the second model. */
export function heatmapQuestions(): HeatmapQuestion[] {
  return [
    {
      question_id: "q1",
      question_text: "Which drug inhibits BCL2?",
      keywords: [],
      results_by_model: {
        "openai:gpt-4.1": { replicates: [cell("r-a1", true)] },
        "openai:mini +[files]": { replicates: [cell("r-b1", false, { abstained: true, error: true })] },
      },
    },
    {
      question_id: "q2",
      question_text: "Which protein does imatinib inhibit?",
      keywords: [],
      results_by_model: {
        "openai:gpt-4.1": { replicates: [cell("r-a2", null, { error: true })] },
        "openai:mini +[files]": { replicates: [] },
      },
    },
  ];
}
