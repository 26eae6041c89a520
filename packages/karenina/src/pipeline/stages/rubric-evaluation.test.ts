/**
 * The rubric stage over real HTTP: a scripted OpenAI-compatible server on 127.0.0.1 plays the judge. Every
 * judge reply below is hand-written test data.
 */
import { describe, expect, test } from "vitest";
import { parseDynamicRubric, parseRubric } from "../../model/index.js";
import { encodeJavaScriptCallable } from "../../rubrics/index.js";
import {
  type OpenAiTestServer,
  type RecordedRequest,
  type ScriptRule,
  startOpenAiServer,
} from "../../test-support/openai-server/index.js";
import { pipelineContext } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import type { VerificationContext } from "../context.js";
import { deepJudgmentRubricAutoFailStage } from "./deep-judgment-rubric-auto-fail.js";
import { rubricEvaluationStage } from "./rubric-evaluation.js";

const ANSWER =
  "--- AI Message ---\nBCL2 is the target of venetoclax. It blocks the anti-apoptotic protein so that cancer cells die.";

const server = serverPerTest(startOpenAiServer);

interface Setup {
  rules: ScriptRule[];
  /** Parsed with `parseRubric` (a Python-shaped rubric dump). */
  rubric?: unknown;
  /** Parsed with `parseDynamicRubric`. */
  dynamicRubric?: unknown;
  config?: Record<string, unknown>;
  rawAnswer?: string | null;
  response?: string;
  signal?: AbortSignal;
}

/** A rubric-only context for one task whose answer is `response`, judged by the scripted server. */
async function setup(options: Setup): Promise<{ ctx: VerificationContext; server: OpenAiTestServer }> {
  server.script(...options.rules);
  const ctx = pipelineContext({
    baseURL: server.baseURL,
    config: { evaluation_mode: "rubric_only", ...options.config },
    question: {
      id: "q-bcl2",
      text: "What is the molecular target of venetoclax?",
      rawAnswer: options.rawAnswer ?? null,
      template: null,
      rubric: options.rubric === undefined || options.rubric === null ? null : parseRubric(options.rubric),
      dynamicRubric:
        options.dynamicRubric === undefined || options.dynamicRubric === null
          ? null
          : parseDynamicRubric(options.dynamicRubric),
    },
    services: options.signal === undefined ? {} : { signal: options.signal },
  });
  ctx.artifacts.rawLlmResponse = options.response ?? ANSWER;
  ctx.artifacts.traceMessages = null;
  return { ctx, server };
}

/** The text of a recorded request's messages with `role`. */
function messageText(request: RecordedRequest | undefined, role: "system" | "user"): string {
  const messages = (request?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === role)
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : (message.content as { text?: string }[]).map((part) => part.text ?? "").join(""),
    )
    .join("\n");
}

const userTexts = (s: OpenAiTestServer) => s.requests.map((request) => messageText(request, "user"));

const mentionsBcl2 = { name: "mentions_bcl2", kind: "boolean", description: "Names BCL2 as the target" };
const clarity = { name: "clarity", kind: "score", description: "How clear the answer is" };

