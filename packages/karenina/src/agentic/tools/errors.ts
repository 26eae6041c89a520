import { WorkspaceError } from "../workspace/index.js";

/**
 * A workspace tool could not do what the agent asked (no such file, a directory where a file was expected, a
 * bad pattern, a limit passed). The AI SDK hands the message back to the model as the tool's error result.
 */
export class WorkspaceToolError extends WorkspaceError {
  override readonly name = "WorkspaceToolError";

  constructor(
    readonly tool: string,
    message: string,
  ) {
    super(`${tool}: ${message}`);
  }
}
