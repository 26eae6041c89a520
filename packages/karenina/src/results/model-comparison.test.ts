import { describe, expect, test } from "vitest";
import { ZodError } from "zod";
import { type RowSpec, row } from "./__fixtures__/rows.js";
import {
  comparedModelDisplay,
  compareModels,
  ModelComparisonBuilder,
  ModelComparisonError,
} from "./model-comparison.js";
import { resultDigest } from "./result-digest.js";
import { summarizeResults } from "./summary.js";
import type { VerificationResult } from "./verification-result.js";

// Expectations below are worked out by hand from spec 07 §2.2 "Compare details"; rows are crafted test data.

/** A row with token totals `input`/`output` (one stage) and optional abstention/sufficiency verdicts. */
function cellRow(
  spec: RowSpec & { input?: number; output?: number; abstained?: boolean; sufficient?: boolean | null },
): VerificationResult {
  const { input, output, abstained, sufficient, ...rest } = spec;
  const result = row({
    verify: true,
    ...rest,
    usage: input === undefined ? null : { answer_generation: { input, output: output ?? 0 } },
  });
  if (result.template !== null) {
    result.template.abstention_detected = abstained ?? false;
    result.template.sufficiency_detected = sufficient ?? null;
  }
  return result;
}

const plain = { answering_model: "answerer", interface: "openai" };
const withMcp = { answering_model: "answerer", interface: "openai", mcp_config: '["search", "files"]' };

describe("model matching and keys", () => {
  test("a model's key is interface:model with its sorted MCP servers; rows match on model, interface and MCP set", () => {
    expect(comparedModelDisplay({ ...withMcp })).toBe("openai:answerer +[files, search]");
    const rows = [
      cellRow({ question: "q1", resultId: "a", input: 10, output: 1 }),
      cellRow({ question: "q1", resultId: "b", mcp: ["files", "search"], input: 20, output: 2 }),
      // same servers in another order: the same model
      cellRow({ question: "q2", resultId: "c", mcp: ["search", "files"], input: 30, output: 3 }),
      // another interface, another server set, another model: none of the compared ones
      cellRow({ question: "q3", resultId: "d", answering: "anthropic:answerer" }),
      cellRow({ question: "q3", resultId: "e", mcp: ["files"] }),
      cellRow({ question: "q3", resultId: "f", answering: "claude" }),
    ];
    const out = compareModels(rows, { models: [withMcp, plain] });
    expect(Object.keys(out.model_summaries)).toEqual(["openai:answerer +[files, search]", "openai:answerer"]);
    expect(out.model_summaries["openai:answerer +[files, search]"]?.num_results).toBe(2);
    expect(out.model_summaries["openai:answerer"]?.num_results).toBe(1);
    // every question of the rows, in order of appearance; a model without a row there has no replicates
    expect(out.heatmap_data.map((q) => q.question_id)).toEqual(["q1", "q2", "q3"]);
    expect(out.heatmap_data[2]?.results_by_model).toEqual({
      "openai:answerer +[files, search]": { replicates: [] },
      "openai:answerer": { replicates: [] },
    });
    expect(out.heatmap_data[1]?.results_by_model["openai:answerer"]).toEqual({ replicates: [] });
  });

  test("a model's summary is summarizeResults of its rows (all replicates)", () => {
    const rows = [
      cellRow({ question: "q1", replicate: 1, resultId: "a", input: 5 }),
      cellRow({ question: "q1", replicate: 2, resultId: "b", verify: false, input: 7 }),
      cellRow({ question: "q2", replicate: 1, resultId: "c", answering: "other" }),
    ];
    const out = compareModels(rows, { models: [plain] });
    expect(out.model_summaries["openai:answerer"]).toEqual(summarizeResults(rows.slice(0, 2)));
  });

  test("models named twice count once; a model without rows is left out", () => {
    const out = compareModels([cellRow({ question: "q1" })], {
      models: [plain, { ...plain, mcp_config: "[]" }, { answering_model: "absent", interface: "openai" }],
    });
    expect(Object.keys(out.model_summaries)).toEqual(["openai:answerer"]);
    expect(Object.keys(out.heatmap_data[0]?.results_by_model ?? {})).toEqual(["openai:answerer"]);
  });
});

