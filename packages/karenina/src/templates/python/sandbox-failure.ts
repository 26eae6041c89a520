import {
  PythonExecutionError,
  SandboxError,
  SandboxMemoryError,
  SandboxTimeoutError,
} from "../../sandbox/index.js";

/**
 * What a template's author needs to read when the sandbox, rather than the template's own logic, ended a call:
 * `Template timed out after 1000 ms`, `Template exceeded the memory limit of 64 MB (...)`, and so on.
 */
export function describeSandboxFailure(error: unknown): string {
  if (error instanceof SandboxTimeoutError) return `Template timed out after ${error.timeoutMs} ms`;
  if (error instanceof SandboxMemoryError) {
    return `Template exceeded the memory limit of ${error.limitMb} MB (${error.detail})`;
  }
  if (error instanceof PythonExecutionError) return `Template raised ${error.message}`;
  if (error instanceof SandboxError) return `Python sandbox failed: ${error.message}`;
  return `Python sandbox failed: ${error instanceof Error ? error.message : String(error)}`;
}
