import type { ToolSet } from "ai";
import { KareninaError } from "../../errors/index.js";
import { type AgentMiddleware, attempts, errorSummary, retrying } from "./middleware.js";

/** A tool call the middleware answered with an error result instead of running it (or after it failed). */
export class ToolCallRefusedError extends KareninaError {
  override readonly name: string = "ToolCallRefusedError";
}

/** The text the original's tool-call limit answers with, once the run has used its calls. */
export const TOOL_LIMIT_MESSAGE = "Tool call limit exceeded. Do not make additional tool calls.";

/** What the guarded tools of one run share: the calls made, and the error that must end the run. */
export interface ToolGuardState {
  calls: number;
  fatal: Error | null;
}

/**
 * The run's tools with the middleware's rules around each call: calls beyond `toolCallLimit` are refused (or
 * end the run), and the tools named in `retried` (the MCP tools) are retried with backoff when they throw —
 * after the last attempt the model gets `Tool 'name' failed after N attempts with Type: message. Please try
 * again.`, or the run ends (`raise`). A run ended by a tool sets `state.fatal`; the loop stops after the step.
 */
export function guardTools(
  tools: ToolSet,
  retried: ReadonlySet<string>,
  middleware: AgentMiddleware,
  state: ToolGuardState,
): ToolSet {
  const guarded: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (execute === undefined) {
      guarded[name] = tool;
      continue;
    }
    guarded[name] = {
      ...tool,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        state.calls++;
        if (state.calls > middleware.toolCallLimit) {
          const refusal = new ToolCallRefusedError(TOOL_LIMIT_MESSAGE);
          if (middleware.toolLimitExceeded === "error") {
            state.fatal ??= new ToolCallRefusedError(
              `Tool call limit exceeded: the run made more than ${middleware.toolCallLimit} tool calls`,
            );
          }
          throw refusal;
        }
        const run = () => Promise.resolve(execute(input as never, options));
        if (!retried.has(name)) return run();
        return retrying(
          run,
          middleware.toolRetry,
          {
            signal: options.abortSignal,
            ...(middleware.sleep === undefined ? {} : { sleep: middleware.sleep }),
            ...(middleware.random === undefined ? {} : { random: middleware.random }),
          },
          (error, made) => {
            if (middleware.toolRetry.onFailure === "raise") {
              state.fatal ??= error instanceof Error ? error : new Error(String(error));
              throw error;
            }
            throw new ToolCallRefusedError(
              `Tool '${name}' failed after ${attempts(made)} with ${errorSummary(error)}. Please try again.`,
            );
          },
        );
      },
    } as ToolSet[string];
  }
  return guarded;
}
