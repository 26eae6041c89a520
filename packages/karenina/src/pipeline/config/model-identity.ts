import type { ModelConfig } from "./model-config.js";

/** The identity of a model in results (spec 04 §3.1). */
export interface ModelIdentity {
  interface: string;
  model_name: string;
  tools: string[];
  config_id: string | null;
}

/**
 * A model's identity for a role: answering models list their MCP server names as tools (sorted), parsing
 * models never do; `config_id` is the config's `id` only when it differs from the model name.
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

/** `interface:model_name`, then ` (config_id)`, then ` +[t1, t2]`, for people to read. */
export function displayString(identity: ModelIdentity): string {
  const base = `${identity.interface}:${identity.model_name}`;
  const config = identity.config_id === null ? "" : ` (${identity.config_id})`;
  const tools = identity.tools.length === 0 ? "" : ` +[${identity.tools.join(", ")}]`;
  return base + config + tools;
}

/** `interface:model_name[:config_id]:tools` (tools sorted, `|`-joined): the key of tasks, resume and repair. */
export function canonicalKey(identity: ModelIdentity): string {
  const tools = [...identity.tools].sort().join("|");
  const parts = [identity.interface, identity.model_name];
  if (identity.config_id !== null) parts.push(identity.config_id);
  return [...parts, tools].join(":");
}
