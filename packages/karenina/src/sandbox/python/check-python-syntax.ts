import { PythonSandbox, type PythonSyntaxCheck } from "./python-sandbox.js";

let shared: PythonSandbox | null = null;

/**
 * Checks that Python code compiles, without running any of it (see {@link PythonSandbox.checkSyntax}), in
 * the given sandbox or else in one shared sandbox started at the first call. An idle sandbox never keeps
 * the process alive, so the shared one needs no closing.
 * @example
 * await checkPythonSyntax("x = 1"); // { ok: true }
 * await checkPythonSyntax("def f(:\n    pass"); // { ok: false, message: "Syntax error: invalid syntax at line 1", line: 1 }
 */
export function checkPythonSyntax(
  code: string,
  sandbox: PythonSandbox = sharedSandbox(),
): Promise<PythonSyntaxCheck> {
  return sandbox.checkSyntax(code);
}

function sharedSandbox(): PythonSandbox {
  shared ??= PythonSandbox.create();
  return shared;
}
