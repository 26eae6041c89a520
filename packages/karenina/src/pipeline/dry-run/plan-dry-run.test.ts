/**
 * The dry-run estimator on the pipeline tests' drug question (hand-written test data). Nothing here calls a
 * model: the models point at an address nothing listens on.
 */
import { describe, expect, test } from "vitest";
import { questionHash } from "../../llm/index.js";
import { parseDynamicRubric, parseRubric } from "../../model/index.js";
import {
  endpointModel,
  type PipelineSetup,
  pipelineQuestion,
  UNREACHABLE_BASE_URL,
} from "../../test-support/pipeline-context.js";
import { parseVerificationConfig } from "../config/index.js";
import { planTasks } from "../planning.js";
import type { PipelineQuestion } from "../task.js";
import type { DryRunPlan } from "./dry-run-plan.js";
import { type DryRunOptions, planDryRun } from "./plan-dry-run.js";

const answerer = endpointModel(UNREACHABLE_BASE_URL, "answerer");
const judge = endpointModel(UNREACHABLE_BASE_URL, "judge");
const judge2 = endpointModel(UNREACHABLE_BASE_URL, "judge2");

function config(overrides: Record<string, unknown> = {}) {
  return parseVerificationConfig({ answering_models: [answerer], parsing_models: [judge], ...overrides });
}

function questions(count: number, overrides: Partial<PipelineQuestion> = {}): PipelineQuestion[] {
  return Array.from({ length: count }, (_, i) =>
    pipelineQuestion({ id: `q${i}`, text: `Which drug inhibits BCL2? (${i})`, ...overrides }),
  );
}

async function plan(
  configOverrides: Record<string, unknown> = {},
  options: DryRunOptions & { questions?: PipelineQuestion[] } = {},
): Promise<DryRunPlan> {
  const { questions: given, ...rest } = options;
  return planDryRun(given ?? questions(1), config(configOverrides), rest);
}

/** Calls per stage, e.g. `{ answer_generation: 1, parsing: 1 }`. */
const callsByStage = (result: DryRunPlan) =>
  Object.fromEntries(result.stages.map((stage) => [stage.stage, stage.calls]));

const stage = (result: DryRunPlan, name: string) => result.stages.find((s) => s.stage === name);

describe("tasks and answers", () => {
  test("one answer per question, answering model and replicate is shared by every judge", async () => {
    const result = await plan(
      { parsing_models: [judge, judge2], replicate_count: 3 },
      { questions: questions(2) },
    );
    expect(result.tasks).toBe(12);
    expect(result.questions).toBe(2);
    expect(result.answersGenerated).toBe(6);
    expect(callsByStage(result)).toEqual({ answer_generation: 6, parsing: 12 });
    expect(result.pairs).toEqual([
      { answering: "openai_endpoint:answerer", parsing: "openai_endpoint:judge", tasks: 6 },
      { answering: "openai_endpoint:answerer", parsing: "openai_endpoint:judge2", tasks: 6 },
    ]);
    expect(result.totals.calls).toBe(18);
  });

  test("answers from manual traces make no answering call; a question without a trace fails first", async () => {
    const [traced, untraced] = questions(2);
    const manual = {
      interface: "manual",
      manual_traces: { [questionHash(traced?.text ?? "")]: "--- AI Message ---\nVenetoclax." },
    };
    const result = await plan(
      { answering_models: [manual] },
      { questions: [traced, untraced] as PipelineQuestion[] },
    );
    expect(result.tasks).toBe(2);
    expect(result.answersGenerated).toBe(0);
    expect(result.answersSupplied).toBe(1);
    expect(callsByStage(result)).toEqual({ parsing: 1 });
    expect(result.failedTasks).toEqual([{ reason: "no manual trace for the question", tasks: 1 }]);
    expect(result.models.map((model) => model.roles)).toEqual([["parsing"]]);
  });

  test("the finished tasks of a resumed run are left out", async () => {
    const all = questions(3);
    const done = planTasks(all, config()).slice(0, 2);
    const result = await plan({}, { questions: all, skipKeys: new Set(done.map((task) => task.key)) });
    expect(result.tasks).toBe(1);
    expect(callsByStage(result)).toEqual({ answer_generation: 1, parsing: 1 });
    expect(result.assumptions).toContain("Left out: 2 finished tasks of the run being resumed.");
  });
});

