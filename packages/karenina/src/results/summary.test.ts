import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { conformancePath, hasConformance, SKIP_REASON } from "../test-support/conformance.js";
import { ORIGINAL_SUMMARY_KEYS, ORIGINAL_TOKEN_KEYS } from "./__fixtures__/original-summary-keys.js";
import { row } from "./__fixtures__/rows.js";
import { passAtK, summarizeResults, type TokenPrice } from "./index.js";

const COMBO = "openai:answerer | openai:judge";

describe("pass rates", () => {
  test("count passed and failed rows (a failure counts, verified or not); completion counts rows without a failure", () => {
    const summary = summarizeResults([
      row({ question: "q1", keywords: ["oncology", "bcl2"], verify: true }),
      row({ question: "q1", keywords: ["oncology", "bcl2"], verify: false }),
      row({ question: "q2", keywords: ["oncology"], failure: { category: "timeout" } }),
      row({ question: "q2", keywords: ["oncology"], verify: true, parsing: "judge2" }),
      row({ question: "q3", keywords: null }),
    ]);
    expect(summary.outcomes).toEqual({
      results: 5,
      passed: 2,
      failed: 2,
      not_evaluated: 1,
      verified: 3,
      pass_rate: 0.5,
      pass_pct: 50,
    });
    expect(summary.template_pass_overall).toEqual({ total: 4, passed: 2, pass_pct: 50, pass_rate: 0.5 });
    expect(summary.template_pass_by_combo).toEqual({
      [COMBO]: { total: 3, passed: 1, pass_pct: (1 / 3) * 100, pass_rate: 1 / 3 },
      "openai:answerer | openai:judge2": { total: 1, passed: 1, pass_pct: 100, pass_rate: 1 },
    });
    expect(summary.completion_by_combo[COMBO]).toEqual({ total: 4, completed: 2, completion_pct: 50 });
    expect(summary.template_pass_by_question.q2).toEqual({
      question_text: "Text of q2",
      total: 2,
      passed: 1,
      failed: 1,
      pass_pct: 50,
      pass_rate: 0.5,
      num_results: 2,
      num_completed: 1,
      completion_pct: 50,
    });
    expect(summary.template_pass_by_question.q3).toMatchObject({ total: 0, pass_pct: 0, num_completed: 1 });
    expect(summary.template_pass_by_keyword.oncology).toMatchObject({ total: 4, passed: 2, num_results: 4 });
    expect(summary.template_pass_by_keyword.bcl2).toMatchObject({ total: 2, passed: 1, num_results: 2 });
    expect(Object.keys(summary.template_pass_by_keyword)).toEqual(["oncology", "bcl2"]);
    expect(summary.failures_by_category).toEqual({ content: 1, timeout: 1 });
    expect(summary.failures_by_group).toEqual({ content: 1, retry: 1 });
    expect(summary).toMatchObject({
      num_results: 5,
      num_completed: 3,
      num_with_template: 3,
      num_questions: 3,
      num_models: 1,
      num_parsing_models: 2,
      num_replicates: 0,
      total_execution_time: 5,
    });
  });
});

