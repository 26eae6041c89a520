import type { ModelConfigInput, VerificationConfigInput } from "../library-types/index.js";
import { DEFAULT_AGENT_MIDDLEWARE } from "./AgentSettings.js";
import {
  type CommonArguments,
  DEFAULT_EVALUATION,
  defaultModelCard,
  type EvaluationSettings,
  type ModelCard,
  type ModelRole,
  type RubricDeepJudgment,
} from "./run-settings.js";

const COMMON_KEYS = ["top_p", "frequency_penalty", "presence_penalty", "stop"] as const;

function splitExtra(
  extra: Readonly<Record<string, unknown>> | null | undefined,
): Pick<ModelCard, "common" | "extraJson"> {
  const common: Record<string, unknown> = {};
  const extraJson: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extra ?? {})) {
    if ((COMMON_KEYS as readonly string[]).includes(key)) common[key] = value;
    else extraJson[key] = value;
  }
  return { common: common as CommonArguments, extraJson };
}

/** A model card of a stored model config (a preset's); masked secrets come back blank. */
export function cardOfModelConfig(model: ModelConfigInput, role: ModelRole): ModelCard {
  const base = defaultModelCard(role);
  const split = splitExtra(model.extra_kwargs as Record<string, unknown> | null | undefined);
  const apiKey =
    typeof model.endpoint_api_key === "string" && !model.endpoint_api_key.includes("*")
      ? model.endpoint_api_key
      : "";
  return {
    ...base,
    interface: model.interface ?? "langchain",
    provider: model.model_provider ?? base.provider,
    modelName: model.model_name ?? "",
    endpointBaseUrl: model.endpoint_base_url ?? "",
    endpointApiKey: apiKey,
    temperature: model.temperature ?? 0.1,
    systemPrompt: model.system_prompt ?? "",
    common: model.max_tokens === undefined ? split.common : { ...split.common, max_tokens: model.max_tokens },
    extraJson: split.extraJson,
    agentMiddleware:
      model.agent_middleware === null || model.agent_middleware === undefined
        ? null
        : { ...DEFAULT_AGENT_MIDDLEWARE, ...(model.agent_middleware as object) },
    maxContextTokens: model.max_context_tokens ?? null,
    mcpServers: Object.entries(model.mcp_urls_dict ?? {}).map(([name, url]) => ({ name, url })),
    mcpTools: model.mcp_tool_filter ?? null,
  };
}

/** The evaluation controls of a stored config (the inverse of `buildVerificationConfig`'s evaluation part). */
export function evaluationOfConfig(config: VerificationConfigInput): EvaluationSettings {
  const mode = config.evaluation_mode ?? "template_only";
  const fewShot = config.few_shot_config;
  const poolMode =
    fewShot === null || fewShot === undefined || fewShot.source === "disabled"
      ? "off"
      : (fewShot.pool_mode ?? "all");
  const selections: Record<string, string[]> = {};
  for (const [id, question] of Object.entries(fewShot?.question_configs ?? {}))
    if (question.selected_examples) selections[id] = question.selected_examples.map(String);
  const rubricDeep = config.deep_judgment_rubric_mode;
  return {
    ...DEFAULT_EVALUATION,
    correctness: mode !== "rubric_only",
    rubric: mode !== "template_only",
    rubricStrategy: config.rubric_evaluation_strategy ?? "batch",
    abstention: config.abstention_enabled ?? false,
    sufficiency: config.sufficiency_enabled ?? false,
    embeddingCheck: config.embedding_check_enabled ?? false,
    embeddingThreshold: config.embedding_check_threshold ?? DEFAULT_EVALUATION.embeddingThreshold,
    deepJudgment: (config.deep_judgment_mode ?? "disabled") !== "disabled",
    deepJudgmentSearch: config.deep_judgment_search_enabled ?? false,
    rubricDeepJudgment:
      rubricDeep === "enable_all" || rubricDeep === "use_checkpoint"
        ? (rubricDeep as RubricDeepJudgment)
        : "disabled",
    rubricDeepJudgmentExcerpts:
      rubricDeep === "enable_all"
        ? (config.deep_judgment_rubric_global_excerpts ?? true)
        : DEFAULT_EVALUATION.rubricDeepJudgmentExcerpts,
    fewShot: poolMode,
    fewShotK: fewShot?.pool_k ?? 3,
    fewShotSelections: selections,
    replicates: config.replicate_count ?? 1,
    fullTraceForTemplate: config.use_full_trace_for_template ?? false,
    fullTraceForRubric: config.use_full_trace_for_rubric ?? true,
  };
}