describe("standard rubric evaluation", () => {
  test("batch strategy judges boolean and score traits in one call and clamps scores to the range", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2, clarity] },
      config: { prompt_config: { rubric_evaluation: "Be strict about pharmacology." } },
      rules: [
        {
          match: { lastUserIncludes: "Evaluate the response against each of these traits" },
          reply: { json: { scores: { mentions_bcl2: true, clarity: 9, unknown_trait: 1 } } },
        },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(1);
    expect(messageText(server.requests[0], "system")).toMatch(/Be strict about pharmacology\.$/);
    expect(messageText(server.requests[0], "user")).toContain("<question>\nWhat is the molecular target");
    expect(ctx.artifacts.verifyRubric).toEqual({ mentions_bcl2: true, clarity: 5 });
    expect(ctx.draft.rubric).toMatchObject({
      rubric_evaluation_performed: true,
      rubric_evaluation_strategy: "batch",
      llm_trait_scores: { mentions_bcl2: true, clarity: 5 },
      regex_trait_scores: null,
      trait_provenance: { mentions_bcl2: "question_specific", clarity: "question_specific" },
    });
    expect(ctx.usage.summary().rubric_evaluation?.total_tokens).toBe(18);
    expect(ctx.error).toBeNull();
  });

  test("sequential strategy sends one call per trait and reads lenient values", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2, clarity] },
      config: { rubric_evaluation_strategy: "sequential" },
      rules: [
        { match: { lastUserIncludes: "Trait: mentions_bcl2 (boolean)" }, reply: { json: { result: "yes" } } },
        { match: { lastUserIncludes: "Trait: clarity (score 1-5)" }, reply: { json: { score: "4" } } },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(2);
    expect(ctx.draft.rubric).toMatchObject({
      rubric_evaluation_strategy: "sequential",
      llm_trait_scores: { mentions_bcl2: true, clarity: 4 },
    });
  });

  test("a failed sequential trait has no score and the others keep theirs", async () => {
    const { ctx } = await setup({
      rubric: { llm_traits: [mentionsBcl2, clarity] },
      config: { rubric_evaluation_strategy: "sequential" },
      rules: [
        { match: { lastUserIncludes: "Trait: mentions_bcl2 (boolean)" }, reply: { json: { result: false } } },
        { match: { lastUserIncludes: "Trait: clarity" }, reply: { status: 500 }, repeat: true },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(ctx.artifacts.verifyRubric).toEqual({ mentions_bcl2: false, clarity: null });
    expect(ctx.draft.rubric?.llm_trait_scores).toEqual({ mentions_bcl2: false });
    expect(ctx.warnings.some((w) => w.startsWith('Rubric trait "clarity" has no score'))).toBe(true);
  });

  test("literal traits score the class index and keep the canonical label", async () => {
    const tone = {
      name: "tone",
      kind: "literal",
      classes: { formal: "Technical register", neutral: "Plain and factual", casual: "Chatty" },
    };
    const { ctx } = await setup({
      rubric: { llm_traits: [tone] },
      rules: [
        {
          match: { lastUserIncludes: "Classify the response for each of these traits" },
          reply: { json: { classifications: [{ trait_name: "tone", class_name: "Neutral" }] } },
        },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(ctx.draft.rubric).toMatchObject({
      llm_trait_scores: { tone: 1 },
      llm_trait_labels: { tone: "neutral" },
    });
  });

  test("a template-kind trait fills its fields, stored as trait.field keys", async () => {
    const kind = {
      type: "template",
      schema: {
        title: "Mechanism",
        properties: {
          steps: { type: "integer", description: "Mechanistic steps described" },
          names_protein: { type: "boolean" },
        },
        required: ["steps", "names_protein"],
      },
    };
    const { ctx } = await setup({
      rubric: { llm_traits: [{ name: "mechanism", kind, higher_is_better: null }] },
      rules: [
        {
          match: { lastUserIncludes: "Fields to fill" },
          reply: { json: { steps: "2", names_protein: true } },
        },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(ctx.draft.rubric?.llm_trait_scores).toEqual({
      "mechanism.steps": 2,
      "mechanism.names_protein": true,
    });
  });

  test("metric traits get confusion lists, deduplicated, and the metrics they ask for", async () => {
    const coverage = {
      name: "coverage",
      metrics: ["precision", "recall"],
      tp_instructions: ["BCL2", "MCL1"],
    };
    const { ctx } = await setup({
      rubric: { metric_traits: [coverage] },
      rules: [
        {
          match: { lastUserIncludes: "TP instructions" },
          reply: { json: { tp: ["BCL2", " bcl2 "], fn: ["MCL1"], fp: [], tn: [] } },
        },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(ctx.draft.rubric).toMatchObject({
      rubric_evaluation_performed: true,
      metric_trait_scores: { coverage: { precision: 1, recall: 0.5 } },
      metric_trait_confusion_lists: { coverage: { tp: ["BCL2"], fn: ["MCL1"], fp: [], tn: [] } },
    });
  });

  test("regex and callable traits are evaluated locally, without a judge call", async () => {
    const { ctx, server } = await setup({
      rubric: {
        regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }],
        callable_traits: [
          {
            name: "names_venetoclax",
            kind: "boolean",
            callable_code: encodeJavaScriptCallable("(text) => text.toLowerCase().includes('venetoclax')"),
          },
        ],
      },
      rules: [],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(0);
    expect(ctx.draft.rubric).toMatchObject({
      rubric_evaluation_performed: true,
      regex_trait_scores: { cites: false },
      callable_trait_scores: { names_venetoclax: true },
      llm_trait_scores: null,
    });
  });

  test("a judge failing after retries is a warning and leaves no rubric scores", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2], regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }] },
      rules: [{ reply: { status: 500, message: "judge overloaded" }, repeat: true }],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(2);
    expect(ctx.error).toBeNull();
    expect(ctx.warnings.some((w) => w.startsWith("Rubric evaluation failed:"))).toBe(true);
    expect(ctx.artifacts.verifyRubric).toBeNull();
    expect(ctx.draft.rubric).toMatchObject({
      rubric_evaluation_performed: false,
      llm_trait_scores: null,
      regex_trait_scores: null,
    });
  });

  test("a cancelled run is not turned into a warning: the evaluation's error propagates", async () => {
    const controller = new AbortController();
    const { ctx } = await setup({
      rubric: { llm_traits: [mentionsBcl2] },
      signal: controller.signal,
      rules: [{ reply: { json: { scores: { mentions_bcl2: true } }, delayMs: 5_000 } }],
    });
    const running = rubricEvaluationStage.run(ctx);
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toThrow();
    expect(ctx.warnings).toEqual([]);
  });

  test("the reference answer reaches only the calls of traits that opt in", async () => {
    const graded = { name: "correct_target", kind: "boolean", include_ground_truth: true };
    const { ctx, server } = await setup({
      rubric: { llm_traits: [clarity, graded] },
      rawAnswer: "BCL2 (B-cell lymphoma 2)",
      rules: [
        { match: { lastUserIncludes: "clarity (score 1-5)" }, reply: { json: { scores: { clarity: 3 } } } },
        {
          match: { lastUserIncludes: "correct_target (boolean)" },
          reply: { json: { scores: { correct_target: true } } },
        },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    const [plain, withReference] = userTexts(server);
    expect(server.requests).toHaveLength(2);
    expect(plain).toContain("clarity (score 1-5)");
    expect(plain).not.toContain("correct_target");
    expect(plain).not.toContain("B-cell lymphoma 2");
    expect(withReference).toContain("<reference_answer>\nBCL2 (B-cell lymphoma 2)\n</reference_answer>");
    expect(withReference).not.toContain("clarity");
    expect(ctx.draft.rubric?.llm_trait_scores).toEqual({ clarity: 3, correct_target: true });
  });

  test("TaskEval mode leaves the question block out of judge prompts", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2] },
      rules: [{ reply: { json: { scores: { mentions_bcl2: true } } } }],
    });
    ctx.task.taskEvalMode = true;
    await rubricEvaluationStage.run(ctx);

    expect(userTexts(server)[0]).not.toContain("<question>");
    expect(ctx.draft.rubric?.llm_trait_scores).toEqual({ mentions_bcl2: true });
  });
});

describe("when the stage runs and what the input is", () => {
  test("skips after a failed trace validation when only the final message may be used", async () => {
    const { ctx } = await setup({
      rubric: { llm_traits: [mentionsBcl2] },
      config: { use_full_trace_for_rubric: false },
      rules: [],
    });
    ctx.artifacts.traceValidationFailed = true;
    expect(rubricEvaluationStage.shouldRun?.(ctx)).toBe(false);
  });

  test("runs after a failed trace validation when the full trace is used, or a dynamic rubric is present", async () => {
    const full = await setup({ rubric: { llm_traits: [mentionsBcl2] }, rules: [] });
    full.ctx.artifacts.traceValidationFailed = true;
    expect(rubricEvaluationStage.shouldRun?.(full.ctx)).toBe(true);

    const dynamic = await setup({
      dynamicRubric: { llm_traits: [{ ...mentionsBcl2, summary: "BCL2" }] },
      config: { use_full_trace_for_rubric: false },
      rules: [],
    });
    dynamic.ctx.artifacts.traceValidationFailed = true;
    expect(rubricEvaluationStage.shouldRun?.(dynamic.ctx)).toBe(true);
  });

  test("a final AI message that cannot be extracted is the task's error", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2] },
      config: { use_full_trace_for_rubric: false },
      response: "--- AI Message ---\nSearching.\n\n--- Tool Message (call_id: 1) ---\nBCL2",
      rules: [],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(0);
    expect(ctx.error?.message).toBe(
      "Rubric evaluation: Failed to extract final AI message: Last message in trace is not an AI message",
    );
  });

  test("with the final message only, judges see the message without the trace header", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2] },
      config: { use_full_trace_for_rubric: false },
      rules: [{ reply: { json: { scores: { mentions_bcl2: true } } } }],
    });
    await rubricEvaluationStage.run(ctx);

    expect(userTexts(server)[0]).toContain("<response>\nBCL2 is the target of venetoclax.");
    expect(userTexts(server)[0]).not.toContain("--- AI Message ---");
  });
});

