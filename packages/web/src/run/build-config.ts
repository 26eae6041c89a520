import type { ModelConfigInput, ModelInterface, VerificationConfigInput } from "../library-types/index.js";
import type { EvaluationSettings, ModelCard, ModelRole, RunSettings } from "./run-settings.js";

/** Settings that cannot make a config (the page says why instead of sending it). */
export class RunSettingsError extends Error {
  override readonly name = "RunSettingsError";
}

type EvaluationMode = NonNullable<VerificationConfigInput["evaluation_mode"]>;

/**
 * `evaluation_mode` of the Correctness and Rubric toggles (spec 07 §1.5, our decision): correctness alone →
 * `template_only`, both → `template_and_rubric`, rubric alone → `rubric_only`; neither is refused.
 */
export function evaluationModeOf(
  evaluation: Pick<EvaluationSettings, "correctness" | "rubric">,
): EvaluationMode {
  if (evaluation.correctness && evaluation.rubric) return "template_and_rubric";
  if (evaluation.correctness) return "template_only";
  if (evaluation.rubric) return "rubric_only";
  throw new RunSettingsError("Turn on Correctness or Rubric: a run needs at least one kind of evaluation.");
}

/** Whether a card of this interface is an agent (deep agent tier) or carries MCP servers. */
export function isAgentCard(card: ModelCard, interfaces: readonly ModelInterface[]): boolean {
  const spec = interfaces.find((item) => item.name === card.interface);
  return spec?.agent_tier === "deep_agent" || card.mcpServers.length > 0;
}

/** Whether the card's interface needs a provider (the LangChain-style ones), per the server's registry. */
export function needsProvider(interfaceName: string, interfaces: readonly ModelInterface[]): boolean {
  return interfaces.find((item) => item.name === interfaceName)?.requires_provider ?? false;
}

/** The `extra_kwargs` of a card: the Common tab (without max tokens, a model field) then the JSON tab. */
export function extraKwargsOf(card: ModelCard): Record<string, unknown> | null {
  const { max_tokens: _maxTokens, ...common } = card.common;
  const merged: Record<string, unknown> = { ...common, ...card.extraJson };
  return Object.keys(merged).length === 0 ? null : merged;
}

/** The keys set both in the Common tab and in the JSON tab (the dialog flags them; JSON wins). */
export function conflictingExtraKeys(
  common: ModelCard["common"],
  json: Readonly<Record<string, unknown>>,
): string[] {
  return Object.keys(common).filter((key) => Object.hasOwn(json, key));
}

/** One model card as a model config of the library (spec 04 §3). */
export function modelConfigOf(
  card: ModelCard,
  role: ModelRole,
  interfaces: readonly ModelInterface[],
): ModelConfigInput {
  if (card.interface === "manual") {
    if (role !== "answering") throw new RunSettingsError("The manual interface can only answer, not parse.");
    if (card.manualTraces === null)
      throw new RunSettingsError("Upload manual traces for the manual answering model before running.");
    return {
      id: "manual",
      model_name: "manual",
      interface: "manual",
      system_prompt: card.systemPrompt === "" ? null : card.systemPrompt,
      manual_traces: card.manualTraces as Record<string, string>,
    };
  }
  const modelName = card.modelName.trim();
  if (modelName === "") throw new RunSettingsError(`Every ${role} model needs a model name.`);
  const config: ModelConfigInput = {
    id: modelName,
    model_name: modelName,
    interface: card.interface,
    model_provider: needsProvider(card.interface, interfaces) ? card.provider : null,
    temperature: card.temperature,
    system_prompt: card.systemPrompt === "" ? null : card.systemPrompt,
    extra_kwargs: extraKwargsOf(card),
  };
  if (card.common.max_tokens !== undefined) config.max_tokens = card.common.max_tokens;
  if (card.interface === "openai_endpoint") {
    config.endpoint_base_url = card.endpointBaseUrl.trim() === "" ? null : card.endpointBaseUrl.trim();
    config.endpoint_api_key = card.endpointApiKey === "" ? null : card.endpointApiKey;
  }
  if (role === "answering" && card.mcpServers.length > 0) {
    config.mcp_urls_dict = Object.fromEntries(card.mcpServers.map((server) => [server.name, server.url]));
    config.mcp_tool_filter = card.mcpTools === null ? null : [...card.mcpTools];
  }
  if (role === "answering" && isAgentCard(card, interfaces)) {
    if (card.agentMiddleware !== null) config.agent_middleware = { ...card.agentMiddleware };
    if (card.maxContextTokens !== null) config.max_context_tokens = card.maxContextTokens;
  }
  return config;
}

