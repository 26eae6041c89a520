import { PythonSandbox } from "../../sandbox/index.js";

let shared: PythonSandbox | null = null;

/**
 * The sandbox Python templates use when none is given: created at the first call, so Pyodide loads once per
 * process and only when a Python template is first used. An idle sandbox never keeps the process alive.
 */
export function defaultPythonSandbox(): PythonSandbox {
  shared ??= PythonSandbox.create();
  return shared;
}
