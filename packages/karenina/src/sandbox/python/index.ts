export { PythonExecutionError } from "./errors.js";
export type { JsonValue } from "./json-value.js";
export {
  type SandboxConfinement,
  SandboxConfinementError,
  sandboxConfinement,
} from "./os-confinement/index.js";
export {
  type PythonRunRequest,
  PythonSandbox,
  type PythonSandboxOptions,
  type PythonStateReset,
  type PythonSyntaxCheck,
} from "./python-sandbox.js";
