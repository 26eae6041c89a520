import { describe, expect, test } from "vitest";
import { parseVerificationConfig } from "../../../karenina/src/pipeline/index.js";
import { modelInterfaces } from "../../../karenina/src/server/routes/interfaces.js";
import {
  buildVerificationConfig,
  combinationsPerQuestion,
  evaluationModeOf,
  RunSettingsError,
  replicatesOf,
  runSelectedLabel,
} from "./build-config.js";
import {
  DEFAULT_EVALUATION,
  defaultModelCard,
  type EvaluationSettings,
  INITIAL_RUN_SETTINGS,
  type ModelCard,
  type RunSettings,
} from "./run-settings.js";
import { cardOfModelConfig, evaluationOfConfig } from "./settings-of-config.js";

const { interfaces } = modelInterfaces();

const endpointCard = (patch: Partial<ModelCard> = {}): ModelCard => ({
  ...defaultModelCard("answering"),
  interface: "openai_endpoint",
  modelName: "answerer",
  endpointBaseUrl: "http://127.0.0.1:9/v1",
  endpointApiKey: "sk-test",
  ...patch,
});

function settingsWith(
  evaluation: Partial<EvaluationSettings>,
  extra: Partial<RunSettings> = {},
): RunSettings {
  return { ...INITIAL_RUN_SETTINGS, evaluation: { ...DEFAULT_EVALUATION, ...evaluation }, ...extra };
}

const build = (evaluation: Partial<EvaluationSettings>, ids: string[] = []) =>
  buildVerificationConfig(settingsWith(evaluation), interfaces, ids);

describe("each evaluation control sets its VerificationConfig field (spec 07 §1.5 table)", () => {
  test("the defaults make a template_only config the library accepts", () => {
    const config = build({});
    expect(config).toMatchObject({
      evaluation_mode: "template_only",
      rubric_evaluation_strategy: "batch",
      abstention_enabled: false,
      sufficiency_enabled: false,
      embedding_check_enabled: false,
      deep_judgment_mode: "disabled",
      deep_judgment_rubric_mode: "disabled",
      few_shot_config: null,
      replicate_count: 1,
      use_full_trace_for_template: false,
      use_full_trace_for_rubric: true,
    });
    expect(() => parseVerificationConfig(config, { env: {} })).not.toThrow();
  });

  test("Correctness and Rubric give evaluation_mode; both off is refused", () => {
    expect(evaluationModeOf({ correctness: true, rubric: false })).toBe("template_only");
    expect(evaluationModeOf({ correctness: true, rubric: true })).toBe("template_and_rubric");
    expect(evaluationModeOf({ correctness: false, rubric: true })).toBe("rubric_only");
    expect(() => evaluationModeOf({ correctness: false, rubric: false })).toThrow(RunSettingsError);
  });

  test("rubric strategy, abstention, sufficiency, embedding check and threshold", () => {
    expect(build({ rubric: true, rubricStrategy: "sequential" }).rubric_evaluation_strategy).toBe(
      "sequential",
    );
    expect(build({ abstention: true }).abstention_enabled).toBe(true);
    expect(build({ sufficiency: true }).sufficiency_enabled).toBe(true);
    expect(build({ embeddingCheck: true, embeddingThreshold: 0.7 })).toMatchObject({
      embedding_check_enabled: true,
      embedding_check_threshold: 0.7,
    });
  });

  test("deep judgment (+ search) and rubric deep judgment (+ excerpts)", () => {
    expect(build({ deepJudgment: true, deepJudgmentSearch: true })).toMatchObject({
      deep_judgment_mode: "full",
      deep_judgment_search_enabled: true,
    });
    expect(build({ deepJudgment: false, deepJudgmentSearch: true }).deep_judgment_search_enabled).toBe(false);
    expect(
      build({ rubric: true, rubricDeepJudgment: "enable_all", rubricDeepJudgmentExcerpts: true }),
    ).toMatchObject({
      deep_judgment_rubric_mode: "enable_all",
      deep_judgment_rubric_global_excerpts: true,
    });
    expect(build({ rubric: true, rubricDeepJudgment: "use_checkpoint" })).toMatchObject({
      deep_judgment_rubric_mode: "use_checkpoint",
      deep_judgment_rubric_global_excerpts: false,
    });
    expect(build({ rubric: false, rubricDeepJudgment: "enable_all" }).deep_judgment_rubric_mode).toBe(
      "disabled",
    );
  });

  test("few-shot all, k-shot and custom (the picks of the selected questions are sent)", () => {
    expect(build({ fewShot: "all" }).few_shot_config).toEqual({ source: "question_pool", pool_mode: "all" });
    expect(build({ fewShot: "k-shot", fewShotK: 5 }).few_shot_config).toEqual({
      source: "question_pool",
      pool_mode: "k-shot",
      pool_k: 5,
    });
    const custom = build({ fewShot: "custom", fewShotSelections: { q1: ["e1", "e2"], q9: ["x"] } }, [
      "q1",
      "q2",
    ]);
    expect(custom.few_shot_config).toEqual({
      source: "question_pool",
      pool_mode: "custom",
      question_configs: { q1: { mode: "custom", selected_examples: ["e1", "e2"] } },
    });
    expect(() => parseVerificationConfig(custom, { env: {} })).not.toThrow();
  });

  test("replicates and the MCP trace flags", () => {
    expect(build({ replicates: 4 }).replicate_count).toBe(4);
    expect(build({ fullTraceForTemplate: true, fullTraceForRubric: false })).toMatchObject({
      use_full_trace_for_template: true,
      use_full_trace_for_rubric: false,
    });
  });
});

