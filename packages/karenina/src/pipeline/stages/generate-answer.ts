import { type Workspace, workspaceTools } from "../../agentic/index.js";
import {
  AdapterUnavailableError,
  assistantMessage,
  LlmAbortedError,
  type Message,
  type PortCapabilities,
} from "../../llm/index.js";
import { displayString } from "../../results/index.js";
import type { SharedAnswer } from "../answer-share.js";
import { classifyError, describeException } from "../classify-error.js";
import {
  agentTierFor,
  commandBackendFor,
  commandRunnerFor,
  modelIdentity,
  usesAgentPort,
} from "../config/index.js";
import type { VerificationContext } from "../context.js";
import { answeringMessages, promptForTask, workspaceParagraph } from "../prompts/index.js";
import type { Stage } from "../stage.js";
import { manualAnswer } from "./manual-answer.js";
import { replayedAnswer } from "./replayed-answer.js";
import { resolveTaskWorkspace } from "./task-workspace.js";

const AI_HEADER = "--- AI Message ---\n";

/** Copies an answer (live, shared, cached or replayed) into the task's artifacts and result fields. */
export function applyAnswer(ctx: VerificationContext, answer: SharedAnswer, generated: boolean): void {
  const { artifacts, draft } = ctx;
  artifacts.rawLlmResponse = answer.rawLlmResponse;
  artifacts.traceMessages = answer.traceMessages;
  artifacts.conversationContext = answer.conversationContext;
  artifacts.recursionLimitReached = answer.recursionLimitReached;
  artifacts.responseTimeoutPartial = answer.responseTimeoutPartial;
  draft.template.raw_llm_response = answer.rawLlmResponse;
  draft.template.recursion_limit_reached = answer.recursionLimitReached;
  draft.template.response_timeout_partial = answer.responseTimeoutPartial;
  draft.template.answering_mcp_servers = answer.answeringMcpServers;
  draft.template.usage_unavailable = answer.usageUnavailable;
  draft.template.agent_metrics = answer.agentMetrics;
  if (answer.workspace != null) artifacts.workspace = answer.workspace;
  if (answer.usage !== null && !generated) ctx.recordUsage("answer_generation", answer.usage, true);
}

/** What the answering agent is told it can do in its workspace (spec 04 §7.2). */
function agentCapabilities(
  ctx: VerificationContext,
): Pick<PortCapabilities, "supportsCodeExecution" | "usesSandboxedExecution"> {
  const model = ctx.task.answering;
  if (agentTierFor(model) === "deep_agent") return ctx.services.ports.agent(model).capabilities;
  const commands = ctx.services.agentCommands;
  return {
    supportsCodeExecution: commands,
    usesSandboxedExecution: commands && commandBackendFor(model.agent_runtime) !== "host",
  };
}

/**
 * One agent run of the answering model (spec 04 §5.2 step 7) in its workspace, if any: a tool-loop agent gets
 * the built-in read-write workspace tools (and `run_command` when the run allows commands) besides its MCP
 * servers; a deep agent works with its own tools, its cwd set to the workspace. The whole trace (tool calls,
 * tool results, intermediate text) becomes the raw response.
 */
async function generateWithAgent(
  ctx: VerificationContext,
  messages: Message[],
  workspace: Workspace | null,
): Promise<SharedAnswer | null> {
  const model = ctx.task.answering;
  const commands = ctx.services.agentCommands;
  const tools =
    workspace !== null && agentTierFor(model) === "tool_loop"
      ? workspaceTools(workspace.path, {
          mode: "read_write",
          allowCommands: commands,
          // The model's command backend, checked before the agent starts: a missing one fails the task.
          ...(commands ? { commandRunner: await commandRunnerFor(model.agent_runtime) } : {}),
        })
      : undefined;
  const result = await ctx.calls.runAgent({
    stage: "answer_generation",
    model,
    messages,
    options: {
      ...(workspace === null ? {} : { workingDir: workspace.path }),
      ...(tools === undefined ? {} : { tools }),
    },
  });
  if (result.timeoutReached) {
    if (result.traceMessages.length === 0) {
      ctx.markError("Agent timed out with no trace messages", "timeout");
      return null;
    }
    ctx.markError(
      `Agent timed out with partial trace (${result.rawTrace.length} chars, ${result.turns} turns)`,
      "timeout",
    );
  }
  const servers = Object.keys(model.mcp_urls_dict ?? {});
  return {
    rawLlmResponse: result.rawTrace,
    traceMessages: result.traceMessages,
    conversationContext: messages,
    recursionLimitReached: result.limitReached,
    responseTimeoutPartial: result.timeoutReached,
    usage: result.usage,
    usageUnavailable: result.usageUnavailable,
    agentMetrics: result.metrics,
    answeringMcpServers: servers.length > 0 ? servers : null,
  };
}

