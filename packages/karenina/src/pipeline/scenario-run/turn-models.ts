import type { ScenarioNode, ToolFilter } from "../../scenario/index.js";
import type { ModelConfig } from "../config/index.js";

/** The models of one turn: the node's overrides, or the execution's base models. */
export interface TurnModels {
  answering: ModelConfig;
  parsing: ModelConfig;
}

/**
 * An override model completed from the base model it replaces (spec 08 §4.11): an OpenAI-compatible override
 * without a URL takes the base URL, and the base key when both talk to the same URL; an Anthropic override of the
 * same provider without a key takes the base key; the timeout and retry policy come from the base when unset.
 * An override answering model gets no default system prompt (quirk Q19).
 */
export function hydrateOverride(override: ModelConfig, base: ModelConfig): ModelConfig {
  const model: ModelConfig = { ...override };
  if (override.interface === "openai_endpoint" && base.interface === "openai_endpoint") {
    model.endpoint_base_url ??= base.endpoint_base_url;
    if (model.endpoint_api_key == null && model.endpoint_base_url === base.endpoint_base_url)
      model.endpoint_api_key = base.endpoint_api_key;
  }
  if (
    override.interface === base.interface &&
    override.model_provider === base.model_provider &&
    model.anthropic_api_key == null
  )
    model.anthropic_api_key = base.anthropic_api_key;
  model.request_timeout ??= base.request_timeout;
  model.retry_policy ??= base.retry_policy;
  return model;
}

/**
 * The answering model without the MCP tools a node's filter removes (quirk Q3, fixed: the original keeps the
 * filter in the file but never applies it). A whole server goes from `mcp_urls_dict`; one tool goes from the
 * model's allow-list (`mcp_tool_filter`). Without an allow-list one tool cannot be named away before the
 * server lists its tools: `warn` says so and the tool stays.
 */
export function applyToolFilter(
  model: ModelConfig,
  filter: ToolFilter | null,
  warn: (message: string) => void,
): ModelConfig {
  if (filter === null || filter.remove.length === 0 || model.mcp_urls_dict === null) return model;
  const servers = { ...model.mcp_urls_dict };
  let allowList = model.mcp_tool_filter === null ? null : [...model.mcp_tool_filter];
  for (const { server, tool } of filter.remove) {
    if (tool === null) delete servers[server];
    else if (allowList !== null) allowList = allowList.filter((name) => name !== tool);
    else
      warn(
        `tool filter: '${tool}' of server '${server}' stays: the model has no mcp_tool_filter allow-list to remove it from`,
      );
  }
  return {
    ...model,
    mcp_urls_dict: Object.keys(servers).length === 0 ? null : servers,
    mcp_tool_filter: allowList,
  };
}

/** The models a node's turn runs with (spec 08 §4.11, §4.12). */
export function turnModels(
  node: ScenarioNode,
  base: TurnModels,
  warn: (message: string) => void = () => undefined,
): TurnModels {
  const override = node.model_override;
  const answering = override?.answering_model
    ? hydrateOverride(override.answering_model, base.answering)
    : base.answering;
  return {
    answering: applyToolFilter(answering, node.tool_filter, warn),
    parsing: override?.parsing_model ? hydrateOverride(override.parsing_model, base.parsing) : base.parsing,
  };
}