describe("model cards become model configs", () => {
  test("an openai_endpoint card: endpoint, key, temperature, prompt, extra arguments; accepted by the library", () => {
    const card = endpointCard({
      temperature: 0.7,
      systemPrompt: "Be brief.",
      common: { max_tokens: 256, top_p: 0.9, stop: ["END"] },
      extraJson: { seed: 7 },
    });
    const config = buildVerificationConfig(
      { ...INITIAL_RUN_SETTINGS, answering: [card], parsing: [card] },
      interfaces,
    );
    expect(config.answering_models?.[0]).toMatchObject({
      id: "answerer",
      model_name: "answerer",
      interface: "openai_endpoint",
      model_provider: null,
      endpoint_base_url: "http://127.0.0.1:9/v1",
      endpoint_api_key: "sk-test",
      temperature: 0.7,
      system_prompt: "Be brief.",
      max_tokens: 256,
      extra_kwargs: { top_p: 0.9, stop: ["END"], seed: 7 },
    });
    expect(() => parseVerificationConfig(config, { env: {} })).not.toThrow();
  });

  test("a langchain card sends its provider; MCP servers, tool filter and agent settings go on answering models", () => {
    const card: ModelCard = {
      ...defaultModelCard("answering"),
      mcpServers: [{ name: "docs", url: "https://example.org/mcp" }],
      mcpTools: ["search"],
      maxContextTokens: 50_000,
      agentMiddleware: null,
    };
    const answering = buildVerificationConfig({ ...INITIAL_RUN_SETTINGS, answering: [card] }, interfaces)
      .answering_models?.[0];
    expect(answering).toMatchObject({
      interface: "langchain",
      model_provider: "anthropic",
      model_name: "claude-haiku-4-5",
      mcp_urls_dict: { docs: "https://example.org/mcp" },
      mcp_tool_filter: ["search"],
      max_context_tokens: 50_000,
    });
  });

  test("a manual card needs traces and cannot parse", () => {
    const manual: ModelCard = { ...defaultModelCard("answering"), interface: "manual" };
    expect(() =>
      buildVerificationConfig({ ...INITIAL_RUN_SETTINGS, answering: [manual] }, interfaces),
    ).toThrow(/Upload manual traces/);
    const traced = { ...manual, manualTraces: { ["a".repeat(32)]: "Venetoclax." } };
    const config = buildVerificationConfig(
      { ...INITIAL_RUN_SETTINGS, answering: [traced], parsing: [endpointCard()] },
      interfaces,
    );
    expect(config.answering_models?.[0]).toMatchObject({
      interface: "manual",
      manual_traces: traced.manualTraces,
    });
    expect(() => parseVerificationConfig(config, { env: {} })).not.toThrow();
    expect(() => buildVerificationConfig({ ...INITIAL_RUN_SETTINGS, parsing: [traced] }, interfaces)).toThrow(
      /only answer/,
    );
  });

  test("a preset's config comes back as the same settings", () => {
    const evaluation: EvaluationSettings = {
      ...DEFAULT_EVALUATION,
      rubric: true,
      correctness: false,
      abstention: true,
      deepJudgment: true,
      fewShot: "k-shot",
      fewShotK: 4,
      replicates: 3,
    };
    const settings = { ...INITIAL_RUN_SETTINGS, answering: [endpointCard()], evaluation };
    const config = buildVerificationConfig(settings, interfaces);
    expect(evaluationOfConfig(config)).toEqual(evaluation);
    const card = cardOfModelConfig(config.answering_models?.[0] ?? {}, "answering");
    expect(card).toMatchObject({
      interface: "openai_endpoint",
      modelName: "answerer",
      endpointApiKey: "sk-test",
    });
  });
});

describe("the combination counter", () => {
  test("answering × parsing × replicates, and the Run Selected label", () => {
    const settings = settingsWith(
      { replicates: 3 },
      { answering: [endpointCard(), endpointCard()], parsing: [endpointCard()] },
    );
    expect(combinationsPerQuestion(settings)).toBe(6);
    expect(runSelectedLabel(4, 6)).toBe("Run Selected (4 × 6 = 24)");
    expect(runSelectedLabel(0, 1)).toBe("Run Selected (0 × 1 = 0)");
  });

  test("replicates are clamped to 1–10 and blank becomes 1", () => {
    expect(replicatesOf("")).toBe(1);
    expect(replicatesOf("0")).toBe(1);
    expect(replicatesOf("12")).toBe(10);
    expect(replicatesOf("4")).toBe(4);
    expect(replicatesOf("abc")).toBe(1);
  });
});
