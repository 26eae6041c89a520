import type { ModelIdentity } from "../../results/index.js";
import type { ModelConfig } from "./model/index.js";

export { canonicalKey, displayString, type ModelIdentity, ModelIdentitySchema } from "../../results/index.js";

/**
 * A model's identity for a role (spec 04 §3.1): answering models list their MCP server names as tools
 * (sorted), parsing models never do; `config_id` is the config's `id` only when it differs from the model name.
 */
export function modelIdentity(model: ModelConfig, role: "answering" | "parsing"): ModelIdentity {
  const modelName = model.model_name ?? "unknown";
  const tools = role === "answering" && model.mcp_urls_dict ? Object.keys(model.mcp_urls_dict).sort() : [];
  return {
    interface: model.interface,
    model_name: modelName,
    tools,
    config_id: model.id !== null && model.id !== modelName ? model.id : null,
  };
}
