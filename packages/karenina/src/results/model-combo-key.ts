import { displayString } from "./model-identity.js";
import type { VerificationResult } from "./verification-result.js";

/** The MCP servers attached to the answering model of a row (`template.answering_mcp_servers`), or `[]`. */
export function answeringMcpServers(result: VerificationResult): string[] {
  return result.template?.answering_mcp_servers ?? [];
}

/**
 * The answering model of a row as the result set groups it: its display string, suffixed ` + MCP[a,b]` when
 * MCP servers were attached.
 * @example
 * const identity = { interface: "openai_endpoint", model_name: "answerer" };
 * const row = parseVerificationResult({
 *   metadata: { question_id: "q1", template_id: "no_template", question_text: "Why?", answering: identity,
 *     parsing: identity, execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template: { answering_mcp_servers: ["files", "search"] },
 * });
 * answeringModelKey(row); // "openai_endpoint:answerer + MCP[files,search]"
 */
export function answeringModelKey(result: VerificationResult): string {
  const display = displayString(result.metadata.answering);
  const servers = answeringMcpServers(result);
  return servers.length === 0 ? display : `${display} + MCP[${servers.join(",")}]`;
}

/**
 * The model combination of a row as summaries key it (spec 06 §3.1): `"<answering> | <parsing>"`, then
 * ` | mcp1, mcp2` when MCP servers were attached to the answering model. Models are display strings.
 * @example
 * const row = parseVerificationResult({
 *   metadata: { question_id: "q1", template_id: "no_template", question_text: "Why?",
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1-mini" },
 *     execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 * });
 * modelComboKey(row); // "openai:gpt-4.1 | openai:gpt-4.1-mini"
 */
export function modelComboKey(result: VerificationResult): string {
  const pair = `${displayString(result.metadata.answering)} | ${displayString(result.metadata.parsing)}`;
  const servers = answeringMcpServers(result);
  return servers.length === 0 ? pair : `${pair} | ${servers.join(", ")}`;
}
