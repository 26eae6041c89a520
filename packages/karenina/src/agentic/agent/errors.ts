import { PortError } from "../../llm/index.js";

/**
 * An agent run failed as a whole (spec 05 §3.4): the runtime reported an error, or could not be started.
 * `stderr` holds what the runtime printed, when it is a process.
 */
export class AgentExecutionError extends PortError {
  override readonly name: string = "AgentExecutionError";

  constructor(
    message: string,
    readonly stderr: string | null = null,
    readonly limitReached = false,
    cause?: unknown,
  ) {
    super(message, { cause });
  }
}
