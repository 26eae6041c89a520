/**
 * Worker used by python-sandbox-escapes-import-gate.test.ts (written for this project): loads Pyodide behind
 * the import gate but WITHOUT the Python lockdown (so `import js` still works), locks the gate, and reports
 * what Python can still do: change the file system, import the standard library, reach JavaScript.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { PyodideAPI } from "pyodide";
import { installImportGate } from "../import-gate.js";

const gate = installImportGate();
const { loadPyodide } = (await import(workerData.pyodideModule)) as typeof import("pyodide");
const pyodide: PyodideAPI = await loadPyodide({
  indexURL: workerData.pyodideDirectory,
  stdout: () => undefined,
  stderr: () => undefined,
});
const beforeLock = pyodide.runPython("import js\nstr(js.Object.keys(js.Object.new()).length)");
// Called as the worker calls its handler: a string in, a string out (runPython itself crosses the bridge).
pyodide.runPython(`
def probe(code):
    namespace = {}
    try:
        exec(code, namespace)
        return str(namespace.get("result"))
    except BaseException as error:
        return f"refused: {type(error).__name__}: {error}"
`);
const probe = pyodide.globals.get("probe") as (code: string) => string;
gate.lock();

/** Runs Python through `probe`; returns what it returned, or the JavaScript error that ended it. */
function outcome(code: string): string {
  try {
    return probe(code);
  } catch (error) {
    return `refused: ${String(error).split("\n")[0]}`;
  }
}

const report = {
  beforeLock,
  guardedBridgeImports: [...gate.guarded].filter((name) => /^Jsv?|^JsProxy/.test(name)).length,
  writeTmp: outcome("open('/tmp/after-lock', 'w')"),
  makeDirectory: outcome("import os\nos.mkdir('/tmp/dir')"),
  readStdlib: outcome("import fractions\nresult = fractions.Fraction(1, 2) + 1"),
  // Last: a refused bridge import ends the interpreter (Pyodide reports a fatal error).
  reachJavaScript: outcome("import js\nresult = js.Object.keys(js.Object.new()).length"),
};
parentPort?.postMessage(report);