describe("heatmap cells", () => {
  test("per replicate the newest failing row is shown, else the newest; replicates in ascending order", () => {
    const rows = [
      cellRow({ question: "q1", replicate: 2, resultId: "r2-old", timestamp: "2026-04-21 12:00:00" }),
      cellRow({ question: "q1", replicate: 2, resultId: "r2-new", timestamp: "2026-04-21 12:00:05" }),
      cellRow({ question: "q1", replicate: 1, resultId: "r1-pass-newest", timestamp: "2026-04-21 12:00:09" }),
      cellRow({
        question: "q1",
        replicate: 1,
        resultId: "r1-fail-old",
        timestamp: "2026-04-21 12:00:00",
        failure: { category: "timeout" },
      }),
      cellRow({
        question: "q1",
        replicate: 1,
        resultId: "r1-fail-new",
        timestamp: "2026-04-21 12:00:01",
        failure: { category: "parsing" },
        input: 3,
        output: 4,
      }),
    ];
    const [question] = compareModels(rows, { models: [plain] }).heatmap_data;
    const cells = question?.results_by_model["openai:answerer"]?.replicates ?? [];
    expect(cells.map((cell) => cell.replicate)).toEqual([1, 2]);
    expect(cells[0]).toEqual({
      result_id: "r1-fail-new",
      replicate: 1,
      passed: true,
      abstained: false,
      insufficient: false,
      error: true,
      execution_type: "Standard",
      input_tokens: 3,
      output_tokens: 4,
      iterations: 0,
    });
    // replicate 2: both pass, the newer one (no tokens) is shown
    expect(cells[1]).toMatchObject({ replicate: 2, error: false, input_tokens: 0 });
  });

  test("on equal timestamps the row seen first stays", () => {
    const rows = [cellRow({ question: "q1", input: 1 }), cellRow({ question: "q1", input: 2 })];
    const cells = compareModels(rows, { models: [plain] }).heatmap_data[0]?.results_by_model[
      "openai:answerer"
    ];
    expect(cells?.replicates.map((cell) => cell.input_tokens)).toEqual([1]);
  });

  test("a cell carries abstention, insufficiency, agent metrics and the LLM, regex and callable trait scores; no score", () => {
    const agent = cellRow({
      question: "q1",
      verify: false,
      abstained: true,
      sufficient: false,
      agentMetrics: { iterations: 3, tool_calls: 2, limit_reached: false },
      rubric: {
        rubric_evaluation_performed: true,
        llm_trait_scores: { clarity: 4 },
        regex_trait_scores: {},
        callable_trait_scores: { short: true },
        metric_trait_scores: { f1: { precision: 1 } },
      },
    });
    // a plain answer has agent metrics too ({iterations: 1}), but no tool calls: a standard answer
    const standard = cellRow({
      question: "q2",
      agentMetrics: { iterations: 1, limit_reached: false },
      sufficient: true,
    });
    const out = compareModels([agent, standard], { models: [plain] });
    expect(out.heatmap_data[0]?.results_by_model["openai:answerer"]?.replicates).toEqual([
      {
        result_id: agent.metadata.result_id,
        replicate: null,
        passed: false,
        abstained: true,
        insufficient: true,
        error: true,
        execution_type: "Agent",
        input_tokens: 0,
        output_tokens: 0,
        iterations: 3,
        rubric_scores: { llm: { clarity: 4 }, callable: { short: true } },
      },
    ]);
    expect(out.heatmap_data[1]?.results_by_model["openai:answerer"]?.replicates[0]).toMatchObject({
      execution_type: "Standard",
      iterations: 0,
      insufficient: false,
    });
    expect(out.heatmap_data[1]?.results_by_model["openai:answerer"]?.replicates[0]).not.toHaveProperty(
      "score",
    );
  });

  test("question text and keywords of the first row seen; a row without keywords gives []", () => {
    const rows = [
      cellRow({ question: "q1", questionText: "First text", keywords: null }),
      cellRow({ question: "q1", questionText: "Later text", keywords: ["x"] }),
    ];
    const [question] = compareModels(rows, { models: [plain] }).heatmap_data;
    expect(question).toMatchObject({ question_id: "q1", question_text: "First text", keywords: [] });
  });
});

describe("question token data", () => {
  test("median and population std over a question's rows, zero counts ignored", () => {
    const rows = [
      cellRow({ question: "q1", replicate: 1, input: 100, output: 10 }),
      cellRow({ question: "q1", replicate: 2, input: 300, output: 0 }),
      cellRow({ question: "q1", replicate: 3, input: 0, output: 30 }),
      // a superseded duplicate of replicate 1 still counts for the token statistics (all rows, as the original)
      cellRow({ question: "q1", replicate: 1, input: 200, output: 20, timestamp: "2026-04-21 11:00:00" }),
    ];
    const out = compareModels(rows, { models: [plain] });
    expect(out.question_token_data).toEqual([
      {
        question_id: "q1",
        question_text: "Text of q1",
        models: [
          {
            model_key: "openai:answerer",
            model_display_name: "openai:answerer",
            // inputs [100, 300, 200]: median 200, std sqrt(20000/3); outputs [10, 30, 20]: median 20, std sqrt(200/3)
            input_tokens_median: 200,
            input_tokens_std: Math.sqrt(20000 / 3),
            output_tokens_median: 20,
            output_tokens_std: Math.sqrt(200 / 3),
          },
        ],
      },
    ]);
  });

  test("a model without tokens on a question is left out, and a question without models too; text cut at 50 characters", () => {
    const long = `${"é".repeat(49)}🧬 and more`;
    const rows = [
      cellRow({ question: "q1", questionText: long, input: 4, output: 2 }),
      cellRow({ question: "q2", input: 0, output: 0 }),
      cellRow({ question: "q1", answering: "anthropic:claude", input: 0 }),
    ];
    const out = compareModels(rows, {
      models: [plain, { answering_model: "claude", interface: "anthropic" }],
    });
    expect(out.question_token_data.map((q) => [q.question_id, q.question_text, q.models.length])).toEqual([
      ["q1", `${"é".repeat(49)}🧬...`, 1],
    ]);
  });
});

