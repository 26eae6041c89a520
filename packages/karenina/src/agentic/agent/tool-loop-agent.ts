/**
 * The `tool_loop` agent (spec 05 §3.3, seed 002 §1): the AI SDK's multi-step `generateText` over a provider
 * model, with the run's static tools and the tools of its MCP servers, stopped after `maxTurns` model turns.
 */
import { generateText, stepCountIs, type ToolSet } from "ai";
import { KareninaError } from "../../errors/index.js";
import {
  type AgentPort,
  type AgentResult,
  type AgentRunOptions,
  addUsage,
  BASE_CAPABILITIES,
  callSignal,
  emptyUsage,
  fromSdkUsage,
  type LanguageModelTarget,
  LlmAbortedError,
  type McpAttachment,
  type Message,
  toPortError,
} from "../../llm/index.js";
import { attachMcpServers, type McpToolbox } from "../mcp/index.js";
import { type AgentStep, toAgentPrompt, traceFromSteps } from "./agent-messages.js";
import { agentResult } from "./agent-result.js";
import { AgentExecutionError } from "./errors.js";
import type { AgentMiddleware } from "./middleware.js";
import { withModelRetry } from "./model-retry.js";
import { guardTools, type ToolGuardState } from "./tool-guard.js";
import { TraceSummarizer } from "./trace-summarizer.js";

/** Defaults of every run of a tool-loop agent; a run's own options win. */
export interface ToolLoopAgentOptions {
  /** Model turns allowed per run (default 25, the original's `model_call_limit`). */
  maxTurns?: number;
  /** Wall-clock limit of a run in milliseconds (default 180 000, the original's `agent_timeout`). */
  timeoutMs?: number;
  /**
   * Retries of one model call (default 2, the original's `model_retry.max_retries`); a call failing for good
   * throws. Ignored when `middleware` is given.
   */
  maxRetries?: number;
  /**
   * The original's agent middleware (retries of model and MCP tool calls, a tool-call limit, summarisation of
   * long conversations), as `agentMiddlewareFor` builds it from `agent_middleware`. Without it: plain model
   * retries (`maxRetries`), no tool retries, no tool-call limit, no summarisation.
   */
  middleware?: AgentMiddleware;
  /** MCP servers attached to every run. */
  mcp?: McpAttachment | null;
  /** Static tools offered in every run. */
  tools?: ToolSet;
}

const DEFAULT_MAX_TURNS = 25;
const DEFAULT_TIMEOUT_MS = 180_000;
const DEFAULT_MAX_RETRIES = 2;

function summedUsage(steps: readonly AgentStep[], model: string) {
  return steps.reduce((sum, step) => addUsage(sum, fromSdkUsage(step.usage, model)), emptyUsage());
}

/** The turn limit stopped the loop: it took every turn and the last one still called tools. */
function hitTurnLimit(steps: readonly AgentStep[], maxTurns: number): boolean {
  const last = steps.at(-1);
  return steps.length >= maxTurns && last !== undefined && last.content.some((p) => p.type === "tool-call");
}

/**
 * A tool-loop `AgentPort` over an AI SDK model, as routed for any provider (`openai_endpoint`, `openai`,
 * `anthropic`, `google`, `openrouter`). Each run attaches its MCP servers, loops until the model answers
 * without calling a tool or `maxTurns` turns are taken (then `limitReached`), and closes the servers however
 * the run ends. The wall-clock limit ends the run with `timeoutReached` and the turns completed so far; an
 * abort throws `LlmAbortedError`; a provider error is thrown as the port errors (`LlmCallError`, ...).
 * @example
 * const agent = toolLoopAgent(openAiEndpointModel({ baseURL: "http://127.0.0.1:8000", apiKey: "k", modelName: "qwen" }), { maxTurns: 10 });
 * typeof agent.run; // "function"
 */
export function toolLoopAgent(target: LanguageModelTarget, defaults: ToolLoopAgentOptions = {}): AgentPort {
  const model = target.modelName;
  return {
    capabilities: BASE_CAPABILITIES,
    async run(messages: readonly Message[], options: AgentRunOptions = {}): Promise<AgentResult> {
      const maxTurns = options.maxTurns ?? defaults.maxTurns ?? DEFAULT_MAX_TURNS;
      const timeoutMs = options.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const mcp = options.mcp === undefined ? (defaults.mcp ?? null) : options.mcp;
      const staticTools: ToolSet = { ...defaults.tools, ...options.tools };
      const steps: AgentStep[] = [];
      const middleware = defaults.middleware;
      const summarizer = middleware?.summarization ? new TraceSummarizer(middleware.summarization) : null;
      const guard: ToolGuardState = { calls: 0, fatal: null };
      const finish = (timeoutReached: boolean) =>
        agentResult(traceFromSteps(steps, model), {
          usage: addUsage(summedUsage(steps, model), summarizer?.usage ?? emptyUsage()),
          turns: steps.length,
          limitReached: hitTurnLimit(steps, maxTurns),
          timeoutReached,
        });
      const deadline = callSignal(timeoutMs, options.signal);
      let toolbox: McpToolbox | null = null;
      try {
        if (mcp !== null && Object.keys(mcp.servers).length > 0) {
          toolbox = await attachMcpServers(mcp, {
            reservedNames: new Set(Object.keys(staticTools)),
            signal: deadline.signal,
            ...(options.workingDir === undefined ? {} : { workingDir: options.workingDir }),
          });
        }
        const allTools: ToolSet = { ...staticTools, ...toolbox?.tools };
        const tools =
          middleware === undefined
            ? allTools
            : guardTools(allTools, new Set(Object.keys(toolbox?.tools ?? {})), middleware, guard);
        const prompt = toAgentPrompt(messages);
        await generateText({
          model: middleware === undefined ? target.model : withModelRetry(target, middleware),
          ...(prompt.system === null ? {} : { system: prompt.system }),
          messages: prompt.messages,
          ...(Object.keys(tools).length === 0 ? {} : { tools }),
          stopWhen: [stepCountIs(maxTurns), () => guard.fatal !== null],
          abortSignal: deadline.signal,
          maxRetries: middleware === undefined ? (defaults.maxRetries ?? DEFAULT_MAX_RETRIES) : 0,
          ...(target.temperature === undefined ? {} : { temperature: target.temperature }),
          ...(target.maxTokens === undefined ? {} : { maxOutputTokens: target.maxTokens }),
          ...target.request,
          ...(summarizer === null
            ? {}
            : {
                prepareStep: async ({ messages: stepMessages }) => {
                  const replaced = await summarizer.prepare(stepMessages, deadline.signal);
                  return replaced === undefined ? {} : { messages: replaced };
                },
              }),
          onStepFinish: (step) => {
            steps.push(step);
          },
        });
        if (guard.fatal !== null) {
          throw new AgentExecutionError(`Agent stopped: ${guard.fatal.message}`, null, false, guard.fatal);
        }
        return finish(false);
      } catch (error) {
        if (deadline.aborted()) throw new LlmAbortedError(model, error);
        if (deadline.timedOut()) return finish(true);
        if (KareninaError.isInstance(error)) throw error;
        throw toPortError(error, {
          model,
          timeoutMs,
          timedOut: false,
          aborted: false,
          secrets: target.secrets ?? [],
        });
      } finally {
        deadline.dispose();
        await toolbox?.close();
      }
    },
    close: async () => {},
  };
}
