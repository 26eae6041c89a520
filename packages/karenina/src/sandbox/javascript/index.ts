export { JavaScriptExecutionError } from "./errors.js";
export {
  type JavaScriptLoadOptions,
  JavaScriptSandbox,
  type JavaScriptSandboxOptions,
  type JavaScriptScript,
} from "./javascript-sandbox.js";
