import { dirname } from "node:path";
import { type Workspace, workspaceTools } from "../../agentic/index.js";
import type { AgentRunOptions } from "../../llm/index.js";
import { AgentRuntimeConfigSchema, agentTierFor, type ModelConfig } from "../config/index.js";

const readOnlyModels = new WeakMap<ModelConfig, ModelConfig>();

/**
 * The model a judge agent runs as: a deep agent is switched to `access_mode: read_only` (Claude Code is then
 * offered only its reading tools), since a judge looks and never touches; a tool-loop model is unchanged (it
 * gets read-only workspace tools per run).
 */
export function judgeAgentModel(model: ModelConfig): ModelConfig {
  if (agentTierFor(model) !== "deep_agent") return model;
  let judge = readOnlyModels.get(model);
  if (judge === undefined) {
    const runtime = model.agent_runtime ?? AgentRuntimeConfigSchema.parse({});
    judge = { ...model, agent_runtime: { ...runtime, access_mode: "read_only" } };
    readOnlyModels.set(model, judge);
  }
  return judge;
}

/** How a judge agent investigates: its run options, and whether it has file tools (for its prompt). */
export interface JudgeRun {
  options: Omit<AgentRunOptions, "signal">;
  fileTools: boolean;
}

/**
 * A judge agent's run (agentic parsing, agentic traits): no MCP servers; `maxTurns`; `timeoutSeconds` (0 or
 * null: the model's `agent_timeout`, else 180 s); and, when it may look at the workspace, the built-in
 * read-only tools for a tool-loop judge. A deep agent always has the workspace (when there is one) as its cwd,
 * as in the original: it needs a directory, and the workspace is the one it may read. With a materialised
 * trace (`traceFile`) the judge must be able to read that file even when it may not look at the workspace:
 * its read-only tools (or, for a deep agent without a workspace, its cwd) are then the trace's directory.
 * Judges never run commands.
 */
export function judgeRun(
  model: ModelConfig,
  workspace: Workspace | null,
  showsWorkspace: boolean,
  limits: { maxTurns: number; timeoutSeconds: number | null },
  traceFile: string | null = null,
): JudgeRun {
  const sees = showsWorkspace && workspace !== null;
  const deep = agentTierFor(model) === "deep_agent";
  const traceDir = traceFile === null ? null : dirname(traceFile);
  const toolRoot = sees ? workspace.path : traceDir;
  const workingDir = workspace !== null && (sees || deep) ? workspace.path : deep ? traceDir : null;
  const options: Omit<AgentRunOptions, "signal"> = {
    mcp: null,
    maxTurns: limits.maxTurns,
    ...(limits.timeoutSeconds ? { timeoutMs: limits.timeoutSeconds * 1000 } : {}),
    ...(workingDir !== null ? { workingDir } : {}),
    ...(toolRoot !== null && !deep ? { tools: workspaceTools(toolRoot, { mode: "read_only" }) } : {}),
  };
  return { options, fileTools: toolRoot !== null };
}
