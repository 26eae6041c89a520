import { SandboxError } from "../errors.js";

/**
 * The Python code raised an exception (a `SyntaxError` included). Carries the exception's type name, its
 * message and the formatted traceback, whose frames are the sandboxed code's (`<code>`, `<setup>`).
 */
export class PythonExecutionError extends SandboxError {
  override readonly name = "PythonExecutionError";

  constructor(
    readonly pythonType: string,
    readonly pythonMessage: string,
    readonly traceback: string,
  ) {
    super(pythonMessage === "" ? pythonType : `${pythonType}: ${pythonMessage}`);
  }
}
