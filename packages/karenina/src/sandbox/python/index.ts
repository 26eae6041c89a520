export { PythonExecutionError } from "./errors.js";
export type { JsonValue } from "./json-value.js";
export {
  type PythonRunRequest,
  PythonSandbox,
  type PythonSandboxOptions,
  type PythonSyntaxCheck,
} from "./python-sandbox.js";