describe("filters (the spec's fix: `replicate` is applied)", () => {
  const rows = [
    cellRow({ question: "q1", replicate: 1, parsing: "judge", input: 1 }),
    cellRow({ question: "q1", replicate: 2, parsing: "judge", input: 2 }),
    cellRow({ question: "q2", replicate: null, parsing: "judge", input: 3 }),
    cellRow({ question: "q3", replicate: 1, parsing: "judge-b", input: 4 }),
  ];

  test("parsing_model keeps the rows of that judge (display string); questions come from the kept rows", () => {
    const out = compareModels(rows, { models: [plain], parsing_model: "openai:judge-b" });
    expect(out.heatmap_data.map((q) => q.question_id)).toEqual(["q3"]);
    expect(out.model_summaries["openai:answerer"]?.num_results).toBe(1);
  });

  test("replicate keeps that replicate; a question run once counts as replicate 1", () => {
    const one = compareModels(rows, { models: [plain], replicate: 1 });
    expect(one.model_summaries["openai:answerer"]?.num_results).toBe(3);
    expect(one.heatmap_data.map((q) => q.question_id)).toEqual(["q1", "q2", "q3"]);
    const two = compareModels(rows, { models: [plain], replicate: 2 });
    expect(two.heatmap_data.map((q) => q.question_id)).toEqual(["q1"]);
    expect(two.heatmap_data[0]?.results_by_model["openai:answerer"]?.replicates[0]?.input_tokens).toBe(2);
  });
});

describe("refusals", () => {
  test("no row left by the filters → no_results; rows but none of the models → no_results_for_models", () => {
    const rows = [cellRow({ question: "q1" })];
    const reason = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof ModelComparisonError ? error.reason : error;
      }
      return "no error";
    };
    expect(reason(() => compareModels([], { models: [plain] }))).toBe("no_results");
    expect(reason(() => compareModels(rows, { models: [plain], replicate: 2 }))).toBe("no_results");
    expect(
      reason(() => compareModels(rows, { models: [{ answering_model: "x", interface: "openai" }] })),
    ).toBe("no_results_for_models");
  });

  test("no models, or an MCP config that is not a JSON list of names, does not parse", () => {
    expect(() => compareModels([], { models: [] })).toThrow(ZodError);
    expect(() => compareModels([], { models: [{ ...plain, mcp_config: "files" }] })).toThrow(ZodError);
    expect(() => compareModels([], { models: [{ ...plain, mcp_config: '{"a": 1}' }] })).toThrow(ZodError);
  });
});

test("fed digests, the builder gives the same comparison once the kept rows' full rows are put in", () => {
  const rows = [
    cellRow({ question: "q1", replicate: 1, resultId: "a", abstained: true, verify: false, input: 5 }),
    cellRow({ question: "q1", replicate: 2, resultId: "b", sufficient: false, verify: false, input: 6 }),
    cellRow({ question: "q2", replicate: 1, resultId: "c", input: 7 }),
  ];
  const builder = new ModelComparisonBuilder({ models: [plain] });
  builder.add(rows.map(resultDigest));
  expect(builder.keptRows().map((kept) => kept.metadata.result_id)).toEqual(["a", "b", "c"]);
  const digestsOnly = new ModelComparisonBuilder({ models: [plain] });
  digestsOnly.add(rows.map(resultDigest));
  // digests lack the abstention and sufficiency verdicts: without the full rows the cells miss them
  expect(
    digestsOnly.finish().heatmap_data[0]?.results_by_model["openai:answerer"]?.replicates[0]?.abstained,
  ).toBe(false);
  builder.useFullRows(rows);
  expect(builder.finish()).toEqual(compareModels(rows, { models: [plain] }));
});

test("question ids and keywords that are Object.prototype names stay data", () => {
  const out = compareModels([cellRow({ question: "__proto__", keywords: ["constructor"], input: 1 })], {
    models: [plain],
  });
  expect(out.heatmap_data[0]).toMatchObject({ question_id: "__proto__", keywords: ["constructor"] });
  expect(Object.keys(out.heatmap_data[0]?.results_by_model ?? {})).toEqual(["openai:answerer"]);
});