describe("replicates and pass@k", () => {
  // q1: 3 replicates, 1 pass; q2: 3 replicates, 3 passes; q3: 2 replicates, 0 passes.
  const verdicts: Record<string, boolean[]> = {
    q1: [true, false, false],
    q2: [true, true, true],
    q3: [false, false],
  };
  const rows = Object.entries(verdicts).flatMap(([question, list]) =>
    list.map((verify, index) => row({ question, verify, replicate: index + 1 })),
  );
  const summary = summarizeResults(rows);

  test("pass@k is the unbiased estimator, per question and averaged over questions with n ≥ k", () => {
    const combo = summary.pass_at_k[COMBO];
    expect(combo?.by_question.q1).toEqual({ n: 3, c: 1, pass_at_k: { 1: 1 / 3, 2: 2 / 3, 3: 1 } });
    expect(combo?.by_question.q3).toEqual({ n: 2, c: 0, pass_at_k: { 1: 0, 2: 0 } });
    expect(combo?.num_questions).toBe(3);
    expect(combo?.questions_at_k).toEqual({ 1: 3, 2: 3, 3: 2 });
    expect(combo?.pass_at_k[1]).toBeCloseTo((1 / 3 + 1 + 0) / 3, 12);
    expect(combo?.pass_at_k[3]).toBe(1);
  });

  test("the estimator agrees with counting every draw of k samples", () => {
    const samples = [true, false, true, false, false];
    for (let k = 1; k <= samples.length; k++) {
      const draws = subsets(samples.length, k);
      const hits = draws.filter((draw) => draw.some((index) => samples[index])).length;
      expect(passAtK(samples.length, 2, k)).toBeCloseTo(hits / draws.length, 12);
    }
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
  });

  test("replicate statistics give each replicate's pass rate, and their mean and sample std", () => {
    expect(summary.num_replicates).toBe(3);
    expect(summary.replicate_stats?.replicate_pass_rates).toEqual({
      1: { total: 3, passed: 2, pass_pct: (2 / 3) * 100, pass_rate: 2 / 3 },
      2: { total: 3, passed: 1, pass_pct: (1 / 3) * 100, pass_rate: 1 / 3 },
      3: { total: 2, passed: 1, pass_pct: 50, pass_rate: 0.5 },
    });
    expect(summary.replicate_stats?.replicate_summary.mean).toBeCloseTo(0.5, 12);
    // sample std of 2/3, 1/3, 1/2: sqrt(((1/6)^2 + (1/6)^2 + 0) / 2) = 1/6
    expect(summary.replicate_stats?.replicate_summary.std).toBeCloseTo(1 / 6, 12);
  });

  test("a single replicate has no replicate statistics", () => {
    expect(summarizeResults([row({ verify: true, replicate: 1 })]).replicate_stats).toBeNull();
    expect(summarizeResults([row({ verify: true })]).replicate_stats).toBeNull();
  });
});

function subsets(n: number, k: number): number[][] {
  if (k === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first <= n - k; first++) {
    for (const rest of subsets(n - first - 1, k - 1)) out.push([first, ...rest.map((i) => i + first + 1)]);
  }
  return out;
}

describe("tokens and cost", () => {
  const rows = [
    row({
      question: "q1",
      usage: {
        answer_generation: { input: 100, output: 50, model: "gpt-4.1" },
        parsing: { input: 20, output: 10, model: "gpt-4.1-mini" },
        rubric_evaluation: { input: 30, output: 5, model: "gpt-4.1-mini" },
      },
    }),
    row({
      question: "q1",
      parsing: "judge2",
      usage: {
        answer_generation: { input: 300, output: 150 },
        deep_judgment_excerpts: { input: 40, output: 8, model: "local-model" },
      },
      judgment: true,
    }),
    row({ question: "q2", usage: null }),
  ];
  const prices: Record<string, TokenPrice> = {
    "gpt-4.1": { input_per_million: 2, output_per_million: 8 },
    "gpt-4.1-mini": { input_per_million: 0.4, output_per_million: 1.6 },
    answerer: { input_per_million: 1, output_per_million: 1 },
  };

  test("sums per stage, per stage family and per combo; medians and stds are over rows with usage", () => {
    const { tokens, tokens_by_combo } = summarizeResults(rows);
    expect(tokens).toMatchObject({
      total_input: 490,
      total_output: 223,
      total_tokens: 713,
      total_input_median: 245,
      total_input_std: 95,
      template_input: 420,
      template_output: 210,
      template_input_median: 210,
      rubric_input: 30,
      rubric_output: 5,
      // The original's lists hold only the non-zero rubric counts: the median is of [30], not [30, 0].
      rubric_input_median: 30,
      rubric_input_std: 0,
      deep_judgment_input: 40,
      deep_judgment_output: 8,
      median_per_question_input: 245,
      median_per_question_input_std: 95,
      median_per_question_output: 111.5,
      median_per_question_output_std: 46.5,
      num_results_with_usage: 2,
    });
    expect(tokens.by_stage).toEqual({
      answer_generation: { input_tokens: 400, output_tokens: 200, total_tokens: 600 },
      parsing: { input_tokens: 20, output_tokens: 10, total_tokens: 30 },
      rubric_evaluation: { input_tokens: 30, output_tokens: 5, total_tokens: 35 },
      deep_judgment_excerpts: { input_tokens: 40, output_tokens: 8, total_tokens: 48 },
    });
    expect(tokens.by_question).toEqual({
      q1: {
        input_tokens: 490,
        output_tokens: 223,
        total_tokens: 713,
        num_results: 2,
        input_median: 245,
        input_std: 95,
        output_median: 111.5,
        output_std: 46.5,
      },
    });
    expect(tokens_by_combo[COMBO]).toEqual({
      input: 150,
      output: 65,
      total: 215,
      num_results: 1,
      input_median: 150,
      input_std: 0,
      output_median: 65,
      output_std: 0,
    });
    expect(summarizeResults(rows).cost).toBeNull();
  });

  test("the deep-judgment token figures are null when no row had deep judgment, as in the original", () => {
    const { tokens } = summarizeResults(rows.slice(0, 1));
    expect([tokens.deep_judgment_input, tokens.deep_judgment_output_std]).toEqual([null, null]);
    expect(tokens.total_input).toBe(150);
  });

  test("cost prices each stage by its recorded model, falling back to the row's models, and lists unpriced ones", () => {
    const cost = summarizeResults(rows, { prices: (model) => prices[model] }).cost;
    const q1Judge = (100 * 2 + 50 * 8 + (20 + 30) * 0.4 + (10 + 5) * 1.6) / 1e6;
    const q1Judge2 = (300 + 150) / 1e6; // answer_generation without a model: the answering model "answerer"
    expect(cost?.total_usd).toBeCloseTo(q1Judge + q1Judge2, 15);
    expect(cost?.input_usd).toBeCloseTo((200 + 50 * 0.4 + 300) / 1e6, 15);
    expect(cost?.by_combo[COMBO]).toBeCloseTo(q1Judge, 15);
    expect(cost?.by_stage.parsing).toBeCloseTo((20 * 0.4 + 10 * 1.6) / 1e6, 15);
    expect(cost?.by_model["local-model"]).toEqual({
      input_tokens: 40,
      output_tokens: 8,
      total_tokens: 48,
      cost_usd: null,
    });
    expect(cost?.unpriced_models).toEqual(["local-model"]);
    expect(cost?.unpriced_tokens).toBe(48);
  });
});