describe("dynamic rubric", () => {
  test("present concepts are promoted with provenance 'dynamic'; absent ones are skipped with a reason", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [clarity] },
      dynamicRubric: {
        llm_traits: [
          { name: "explains_mechanism", kind: "boolean", summary: "Mechanism of action" },
          {
            name: "discusses_toxicity",
            kind: "boolean",
            description: "Adverse effects such as tumour lysis",
          },
        ],
      },
      rules: [
        {
          match: { lastUserIncludes: "Concepts:" },
          reply: {
            json: {
              results: [
                { trait_name: "explains_mechanism", present: true },
                { trait_name: "discusses_toxicity", present: false },
              ],
            },
          },
        },
        {
          match: { lastUserIncludes: "Evaluate the response" },
          reply: { json: { scores: { clarity: 4, explains_mechanism: true } } },
        },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    const [presence, scoring] = server.requests;
    expect(presence?.body.temperature).toBe(0);
    expect(messageText(presence, "user")).toContain("- **explains_mechanism**: Mechanism of action");
    expect(messageText(scoring, "user")).toContain("explains_mechanism (boolean)");
    expect(messageText(scoring, "user")).not.toContain("discusses_toxicity");
    expect(ctx.artifacts.evaluatedRubric?.llm_traits.map((t) => t.name)).toEqual([
      "clarity",
      "explains_mechanism",
    ]);
    expect(ctx.draft.rubric).toMatchObject({
      llm_trait_scores: { clarity: 4, explains_mechanism: true },
      dynamic_rubric_promoted_traits: ["explains_mechanism"],
      dynamic_rubric_skipped_traits: { discusses_toxicity: "concept not present in response" },
      trait_provenance: { clarity: "question_specific", explains_mechanism: "dynamic" },
    });
    expect(ctx.usage.summary().dynamic_rubric_presence_check?.total_tokens).toBe(18);
    expect(ctx.task.traitProvenance).not.toHaveProperty("explains_mechanism");
  });

  test("a dynamic trait named like a static trait of the same type is refused", async () => {
    const { ctx } = await setup({
      rubric: { llm_traits: [clarity] },
      dynamicRubric: { llm_traits: [{ ...clarity, summary: "Clarity" }] },
      rules: [],
    });
    await expect(rubricEvaluationStage.run(ctx)).rejects.toThrow(
      "Dynamic LLMRubricTrait trait 'clarity' conflicts with static rubric",
    );
  });
});

