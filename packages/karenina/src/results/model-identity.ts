import { z } from "zod";

/**
 * The identity of a model in results (spec 04 §3.1, 06 §1.2): `{interface, model_name, tools, config_id}`.
 * `tools` are the answering model's MCP server names (sorted; always empty for parsing models); `config_id` is
 * the model config's `id` when it differs from the model name.
 * @example
 * ModelIdentitySchema.parse({ interface: "langchain", model_name: "gpt-4o" });
 * // { interface: "langchain", model_name: "gpt-4o", tools: [], config_id: null }
 */
export const ModelIdentitySchema = z.object({
  interface: z.string(),
  model_name: z.string(),
  tools: z.array(z.string()).default([]),
  config_id: z.string().nullable().default(null),
});
export type ModelIdentity = z.output<typeof ModelIdentitySchema>;

/**
 * `interface:model_name`, then ` (config_id)`, then ` +[t1, t2]`, for people to read (the original's
 * `answering_model` / `parsing_model` strings).
 * @example
 * displayString({ interface: "langchain", model_name: "gpt-5", tools: ["files", "search"], config_id: "agent" });
 * // "langchain:gpt-5 (agent) +[files, search]"
 */
export function displayString(identity: ModelIdentity): string {
  const base = `${identity.interface}:${identity.model_name}`;
  const config = identity.config_id === null ? "" : ` (${identity.config_id})`;
  const tools = identity.tools.length === 0 ? "" : ` +[${identity.tools.join(", ")}]`;
  return base + config + tools;
}

/**
 * `interface:model_name[:config_id]:tools` (tools sorted, `|`-joined): the key of tasks, result ids, resume
 * and repair.
 * @example
 * canonicalKey({ interface: "langchain", model_name: "gpt-4o", tools: [], config_id: null }); // "langchain:gpt-4o:"
 * canonicalKey({ interface: "langchain", model_name: "gpt-5", tools: ["search", "files"], config_id: "agent" });
 * // "langchain:gpt-5:agent:files|search"
 */
export function canonicalKey(identity: ModelIdentity): string {
  const tools = [...identity.tools].sort().join("|");
  const parts = [identity.interface, identity.model_name];
  if (identity.config_id !== null) parts.push(identity.config_id);
  return [...parts, tools].join(":");
}