describe("rubric traits", () => {
  const rows = [
    row({
      question: "q1",
      rubric: {
        rubric_evaluation_performed: true,
        llm_trait_scores: { mentions_bcl2: true, clarity: 4, tone: 1, "mechanism.steps": 3 },
        llm_trait_labels: { tone: "neutral" },
        regex_trait_scores: { cites: true },
        callable_trait_scores: { word_count: 120 },
        metric_trait_scores: { entities: { precision: 1, recall: 0.5 } },
        agentic_trait_scores: { finds_file: true },
      },
    }),
    row({
      question: "q2",
      parsing: "judge2",
      rubric: {
        rubric_evaluation_performed: true,
        llm_trait_scores: { mentions_bcl2: false, clarity: 2, tone: 0, "mechanism.steps": 1 },
        llm_trait_labels: { tone: "formal" },
        regex_trait_scores: { cites: false },
        metric_trait_scores: { entities: { precision: 0.5, recall: 1, f1: 0.5 } },
        agentic_trait_scores: { finds_file: null },
      },
    }),
    row({
      question: "q2",
      rubric: {
        rubric_evaluation_performed: true,
        llm_trait_scores: { mentions_bcl2: true, clarity: 3, tone: 1 },
        llm_trait_labels: { tone: "neutral" },
      },
    }),
  ];
  const summary = summarizeResults(rows);

  test("each trait is summarised by its kind of value", () => {
    expect(summary.rubric_scores.llm).toEqual({
      mentions_bcl2: { kind: "boolean", count: 3, true_count: 2, rate: 2 / 3 },
      clarity: { kind: "score", count: 3, mean: 3, min: 2, max: 4 },
      tone: { kind: "literal", count: 3, labels: { neutral: 2, formal: 1 } },
      "mechanism.steps": { kind: "score", count: 2, mean: 2, min: 1, max: 3 },
    });
    expect(summary.rubric_scores.regex.cites).toEqual({
      kind: "boolean",
      count: 2,
      true_count: 1,
      rate: 0.5,
    });
    expect(summary.rubric_scores.callable.word_count).toEqual({
      kind: "score",
      count: 1,
      mean: 120,
      min: 120,
      max: 120,
    });
    expect(summary.rubric_scores.metric.entities).toEqual({
      kind: "metric",
      count: 2,
      metrics: {
        precision: { count: 2, mean: 0.75, min: 0.5, max: 1 },
        recall: { count: 2, mean: 0.75, min: 0.5, max: 1 },
        f1: { count: 1, mean: 0.5, min: 0.5, max: 0.5 },
      },
    });
    expect(summary.rubric_scores.agentic.finds_file).toEqual({
      kind: "boolean",
      count: 1,
      true_count: 1,
      rate: 1,
      null_count: 1,
    });
    expect(summary.rubric_scores_by_combo["openai:answerer | openai:judge2"]?.llm.clarity).toMatchObject({
      count: 1,
      mean: 2,
    });
    expect(summary.num_with_rubric).toBe(3);
  });

  test("traits are counted by evaluation (one per score of each row), as the original counts them", () => {
    // Global (scored for q1 and q2): llm 4 + 4 + 3 scores, regex 2, metric 2, agentic 2 (a null score is an
    // evaluation too); question-specific: word_count, scored once.
    expect(summary.rubric_traits?.global_traits).toEqual({
      llm: { count: 11, names: ["clarity", "mechanism.steps", "mentions_bcl2", "tone"] },
      regex: { count: 2, names: ["cites"] },
      callable: { count: 0, names: [] },
      metric: { count: 2, names: ["entities"] },
      agentic: { count: 2, names: ["finds_file"] },
    });
    expect(summary.rubric_traits?.question_specific_traits.callable).toEqual({
      count: 1,
      names: ["word_count"],
    });
    expect(summary.rubric_traits?.question_specific_traits.llm.count).toBe(0);
  });

  test("no row with rubric scores: rubric_traits is null", () => {
    expect(summarizeResults([row({ verify: true })]).rubric_traits).toBeNull();
  });
});

