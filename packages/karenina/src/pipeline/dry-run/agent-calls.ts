import { join } from "node:path";
import { z } from "zod";
import type { Message } from "../../llm/index.js";
import type { ModelConfig } from "../config/index.js";
import type { CallKind, DryRunStage } from "./call-kinds.js";
import type { CallPlanner, PlannedCall } from "./planned-call.js";
import { type Placeholders, TOKENS_PER_MESSAGE } from "./token-counter.js";

/** Model turns assumed per agent run (fewer when the run's turn limit is lower). */
export const ASSUMED_AGENT_TURNS = 5;
/** Tokens assumed per tool result sent back to the agent (a listing, a search, part of a file). */
export const ASSUMED_TOOL_RESULT_TOKENS = 400;

/** An agent run to estimate: its first request, the tools offered with every turn, and its limits. */
export interface AgentRun {
  stage: DryRunStage;
  target: PlannedCall["target"];
  /** A judge other than the task's parsing model. */
  model?: ModelConfig;
  messages: readonly Message[];
  placeholders?: Placeholders;
  /** The tokens of the tool definitions sent with every turn. */
  toolTokens: number;
  maxTurns: number;
  /** The kind and item count of the last turn's reply (the answer, or the report). */
  final: { kind: CallKind; items: number };
}

/** The turns an agent is assumed to take: {@link ASSUMED_AGENT_TURNS}, at most its turn limit. */
export const assumedTurns = (maxTurns: number) => Math.max(1, Math.min(ASSUMED_AGENT_TURNS, maxTurns));

/** The tokens one turn adds to the conversation: the model's tool call and the tool's result. */
const turnGrowth = (planner: CallPlanner) =>
  planner.output("agent_turn") + ASSUMED_TOOL_RESULT_TOKENS + 2 * TOKENS_PER_MESSAGE;

/**
 * The calls of one agent run: one per turn, each resending the whole conversation, so each turn's input is
 * the first request (with the tool definitions) plus every earlier turn's tool call and tool result. Every
 * turn but the last calls one tool; the last gives the answer or report.
 */
export function agentRunCalls(planner: CallPlanner, run: AgentRun): PlannedCall[] {
  const turns = assumedTurns(run.maxTurns);
  const first = planner.tokens(run.messages, run.placeholders) + run.toolTokens;
  const growth = turnGrowth(planner);
  return Array.from({ length: turns }, (_, turn): PlannedCall => {
    const last = turn === turns - 1;
    return {
      stage: run.stage,
      kind: last ? run.final.kind : "agent_turn",
      target: run.target,
      ...(run.model === undefined ? {} : { model: run.model }),
      inputTokens: first + turn * growth,
      outputTokens: last ? planner.output(run.final.kind, run.final.items) : planner.output("agent_turn"),
    };
  });
}

/** The length of an agent's trace: every turn's tool call and tool result, then the final reply. */
export function agentTraceTokens(planner: CallPlanner, maxTurns: number, final: number): number {
  return (assumedTurns(maxTurns) - 1) * turnGrowth(planner) + final;
}

/** A tool as the AI SDK defines it: what its definition sends the model. */
interface ToolDefinition {
  description?: string;
  inputSchema: unknown;
}

const toolTokenMemo = new Map<string, number>();

/**
 * The tokens of tool definitions as a request carries them (name, description, JSON Schema of the input),
 * counted once per tool set: `key` names the set.
 */
export function toolDefinitionTokens(
  planner: CallPlanner,
  key: string,
  tools: Readonly<Record<string, ToolDefinition>>,
): number {
  let tokens = toolTokenMemo.get(key);
  if (tokens === undefined) {
    tokens = Object.entries(tools).reduce((sum, [name, tool]) => {
      const parameters = z.toJSONSchema(tool.inputSchema as z.ZodType);
      const definition = { type: "function", function: { name, description: tool.description, parameters } };
      return sum + planner.textTokens(JSON.stringify(definition));
    }, 0);
    toolTokenMemo.set(key, tokens);
  }
  return tokens;
}

/** Where a question's working copy would be made: its name has the run's suffix, so only its length matters. */
export function estimatedWorkspacePath(
  root: string | null,
  question: { id: string; workspacePath: string | null },
): string {
  return join(root ?? "workspaces", `${question.workspacePath || question.id}_run_20260101T000000_pid12345`);
}