/**
 * The live answer (spec 04 §5.2 steps 2 and 5–9): the task's workspace is resolved first; then the answering
 * model runs as an agent (seed 002 §1: it has MCP servers or is a deep agent, or it works in a workspace) or
 * makes one call. It sees the bare question (plus system prompt, few-shot examples and the workspace
 * paragraph), nothing of the template or rubric. `receivers` tasks share the answer, and so its workspace.
 * Returns null, with the task's error set, when the call fails for good.
 */
async function generateLive(ctx: VerificationContext, receivers: number): Promise<SharedAnswer | null> {
  const { task, config } = ctx;
  const workspace = await resolveTaskWorkspace(ctx);
  const asAgent = workspace !== null || usesAgentPort(task.answering);
  let messages: Message[] = [];
  try {
    messages = answeringMessages({
      systemPrompt: task.answering.system_prompt,
      generationInstructions: promptForTask(config.prompt_config, "generation"),
      question: task.question.text,
      fewShotExamples: task.fewShotExamples,
      history: task.scenario?.history ?? [],
      workspaceParagraph:
        workspace === null ? null : workspaceParagraph(workspace.path, agentCapabilities(ctx)),
    });
    if (asAgent) {
      const answer = await generateWithAgent(ctx, messages, workspace);
      if (answer !== null && workspace !== null) {
        ctx.services.workspaces.share(workspace, receivers);
        answer.workspace = workspace;
      }
      return answer;
    }
    const response = await ctx.calls.invoke({
      stage: "answer_generation",
      model: task.answering,
      messages,
      stream: true,
    });
    const partial = response.isPartial;
    if (partial) {
      ctx.markError(
        `Response truncated by streaming timeout (${response.content.length} chars captured)`,
        "timeout",
      );
    }
    return {
      rawLlmResponse: AI_HEADER + response.content,
      traceMessages: [assistantMessage(response.content)],
      conversationContext: messages,
      recursionLimitReached: false,
      responseTimeoutPartial: partial,
      usage: response.usage,
      usageUnavailable: response.usageUnavailable,
      agentMetrics: { iterations: 1, limit_reached: false },
      answeringMcpServers: null,
    };
  } catch (error) {
    if (error instanceof LlmAbortedError || ctx.aborted) throw error;
    const prefix =
      error instanceof AdapterUnavailableError
        ? "Failed to initialize answering model"
        : "Adapter call failed";
    ctx.markError(
      `${prefix}: ${describeException(error)}`,
      classifyError(error, config.custom_error_patterns),
    );
    ctx.artifacts.conversationContext = messages;
    return null;
  }
}

/**
 * Stage 2 (spec 04 §5.2): the answer, from the first source that has one — the replay store, the task's
 * supplied answer (TaskEval), a `manual` model's registered trace, an answer another task of the same question, answering model and replicate
 * generated (one answer shared by every judge, with its workspace), or a live call. Every source but the
 * replay store gets the task's workspace when it needs one (seed 002 §2); a workspace that cannot be resolved
 * is the task's error.
 */
export const generateAnswerStage: Stage = {
  name: "GenerateAnswer",
  needs: [],
  gives: [
    "rawLlmResponse",
    "traceMessages",
    "conversationContext",
    "recursionLimitReached",
    "responseTimeoutPartial",
    "answeringModelStr",
  ],
  async run(ctx) {
    ctx.artifacts.answeringModelStr = displayString(modelIdentity(ctx.task.answering, "answering"));
    const replayed = replayedAnswer(ctx);
    if (replayed !== "miss") {
      if (replayed !== null) applyAnswer(ctx, replayed, false);
      return;
    }
    if (ctx.task.cachedAnswer) {
      await resolveTaskWorkspace(ctx);
      applyAnswer(ctx, ctx.task.cachedAnswer, false);
      return;
    }
    if (ctx.task.answering.interface === "manual") {
      await resolveTaskWorkspace(ctx);
      const manual = manualAnswer(ctx);
      if (manual !== null) applyAnswer(ctx, manual, false);
      return;
    }
    const { answer, generated } = await ctx.services.answers.getOrGenerate(
      ctx.task.answerKey,
      ctx.task.answerSharers,
      (receivers) => generateLive(ctx, receivers),
    );
    if (answer !== null) applyAnswer(ctx, answer, generated);
    else {
      ctx.artifacts.rawLlmResponse = "";
      ctx.artifacts.recursionLimitReached = false;
      ctx.draft.template.raw_llm_response = "";
    }
  },
};