describe("calls per stage", () => {
  test("abstention and sufficiency add one judge call each per task, and none when off", async () => {
    const on = await plan({
      parsing_models: [judge, judge2],
      abstention_enabled: true,
      sufficiency_enabled: true,
    });
    expect(callsByStage(on)).toEqual({ answer_generation: 1, abstention: 2, sufficiency: 2, parsing: 2 });
    const off = await plan({ parsing_models: [judge, judge2] });
    expect(callsByStage(off)).toEqual({ answer_generation: 1, parsing: 2 });
  });

  test("template deep judgment: reasoning_only makes 2 calls, full 3, and 4 with a search function", async () => {
    expect(callsByStage(await plan({ deep_judgment_mode: "reasoning_only" }))).toEqual({
      answer_generation: 1,
      parsing: 1,
      deep_judgment: 1,
    });
    expect(callsByStage(await plan({ deep_judgment_mode: "full" }))).toEqual({
      answer_generation: 1,
      parsing: 1,
      deep_judgment: 2,
    });
    const searched = await plan({
      deep_judgment_mode: "full",
      deep_judgment_search_enabled: true,
      deep_judgment_search_tool: () => "hand-written search result",
    });
    expect(callsByStage(searched)).toEqual({ answer_generation: 1, parsing: 1, deep_judgment: 3 });
    expect(searched.outputTokens.map((estimate) => estimate.kind)).toContain("deep_judgment_hallucination");
  });

  const rubric = parseRubric({
    llm_traits: [
      { name: "names_drug", kind: "boolean", description: "Names a drug" },
      { name: "clarity", kind: "score", description: "How clear the answer is" },
      { name: "tone", kind: "literal", classes: { formal: "Formal", casual: "Casual" } },
    ],
    regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }],
    metric_traits: [{ name: "coverage", metrics: ["recall"], tp_instructions: ["venetoclax", "BCL2"] }],
  });

  test("rubric: batch judges scalar and literal traits in one call each, sequential one per trait", async () => {
    const batch = await plan({ evaluation_mode: "template_and_rubric" }, { globalRubric: rubric });
    // boolean+score batch, literal batch, metric trait; the regex trait runs locally.
    expect(callsByStage(batch)).toEqual({ answer_generation: 1, parsing: 1, rubric: 3 });
    const sequential = await plan(
      { evaluation_mode: "rubric_only", rubric_evaluation_strategy: "sequential" },
      { globalRubric: rubric },
    );
    expect(callsByStage(sequential)).toEqual({ answer_generation: 1, rubric: 4 });
    const templateOnly = await plan({}, { globalRubric: rubric });
    expect(callsByStage(templateOnly)).toEqual({ answer_generation: 1, parsing: 1 });
  });

  test("rubric deep judgment: excerpts, reasoning and score per trait; a dynamic rubric adds its presence check", async () => {
    const result = await plan(
      { evaluation_mode: "rubric_only", deep_judgment_rubric_mode: "enable_all" },
      {
        globalRubric: rubric,
        globalDynamicRubric: parseDynamicRubric({
          llm_traits: [{ name: "safety", kind: "boolean", summary: "Safety warnings" }],
        }),
      },
    );
    // presence check + metric trait in the rubric stage; 4 LLM traits × (excerpts, reasoning, score).
    expect(callsByStage(result)).toEqual({ answer_generation: 1, deep_judgment: 12, rubric: 2 });
    expect(result.assumptions.join("\n")).toContain("every concept is assumed present");
  });

  test("the embedding check counts an embedding request and an equivalence call per task", async () => {
    const result = await plan({ embedding_check_enabled: true, parsing_models: [judge, judge2] });
    expect(callsByStage(result)).toEqual({ answer_generation: 1, parsing: 2, embedding: 4 });
    const embeddings = result.models.find((model) => model.roles.includes("embedding"));
    expect(embeddings).toMatchObject({ model: "all-MiniLM-L6-v2 (embeddings)", calls: 2, outputTokens: 0 });
    expect(result.assumptions.join("\n")).toContain("an upper bound");
  });
});

