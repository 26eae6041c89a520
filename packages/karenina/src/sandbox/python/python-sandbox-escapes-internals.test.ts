/**
 * Escape attempts through the interpreter's own machinery (written for this project): leftovers of Pyodide in
 * `sys.modules`, the import system and the garbage collector, raw memory through ctypes, and code objects
 * built from bytes (crafted bytecode reads and writes memory at will, which would forge any object).
 */
import { expect, test } from "vitest";
import { sandboxForTheseTests } from "../../test-support/python-sandbox-for-tests.js";
import { BRIDGE_TYPES, expectStillWorks, probe, raised } from "./__fixtures__/hostile-python.js";

const sandbox = sandboxForTheseTests({ timeoutMs: 20_000 });

const BLOCKED_ROOTS = `("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "ctypes", "_ctypes",
    "_testcapi", "_testinternalcapi", "_socket", "socket", "_ssl", "asyncio", "_posixsubprocess")`;

test("sys.modules and the modules the garbage collector sees hold nothing of Pyodide or of blocked modules", async () => {
  const code = `
import gc, sys, types
roots = ${BLOCKED_ROOTS}
found = sorted(n for n in sys.modules if n.split(".")[0] in roots)
found += sorted(
    m.__name__ for m in gc.get_objects()
    if isinstance(m, types.ModuleType) and str(getattr(m, "__name__", "")).split(".")[0] in roots
    and set(vars(m)) - {"__name__", "__doc__", "__package__", "__loader__", "__spec__"}
)`;
  expect(await probe(sandbox, code)).toEqual([]);
});

test("the import system keeps no finder, loader or path hook of Pyodide", async () => {
  const code = `
import sys
held = [*sys.meta_path, *sys.path_hooks, *sys.path_importer_cache.values()]
found = [repr(h) for h in held if "pyodide" in (getattr(h, "__module__", "") or type(h).__module__ or "")]`;
  expect(await probe(sandbox, code)).toEqual([]);
});

test("importlib's machinery does not find or create the bridge modules", async () => {
  const code = `
import importlib, importlib.util, importlib.machinery as m
found = []
for name in ("js", "pyodide_js", "_pyodide_core", "pyodide.ffi", "_ctypes"):
    for attempt in (
        lambda: importlib.util.module_from_spec(importlib.util.find_spec(name)),
        lambda: importlib.util.module_from_spec(m.BuiltinImporter.find_spec(name)),
        lambda: m.BuiltinImporter.create_module(m.ModuleSpec(name, m.BuiltinImporter)),
        lambda: importlib.util.module_from_spec(m.PathFinder.find_spec(name)),
        lambda: importlib.import_module(name),
    ):
        try:
            if attempt() is not None:
                found.append(name)
        except BaseException:
            pass`;
  expect(await probe(sandbox, code)).toEqual([]);
});

test("no ctypes type is reachable through object.__subclasses__()", async () => {
  const code = `${BRIDGE_TYPES}
found = sorted(c.__qualname__ for c in all_classes() if str(c.__module__).split(".")[0] in ("ctypes", "_ctypes"))`;
  expect(await probe(sandbox, code)).toEqual([]);
});

test("code objects cannot be built from bytes: CodeType, code.replace, marshal, _imp.get_frozen_object", async () => {
  const prelude = "import types, marshal, _imp\nco = compile('x = 1', 'f', 'exec')\n";
  const fields =
    "argcount posonlyargcount kwonlyargcount nlocals stacksize flags code consts names varnames filename name qualname firstlineno linetable exceptiontable freevars cellvars";
  for (const [attempt, pythonType] of [
    ["found = co.replace(co_code=co.co_code)", "RuntimeError"],
    [`found = types.CodeType(*[getattr(co, 'co_' + f) for f in '${fields}'.split()])`, "RuntimeError"],
    ["found = marshal.loads(marshal.dumps(co))", "RuntimeError"],
    ["found = _imp.get_frozen_object('zipimport', marshal.dumps(co))", "AttributeError"],
    ["(lambda: 0).__code__ = co", "RuntimeError"],
  ]) {
    const error = await raised(sandbox, `${prelude}${attempt}`);
    expect([attempt, error.pythonType]).toEqual([attempt, pythonType]);
  }
  expect(await probe(sandbox, "found = eval(compile('6 * 7', '<x>', 'eval'))")).toBe(42);
  await expectStillWorks(sandbox);
});

test("gc.get_referrers and inspect lead from the bridge's types to no JavaScript object or bridge function", async () => {
  const code = `${BRIDGE_TYPES}
import inspect
doomed = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core")
def bad(value):
    if is_js(value):
        return True
    owner = getattr(value, "__self__", None)
    return isinstance(value, types.BuiltinFunctionType) and isinstance(owner, types.ModuleType) and str(owner.__name__).split(".")[0] in doomed
found = []
for cls in [c for c in all_classes() if bridge_type(c)]:
    for r in gc.get_referrers(cls):
        values = r.values() if isinstance(r, dict) else r if isinstance(r, (list, tuple)) else [r]
        found += [f"referrer of {cls.__name__}" for v in list(values) if bad(v)]
    try:
        members = inspect.getmembers(cls)
    except BaseException:
        members = []
    found += [f"{cls.__name__}.{n}" for n, v in members if bad(v)]
for f in [o for o in gc.get_objects() if isinstance(o, types.FunctionType) and str(o.__module__).split(".")[0] in doomed]:
    try:
        closure = inspect.getclosurevars(f)
    except BaseException:
        continue
    found += [f.__qualname__ for v in [*closure.nonlocals.values(), *closure.globals.values()] if bad(v)]
found = sorted(set(found))`;
  expect(await probe(sandbox, code)).toEqual([]);
});