/** `few_shot_config` of the few-shot controls (null when off), with the custom picks of the selected questions. */
export function fewShotConfigOf(
  evaluation: EvaluationSettings,
  questionIds: readonly string[],
): VerificationConfigInput["few_shot_config"] {
  if (evaluation.fewShot === "off") return null;
  if (evaluation.fewShot === "all") return { source: "question_pool", pool_mode: "all" };
  if (evaluation.fewShot === "k-shot")
    return { source: "question_pool", pool_mode: "k-shot", pool_k: evaluation.fewShotK };
  const question_configs: Record<string, { mode: "custom"; selected_examples: string[] }> = {};
  for (const id of questionIds) {
    const picked = evaluation.fewShotSelections[id];
    if (picked !== undefined) question_configs[id] = { mode: "custom", selected_examples: [...picked] };
  }
  return { source: "question_pool", pool_mode: "custom", question_configs };
}

/**
 * The library's `VerificationConfig` (its input form) of the screen's settings, for `POST /api/v2/verifications`
 * and presets; the server validates it. Throws {@link RunSettingsError} for settings no config can express.
 */
export function buildVerificationConfig(
  settings: Pick<RunSettings, "answering" | "parsing" | "evaluation">,
  interfaces: readonly ModelInterface[],
  questionIds: readonly string[] = [],
): VerificationConfigInput {
  const { evaluation } = settings;
  const rubricDeep = evaluation.rubric ? evaluation.rubricDeepJudgment : "disabled";
  return {
    answering_models: settings.answering.map((card) => modelConfigOf(card, "answering", interfaces)),
    parsing_models: settings.parsing.map((card) => modelConfigOf(card, "parsing", interfaces)),
    replicate_count: evaluation.replicates,
    evaluation_mode: evaluationModeOf(evaluation),
    rubric_evaluation_strategy: evaluation.rubricStrategy,
    abstention_enabled: evaluation.abstention,
    sufficiency_enabled: evaluation.sufficiency,
    embedding_check_enabled: evaluation.embeddingCheck,
    embedding_check_threshold: evaluation.embeddingThreshold,
    deep_judgment_mode: evaluation.deepJudgment ? "full" : "disabled",
    deep_judgment_search_enabled: evaluation.deepJudgment && evaluation.deepJudgmentSearch,
    deep_judgment_rubric_mode: rubricDeep,
    deep_judgment_rubric_global_excerpts:
      rubricDeep === "enable_all" && evaluation.rubricDeepJudgmentExcerpts,
    few_shot_config: fewShotConfigOf(evaluation, questionIds),
    use_full_trace_for_template: evaluation.fullTraceForTemplate,
    use_full_trace_for_rubric: evaluation.fullTraceForRubric,
  };
}

/** Runs per question: answering models × parsing models × replicates. */
export function combinationsPerQuestion(
  settings: Pick<RunSettings, "answering" | "parsing" | "evaluation">,
): number {
  return settings.answering.length * settings.parsing.length * settings.evaluation.replicates;
}

/** The main button's label: "Run Selected (s × c = t)". */
export function runSelectedLabel(selected: number, combinations: number): string {
  return `Run Selected (${selected} × ${combinations} = ${selected * combinations})`;
}

/** Replicates from the input's text: an integer 1–10 (blank → 1, as on blur). */
export function replicatesOf(text: string): number {
  const value = Math.round(Number(text));
  if (text.trim() === "" || !Number.isFinite(value)) return 1;
  return Math.min(10, Math.max(1, value));
}