describe("tokens", () => {
  test("input tokens are counted on the real prompts: a longer question costs its extra tokens in each", async () => {
    // " word" is one o200k_base token.
    const long = `Which drug${" word".repeat(100)} inhibits BCL2?`;
    const short = await plan({}, { questions: [pipelineQuestion({ text: "Which drug inhibits BCL2?" })] });
    const longer = await plan({}, { questions: [pipelineQuestion({ text: long })] });
    expect(
      (stage(longer, "answer_generation")?.inputTokens ?? 0) -
        (stage(short, "answer_generation")?.inputTokens ?? 0),
    ).toBe(100);
    expect((stage(longer, "parsing")?.inputTokens ?? 0) - (stage(short, "parsing")?.inputTokens ?? 0)).toBe(
      100,
    );
  });

  test("output tokens come from the cache's history, and judge prompts hold an answer of that length", async () => {
    const history = (answer: number) => ({
      answer_generation: { meanOutputTokens: answer, samples: 4 },
      parsing: { meanOutputTokens: 9, samples: 4 },
    });
    const short = await plan({}, { outputTokenHistory: history(42) });
    const long = await plan({}, { outputTokenHistory: history(1042) });
    expect(stage(short, "answer_generation")?.outputTokens).toBe(42);
    expect(stage(short, "parsing")?.outputTokens).toBe(9);
    expect(short.outputTokens).toEqual([
      { kind: "answer_generation", calls: 1, outputTokens: 42, source: "cache", cacheSamples: 4 },
      { kind: "parsing", calls: 1, outputTokens: 9, source: "cache", cacheSamples: 4 },
    ]);
    expect((stage(long, "parsing")?.inputTokens ?? 0) - (stage(short, "parsing")?.inputTokens ?? 0)).toBe(
      1000,
    );
    expect(short.assumptions.join("\n")).toContain("a placeholder of 42 tokens");
  });

  test("without history, output tokens are the per-kind defaults", async () => {
    const result = await plan();
    expect(result.outputTokens).toEqual([
      { kind: "answer_generation", calls: 1, outputTokens: 300, source: "default", cacheSamples: 0 },
      // 10 per call + 15 per field of the drug template's one field.
      { kind: "parsing", calls: 1, outputTokens: 25, source: "default", cacheSamples: 0 },
    ]);
  });
});

describe("cost", () => {
  const priced: PipelineSetup["config"] = {
    answering_models: [{ ...answerer, id: "gpt-4.1-mini", model_name: "gpt-4.1-mini" }],
  };

  test("each model is priced from the price table; an unpriced model is reported as such, not as 0", async () => {
    const result = await plan(priced);
    const [answering, parsing] = result.models;
    expect(answering?.model).toBe("openai_endpoint:gpt-4.1-mini");
    const tokens = (answering?.inputTokens ?? 0) * 0.4 + (answering?.outputTokens ?? 0) * 1.6;
    expect(answering?.costUsd).toBeCloseTo(tokens / 1e6, 12);
    expect(parsing).toMatchObject({ model: "openai_endpoint:judge", costUsd: null });
    expect(result.totals.unpricedModels).toEqual(["openai_endpoint:judge"]);
    expect(result.totals.costUsd).toBe(answering?.costUsd);
  });

  test("a price table prices the models it lists; with no priced model the total is null", async () => {
    const table = { judge: { input_per_million: 1, output_per_million: 2 } };
    const result = await plan(priced, { priceTable: table });
    expect(result.models.map((model) => model.costUsd === null)).toEqual([true, false]);
    const parsing = result.models[1];
    expect(parsing?.costUsd).toBeCloseTo(
      ((parsing?.inputTokens ?? 0) + 2 * (parsing?.outputTokens ?? 0)) / 1e6,
      12,
    );
    const none = await plan();
    expect(none.totals.costUsd).toBeNull();
    expect(none.totals.unpricedModels).toHaveLength(2);
  });
});

test("the assumptions name the tokenizer, the answer placeholder and what is not counted", async () => {
  const result = await plan({ abstention_enabled: true });
  const text = result.assumptions.join("\n");
  expect(result.tokenizer).toBe("o200k_base");
  expect(text).toContain("o200k_base tokenizer");
  expect(text).toContain("other providers' tokenizers");
  expect(text).toContain("no provider retry, no parser feedback retry");
  expect(text).toContain("a placeholder of 300 tokens");
  expect(text).toContain("not known in advance");
  expect(text).toContain("not as free");
});
