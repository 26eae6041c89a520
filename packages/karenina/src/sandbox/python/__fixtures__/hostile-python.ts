/**
 * Helpers shared by the python-sandbox-escapes-*.test.ts files (written for this project): run hostile
 * Python in a sandbox and tell how it ended.
 */
import { expect } from "vitest";
import { PythonExecutionError } from "../errors.js";
import type { PythonSandbox } from "../python-sandbox.js";

/** Runs code that leaves its findings in `found`; returns them. */
export function probe(sandbox: PythonSandbox, code: string): Promise<unknown> {
  return sandbox.run({ code, entry: "found" });
}

/** Runs code that must raise a Python exception; returns it. */
export async function raised(sandbox: PythonSandbox, code: string): Promise<PythonExecutionError> {
  const error = await sandbox.run({ code, entry: "None" }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PythonExecutionError);
  return error as PythonExecutionError;
}

/** A normal call on the same sandbox, which must still answer after a hostile one. */
export async function expectStillWorks(sandbox: PythonSandbox): Promise<void> {
  expect(await sandbox.run({ code: "import fractions\nx = fractions.Fraction(1, 3) * 3", entry: "int(x)" })).toBe(1);
}

/**
 * Python that defines `all_classes()`, every class reachable from `object` through `__subclasses__()`, and
 * `bridge_type(cls)`, whether a class belongs to Pyodide's JavaScript bridge (a JsProxy type, one of
 * Pyodide's Python classes, or a C helper type of the bridge).
 */
export const BRIDGE_TYPES = `
import sys, types, gc

def all_classes():
    seen, stack = set(), [object]
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        try:
            stack.extend(type.__subclasses__(cls))
        except TypeError:
            pass
    return seen

BRIDGE_MODULES = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core")
BRIDGE_HELPERS = ("JsFuncSignature", "Py2JsConverter", "Js2PyConverter", "JsMethodCallSingleton")

def bridge_type(cls):
    try:
        mro = type.__getattribute__(cls, "__mro__")
    except Exception:
        return False
    for c in mro:
        module = str(type.__getattribute__(c, "__module__") or "")
        if module.split(".")[0] in BRIDGE_MODULES or c.__name__ in BRIDGE_HELPERS:
            return True
    return False

JS_BASE = next(
    c for c in all_classes()
    if c.__name__ == "JsProxy" and c.__module__ == "pyodide.ffi" and c.__flags__ & (1 << 8)
)

def is_js(value):
    return isinstance(value, JS_BASE)
`;
