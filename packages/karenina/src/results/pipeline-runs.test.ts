/**
 * Summary and comparison of rows the pipeline really produced: two runs over HTTP against a scripted
 * OpenAI-compatible server on 127.0.0.1. Every reply below (answers, judge extractions, rubric scores) is
 * hand-written test data, not output of any model.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseRubric } from "../model/index.js";
import { type PipelineQuestion, parseVerificationConfig, runVerification } from "../pipeline/index.js";
import {
  type OpenAiTestServer,
  type ScriptRule,
  startOpenAiServer,
} from "../test-support/openai-server/index.js";
import { compareRuns, VerificationResultSet } from "./index.js";

const template = (
  truth: string,
) => `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='${truth}', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const BCL2 = "Which drug inhibits BCL2?";
const BTK = "Which drug inhibits BTK?";

function question(id: string, text: string, truth: string, keywords: string[]): PipelineQuestion {
  return {
    id,
    text,
    rawAnswer: truth,
    template: { code: template(truth), language: "Python" },
    keywords,
    fewShotExamples: [],
    rubric: null,
    dynamicRubric: null,
    workspacePath: null,
  };
}

const QUESTIONS = [
  question("q-bcl2", BCL2, "venetoclax", ["oncology", "apoptosis"]),
  question("q-btk", BTK, "ibrutinib", ["oncology", "kinase"]),
];

const RUBRIC = parseRubric({
  llm_traits: [
    { name: "names_target", kind: "boolean", description: "Names the molecular target" },
    { name: "clarity", kind: "score", description: "How clear the answer is" },
  ],
  regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }],
});

const ANSWER_USAGE = { prompt_tokens: 100, completion_tokens: 20 };
const JUDGE_USAGE = { prompt_tokens: 50, completion_tokens: 10 };

/** An answer to `questionText` (each rule answers once). */
const answer = (questionText: string, text: string, repeat = false): ScriptRule => ({
  match: { model: "answerer", lastUserIncludes: questionText },
  reply: { text, usage: ANSWER_USAGE },
  repeat,
});
/** The judge's extraction for a response containing `responseText`. */
const extraction = (responseText: string, drug: string): ScriptRule => ({
  match: { model: "judge", lastUserIncludes: responseText },
  reply: { json: { drug }, usage: JUDGE_USAGE },
  repeat: true,
});
/** One batch rubric verdict (rubric rules come first: their prompt also contains the response). */
const rubricVerdict = (names_target: boolean, clarity: number, repeat = false): ScriptRule => ({
  match: { model: "judge", lastUserIncludes: "Evaluate the response against each of these traits" },
  reply: { json: { scores: { names_target, clarity } }, usage: JUDGE_USAGE },
  repeat,
});

let server: OpenAiTestServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

async function run(runName: string) {
  const config = parseVerificationConfig({
    answering_models: [
      {
        id: "answerer",
        model_name: "answerer",
        interface: "openai_endpoint",
        endpoint_base_url: server.baseURL,
        endpoint_api_key: "k",
      },
    ],
    parsing_models: [
      {
        id: "judge",
        model_name: "judge",
        interface: "openai_endpoint",
        endpoint_base_url: server.baseURL,
        endpoint_api_key: "k",
      },
    ],
    replicate_count: 3,
    evaluation_mode: "template_and_rubric",
  });
  const result = await runVerification(QUESTIONS, config, { runName, globalRubric: RUBRIC });
  expect(result.failures).toEqual([]);
  return result.results;
}

/** Monday: BCL2 answered right twice out of three, BTK once. */
function scriptMonday() {
  server.script(
    rubricVerdict(true, 5),
    rubricVerdict(true, 4),
    rubricVerdict(true, 3),
    rubricVerdict(true, 5),
    rubricVerdict(false, 4),
    rubricVerdict(false, 3),
    answer(BCL2, "Venetoclax inhibits BCL2 [1]."),
    answer(BCL2, "Venetoclax, clearly."),
    answer(BCL2, "Navitoclax is the answer."),
    answer(BTK, "Ibrutinib blocks BTK [2]."),
    answer(BTK, "Acalabrutinib, I think."),
    answer(BTK, "Zanubrutinib."),
    extraction("inhibits BCL2 [1]", "venetoclax"),
    extraction("Venetoclax, clearly", "Venetoclax"),
    extraction("Navitoclax is the answer", "navitoclax"),
    extraction("Ibrutinib blocks BTK", "ibrutinib"),
    extraction("Acalabrutinib, I think", "acalabrutinib"),
    extraction("Zanubrutinib.", "zanubrutinib"),
  );
}

/** Tuesday: BCL2 always wrong, BTK always right. */
function scriptTuesday() {
  server.script(
    rubricVerdict(true, 4, true),
    answer(BCL2, "Navitoclax is the answer.", true),
    answer(BTK, "Ibrutinib blocks BTK [2].", true),
    extraction("Navitoclax is the answer", "navitoclax"),
    extraction("Ibrutinib blocks BTK", "ibrutinib"),
  );
}

const COMBO = "openai_endpoint:answerer | openai_endpoint:judge";