describe("rubric deep judgment", () => {
  const deepJudgmentRules = (excerpt: string): ScriptRule[] => [
    {
      match: { lastUserIncludes: "Quote up to" },
      reply: { json: { excerpts: [{ text: excerpt, confidence: "high" }] } },
    },
  ];

  test("validated excerpts lead to reasoning and a score; regex traits are still evaluated", async () => {
    const { ctx, server } = await setup({
      rubric: {
        llm_traits: [mentionsBcl2],
        regex_traits: [{ name: "names_drug", pattern: "(?i)venetoclax" }],
      },
      config: { deep_judgment_rubric_mode: "enable_all" },
      rules: [
        ...deepJudgmentRules("BCL2 is the target  of venetoclax."),
        {
          match: { lastUserIncludes: "Explain how the response fares" },
          reply: { json: { reasoning: "The response names BCL2 explicitly as the target." } },
        },
        { match: { lastUserIncludes: "<reasoning>" }, reply: { json: { result: true } } },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(3);
    expect(userTexts(server)[1]).toContain('"BCL2 is the target  of venetoclax." (confidence high)');
    expect(ctx.draft.rubric).toMatchObject({
      llm_trait_scores: { mentions_bcl2: true },
      regex_trait_scores: { names_drug: true },
    });
    expect(ctx.draft.deepJudgmentRubric).toMatchObject({
      deep_judgment_rubric_performed: true,
      extracted_rubric_excerpts: {
        mentions_bcl2: [
          { text: "BCL2 is the target  of venetoclax.", confidence: "high", similarity_score: 1 },
        ],
      },
      rubric_trait_reasoning: { mentions_bcl2: "The response names BCL2 explicitly as the target." },
      deep_judgment_rubric_scores: { mentions_bcl2: true },
      traits_without_valid_excerpts: [],
      trait_metadata: {
        mentions_bcl2: {
          stages_completed: ["excerpt_extraction", "reasoning_generation", "score_extraction"],
          model_calls: 3,
          had_excerpts: true,
          excerpt_retry_count: 0,
          excerpt_validation_failed: false,
        },
      },
      total_deep_judgment_model_calls: 3,
    });
    expect(deepJudgmentRubricAutoFailStage.shouldRun?.(ctx)).toBe(false);
  });

  test("excerpts not found in the response after every attempt auto-fail the trait", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [mentionsBcl2, clarity] },
      config: {
        deep_judgment_rubric_mode: "custom",
        deep_judgment_rubric_config: { global: { mentions_bcl2: { excerpt_retry_attempts: 1 } } },
      },
      rules: [
        { match: { lastUserIncludes: "Evaluate the response" }, reply: { json: { scores: { clarity: 4 } } } },
        ...deepJudgmentRules("EGFR is the target of osimertinib."),
        ...deepJudgmentRules("Venetoclax inhibits EGFR."),
      ],
    });
    await rubricEvaluationStage.run(ctx);

    const excerptCalls = userTexts(server).filter((text) => text.includes("Quote up to"));
    expect(excerptCalls).toHaveLength(2);
    expect(excerptCalls[1]).toContain(
      'were not found in the response:\n- "EGFR is the target of osimertinib."',
    );
    expect(ctx.draft.rubric?.llm_trait_scores).toEqual({ clarity: 4 });
    expect(ctx.draft.deepJudgmentRubric).toMatchObject({
      traits_without_valid_excerpts: ["mentions_bcl2"],
      standard_rubric_scores: { clarity: 4 },
      deep_judgment_rubric_scores: {},
      trait_metadata: {
        mentions_bcl2: { model_calls: 2, excerpt_retry_count: 1, excerpt_validation_failed: true },
      },
    });

    expect(deepJudgmentRubricAutoFailStage.shouldRun?.(ctx)).toBe(true);
    await deepJudgmentRubricAutoFailStage.run(ctx);
    expect(ctx.draft.failedStage).toBe("DeepJudgmentRubricAutoFail");
    expect(ctx.draft.template.verify_result).toBe(false);
    expect(ctx.error).toBeNull();
  });

  test("a trait without excerpts is reasoned about from the whole response", async () => {
    const { ctx, server } = await setup({
      rubric: { llm_traits: [clarity] },
      config: { deep_judgment_rubric_mode: "enable_all", deep_judgment_rubric_global_excerpts: false },
      rules: [
        {
          match: { lastUserIncludes: "Explain how the response fares" },
          reply: { json: { reasoning: "Short and direct." } },
        },
        { match: { lastUserIncludes: "<reasoning>" }, reply: { json: { score: 4 } } },
      ],
    });
    await rubricEvaluationStage.run(ctx);

    expect(server.requests).toHaveLength(2);
    expect(userTexts(server)[0]).toContain("<response>\n--- AI Message ---\nBCL2 is the target");
    expect(ctx.draft.deepJudgmentRubric).toMatchObject({
      deep_judgment_rubric_scores: { clarity: 4 },
      extracted_rubric_excerpts: {},
      trait_metadata: { clarity: { had_excerpts: false, model_calls: 2 } },
    });
  });
});
