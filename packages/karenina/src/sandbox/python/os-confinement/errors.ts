import { SandboxError } from "../../errors.js";

/**
 * A sandbox process was not started because the operating system cannot confine it as required
 * (`KARENINA_SANDBOX_CONFINEMENT=require`), or because a confinement setting is not valid.
 */
export class SandboxConfinementError extends SandboxError {
  override readonly name = "SandboxConfinementError";
}
