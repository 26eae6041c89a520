import { pythonAsset } from "../../python-assets/index.js";

/**
 * The Python half of the sandbox (`karenina_sandbox.py` beside this file), run by the worker right after Pyodide
 * starts and before any other code. The host reads the file when it starts its first worker and sends the text with
 * the worker's start-up data (`WorkerData.sandboxSource`): the worker process may read only its own modules and Pyodide's
 * files.
 *
 * The source only defines two functions, which the worker takes from `__main__` and calls directly (not
 * through `runPython`, whose machinery lives in the `_pyodide` modules the lockdown dismantles):
 * `_karenina_lock_down()` cuts every path from Python to JavaScript; `_karenina_handler()` then returns the
 * function the worker calls for each request. It takes and returns JSON text only, so no JavaScript object
 * ever enters Python and no Python object leaves it.
 *
 * The lockdown does not rely on hiding things from Python (adversarial code can walk `gc.get_objects()`,
 * `object.__subclasses__()`, closures and frames), but on destroying the capabilities themselves:
 * - every JsProxy (`js`, `pyodide_js`, the JS callbacks of asyncio's web loop, ...) is deleted from every
 *   dict, list and closure cell the garbage collector can see, including the ones nothing imports;
 * - the modules that bridge to JavaScript (`_pyodide_core`, `pyodide`, `_pyodide`), reach raw memory
 *   (`_ctypes`, the `_test*` C modules) or reach the network and processes (`_socket`, `_ssl`, `asyncio`,
 *   `_posixsubprocess`) are removed from `sys.modules`, their dicts cleared, and their functions deleted
 *   wherever they are referenced;
 * - all other built-in C modules are imported now, then `_imp.create_builtin` and `_imp.create_dynamic` are
 *   deleted, so no C module can ever be created again: a blocked module cannot come back through
 *   `importlib`, `sys.meta_path` tricks, `importlib.reload` or a direct `_imp` call;
 * - the bridge's classes themselves stay reachable (through `object.__subclasses__()`, the garbage collector,
 *   `__class__`), so they are neutered: every constructor, method, class and static method and descriptor
 *   of the mutable ones (the JsProxy types, `JsException` among them, and Pyodide's Python classes) is
 *   replaced by one that raises, subclassing them raises, and the immutable C helpers lose the `__new__`
 *   and `__init__` that could be called alone. Replacing `__new__` drops the C constructor for good:
 *   deleting the replacement leaves the type with none. A self-check then fails the start-up if any of
 *   them still yields an instance;
 * - an audit hook refuses code objects built from bytes (`types.CodeType`, `code.replace`, `marshal`, and
 *   `_imp.get_frozen_object`, deleted once the frozen modules are imported) and swapping a function's code:
 *   crafted bytecode reads and writes the interpreter's memory at will, which would forge any object;
 * - a meta-path finder gives blocked imports a clear error (it is a courtesy, not the barrier).
 *
 * The worker's import gate (`import-gate.ts`) is the floor under all of this: once locked it refuses every
 * import through which C code reaches JavaScript objects, and every write to the virtual file system.
 */
export const pythonSandboxSource: () => string = pythonAsset(
  new URL("./karenina_sandbox.py", import.meta.url),
);