describe("traces", () => {
  const agent = (iterations: number, counts: Record<string, number>) => ({
    iterations,
    tool_calls: Object.values(counts).reduce((a, b) => a + b, 0),
    tools_used: Object.keys(counts),
    tool_call_counts: counts,
    limit_reached: false,
  });

  test("tool usage and trace lengths count each generated answer once, whatever its number of judges", () => {
    const summary = summarizeResults([
      row({ question: "q1", replicate: 1, agentMetrics: agent(3, { search: 2, fetch: 1 }) }),
      row({
        question: "q1",
        replicate: 1,
        parsing: "judge2",
        agentMetrics: agent(3, { search: 2, fetch: 1 }),
      }),
      row({ question: "q1", replicate: 2, agentMetrics: agent(5, { search: 4 }) }),
      row({ question: "q2", replicate: 1, agentMetrics: { iterations: 1, limit_reached: false } }),
      row({ question: "q3", replicate: 1 }),
    ]);
    expect(summary.tool_usage_stats).toEqual({
      tools: {
        search: { total_calls: 6, traces_using: 2, avg_calls_per_trace: 3 },
        fetch: { total_calls: 1, traces_using: 1, avg_calls_per_trace: 1 },
      },
      total_traces_with_tools: 2,
      total_tool_calls: 7,
    });
    expect(summary.trace_length_stats).toEqual({
      median_iterations: 3,
      mean_iterations: 3,
      std_iterations: Math.sqrt(8 / 3),
      min_iterations: 1,
      max_iterations: 5,
      num_traces: 3,
    });
  });
});

