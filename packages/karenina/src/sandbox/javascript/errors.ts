import { SandboxError } from "../errors.js";

/**
 * The sandboxed JavaScript threw (a `SyntaxError` while loading included). Carries the error's name, its
 * message and the QuickJS stack, whose frames are the sandboxed code's (`<input>:line:column`).
 */
export class JavaScriptExecutionError extends SandboxError {
  override readonly name = "JavaScriptExecutionError";

  constructor(
    readonly jsName: string,
    readonly jsMessage: string,
    readonly jsStack: string,
  ) {
    super(jsMessage === "" ? jsName : `${jsName}: ${jsMessage}`);
  }
}