describe("rows from a pipeline run", () => {
  test("summarise: pass rates, pass@k, replicates, rubric traits, tokens and cost", async () => {
    scriptMonday();
    const set = new VerificationResultSet(await run("monday"));
    expect(set.length).toBe(6);
    expect(set.getQuestionIds().sort()).toEqual(["q-bcl2", "q-btk"]);
    expect([...set.groupByReplicate().keys()].sort()).toEqual([1, 2, 3]);

    const prices = { answerer: 1, judge: 2 } as Record<string, number>;
    const summary = set.getSummary({
      prices: (model) =>
        prices[model] === undefined
          ? undefined
          : { input_per_million: prices[model] as number, output_per_million: prices[model] as number },
    });
    expect(summary).toMatchObject({
      num_results: 6,
      num_completed: 3,
      num_with_template: 6,
      num_with_rubric: 6,
      num_questions: 2,
      num_models: 1,
      num_parsing_models: 1,
      num_replicates: 3,
      failures_by_category: { content: 3 },
    });
    expect(summary.template_pass_by_combo).toEqual({
      [COMBO]: { total: 6, passed: 3, pass_pct: 50, pass_rate: 0.5 },
    });
    expect(summary.template_pass_by_question["q-bcl2"]).toMatchObject({
      total: 3,
      passed: 2,
      question_text: BCL2,
    });
    expect(summary.template_pass_by_keyword).toMatchObject({
      oncology: { total: 6, passed: 3 },
      apoptosis: { total: 3, passed: 2 },
      kinase: { total: 3, passed: 1 },
    });

    const passAtK = summary.pass_at_k[COMBO];
    expect(passAtK?.by_question["q-bcl2"]).toEqual({ n: 3, c: 2, pass_at_k: { 1: 2 / 3, 2: 1, 3: 1 } });
    expect(passAtK?.by_question["q-btk"]).toEqual({ n: 3, c: 1, pass_at_k: { 1: 1 / 3, 2: 2 / 3, 3: 1 } });
    expect(passAtK?.pass_at_k[1]).toBeCloseTo(0.5, 12);
    expect(passAtK?.pass_at_k[2]).toBeCloseTo(5 / 6, 12);

    const replicates = summary.replicate_stats;
    expect(Object.keys(replicates?.replicate_pass_rates ?? {})).toEqual(["1", "2", "3"]);
    expect(Object.values(replicates?.replicate_pass_rates ?? {}).map((rate) => rate.total)).toEqual([
      2, 2, 2,
    ]);
    expect(replicates?.replicate_summary.mean).toBeCloseTo(0.5, 12);

    expect(summary.rubric_scores.llm).toEqual({
      names_target: { kind: "boolean", count: 6, true_count: 4, rate: 4 / 6 },
      clarity: { kind: "score", count: 6, mean: 4, min: 3, max: 5 },
    });
    expect(summary.rubric_scores.regex.cites).toEqual({
      kind: "boolean",
      count: 6,
      true_count: 2,
      rate: 2 / 6,
    });
    // Evaluations: 6 rows × 2 LLM traits, 6 × 1 regex trait.
    expect(summary.rubric_traits?.global_traits).toMatchObject({
      llm: { count: 12, names: ["clarity", "names_target"] },
      regex: { count: 6, names: ["cites"] },
    });

    // Per row: one answer (100 in, 20 out), one extraction and one rubric call (50 in, 10 out each).
    expect(summary.tokens).toMatchObject({
      total_input: 6 * 200,
      total_output: 6 * 40,
      total_tokens: 6 * 240,
      total_input_median: 200,
      total_input_std: 0,
      template_input: 6 * 150,
      rubric_input: 6 * 50,
      deep_judgment_input: null,
      median_per_question_input: 200,
      num_results_with_usage: 6,
    });
    expect(Object.keys(summary.tokens.by_stage).sort()).toEqual([
      "answer_generation",
      "parsing",
      "rubric_evaluation",
    ]);
    expect(summary.tokens_by_combo[COMBO]).toMatchObject({
      input: 1200,
      output: 240,
      total: 1440,
      num_results: 6,
    });
    expect(summary.cost?.total_usd).toBeCloseTo((6 * 120 * 1 + 6 * 120 * 2) / 1e6, 15);
    expect(summary.cost?.unpriced_models).toEqual([]);
    expect(summary.trace_length_stats).toMatchObject({ num_traces: 6, median_iterations: 1 });
    expect(JSON.parse(JSON.stringify(summary))).toEqual(summary);
  });

  test("compare two runs: the questions that regressed and improved, with their failures", async () => {
    scriptMonday();
    const monday = await run("monday");
    scriptTuesday();
    const tuesday = await run("tuesday");

    const comparison = compareRuns(monday, tuesday);
    expect(comparison.summary).toMatchObject({
      rows_before: 6,
      rows_after: 6,
      matched: 6,
      only_before: 0,
      only_after: 0,
      pass_to_fail: 2,
      fail_to_pass: 2,
      newly_failing: 2,
      no_longer_failing: 2,
      failure_changed: 0,
      unchanged: 2,
      questions_changed: 2,
      pass_pct_before: 50,
      pass_pct_after: 50,
      pass_pct_delta: 0,
    });
    expect(comparison.pass_to_fail.map((change) => change.question_id)).toEqual(["q-bcl2", "q-bcl2"]);
    expect(comparison.newly_failing[0]?.after).toMatchObject({
      outcome: "failed",
      failure_category: "content",
      failure_stage: "verify_template",
    });
    expect(comparison.questions_changed.map(({ question_id, change }) => [question_id, change])).toEqual([
      ["q-bcl2", "regressed"],
      ["q-btk", "improved"],
    ]);
    expect(comparison.questions_changed[0]).toMatchObject({
      before: { total: 3, passed: 2 },
      after: { total: 3, passed: 0 },
    });
  });
});