describe.skipIf(!hasConformance)(
  `rows exported by the original (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    test("the full export summarises: both verified and true, but the timeout row is failed, not passed", async () => {
      const document = JSON.parse(
        await readFile(conformancePath("export_format/results_export_full.json"), "utf8"),
      ) as { results: unknown[] };
      const { VerificationResultSet } = await import("./index.js");
      const summary = VerificationResultSet.parse(document.results).getSummary({ prices: () => undefined });
      expect(summary).toMatchObject({
        num_results: 2,
        num_completed: 1,
        num_with_template: 2,
        num_questions: 2,
        num_models: 1,
        num_replicates: 0,
        total_execution_time: 0.5,
        failures_by_category: { timeout: 1 },
        template_pass_overall: { total: 2, passed: 1, pass_pct: 50, pass_rate: 0.5 },
        outcomes: { passed: 1, failed: 1, not_evaluated: 0, verified: 2 },
        rubric_traits: null,
        tool_usage_stats: null,
        trace_length_stats: null,
        completion_by_combo: {
          "langchain:gpt-4o | langchain:gpt-4o": { total: 2, completed: 1, completion_pct: 50 },
        },
        replicate_stats: null,
        tokens: { total_input: 0, num_results_with_usage: 0, by_stage: {} },
        cost: { total_usd: 0, unpriced_models: [] },
      });
      expect(summary.pass_at_k["langchain:gpt-4o | langchain:gpt-4o"]?.pass_at_k).toEqual({ 1: 0.5 });
      expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
    });
  },
);

describe("the shape of the original's get_summary() (spec 06 §3.1)", () => {
  const summary = summarizeResults([
    row({
      question: "q1",
      replicate: 1,
      verify: true,
      usage: { answer_generation: { input: 10, output: 5 } },
      rubric: { rubric_evaluation_performed: true, llm_trait_scores: { clarity: 4 } },
      agentMetrics: { iterations: 2, tool_calls: 1, tool_call_counts: { search: 1 }, limit_reached: false },
    }),
    row({ question: "q1", replicate: 2, verify: false }),
  ]);

  test("its keys come first, in its order; ours follow under their own names", () => {
    expect(Object.keys(summary).slice(0, ORIGINAL_SUMMARY_KEYS.length)).toEqual(ORIGINAL_SUMMARY_KEYS);
    expect(Object.keys(summary.tokens).slice(0, ORIGINAL_TOKEN_KEYS.length)).toEqual(ORIGINAL_TOKEN_KEYS);
  });

  test("each section has the original's keys", () => {
    expect(Object.keys(summary.tokens_by_combo[COMBO] ?? {}).slice(0, 3)).toEqual([
      "input",
      "output",
      "total",
    ]);
    expect(Object.keys(summary.completion_by_combo[COMBO] ?? {})).toEqual([
      "total",
      "completed",
      "completion_pct",
    ]);
    expect(Object.keys(summary.rubric_traits ?? {})).toEqual(["global_traits", "question_specific_traits"]);
    expect(Object.keys(summary.rubric_traits?.global_traits ?? {})).toEqual([
      "llm",
      "regex",
      "callable",
      "metric",
      "agentic",
    ]);
    expect(summary.rubric_traits?.global_traits.llm.count).toBe(1);
    expect(Object.keys(summary.template_pass_overall ?? {}).slice(0, 3)).toEqual([
      "total",
      "passed",
      "pass_pct",
    ]);
    expect(Object.keys(summary.replicate_stats ?? {})).toEqual(["replicate_pass_rates", "replicate_summary"]);
    expect(Object.keys(summary.replicate_stats?.replicate_pass_rates[1] ?? {})).toEqual([
      "total",
      "passed",
      "pass_pct",
      "pass_rate",
    ]);
    expect(Object.keys(summary.replicate_stats?.replicate_summary ?? {})).toEqual(["mean", "std"]);
    expect(Object.keys(summary.tool_usage_stats ?? {})).toEqual([
      "tools",
      "total_traces_with_tools",
      "total_tool_calls",
    ]);
    expect(Object.keys(summary.tool_usage_stats?.tools.search ?? {})).toEqual([
      "total_calls",
      "traces_using",
      "avg_calls_per_trace",
    ]);
    expect(Object.keys(summary.trace_length_stats ?? {})).toEqual([
      "median_iterations",
      "mean_iterations",
      "std_iterations",
      "min_iterations",
      "max_iterations",
      "num_traces",
    ]);
  });

  test("an empty list has the original's nulls", () => {
    expect(summarizeResults([])).toMatchObject({
      num_results: 0,
      rubric_traits: null,
      template_pass_by_combo: null,
      template_pass_overall: null,
      replicate_stats: null,
      tool_usage_stats: null,
      trace_length_stats: null,
      tokens: { total_input: 0, deep_judgment_input: null, median_per_question_input: 0 },
    });
  });
});
