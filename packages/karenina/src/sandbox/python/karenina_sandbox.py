# The Python half of the sandbox: run as __main__ by the worker (python-worker.ts) right after Pyodide starts,
# before any other code; python-source.ts says what it destroys and why. Read by the host, sent to the worker.

def _karenina_neuter_bridge_types(bridge_types):
    """Replaces every callable of the bridge's mutable classes (constructors, methods, class and static
    methods, descriptors) by one that raises, and forbids subclassing them."""

    import gc

    def refuse(*args, **kwargs):
        raise TypeError("JavaScript objects are not available in the sandbox")

    # What the type machinery reads from a class itself (isinstance checks, generics, ABCs), not from instances.
    kept = {
        "__doc__", "__module__", "__qualname__", "__dict__", "__weakref__", "__slots__", "__abstractmethods__",
        "_abc_impl", "__parameters__", "__orig_bases__", "__firstlineno__", "__static_attributes__",
        "__annotations__", "__annotate_func__", "__annotations_cache__", "__type_params__", "__subclasshook__",
        "__class_getitem__", "_js_type_flags",
    }
    for cls in bridge_types:
        if issubclass(cls, type):
            continue
        if cls.__flags__ & (1 << 8):
            # Immutable C types refuse setattr. Their __new__, called alone, makes an object its __init__ never
            # filled in (JsFuncSignature's then crashes the interpreter), and their __init__ refills a live one:
            # both leave the type's own dict, which only its mappingproxy refers to. Calling the type still
            # runs both slots together.
            for namespace in gc.get_referents(vars(cls)):
                if type(namespace) is dict:
                    namespace.pop("__new__", None)
                    namespace.pop("__init__", None)
            continue
        for name, value in list(vars(cls).items()):
            if name not in kept and (callable(value) or hasattr(value, "__get__")):
                type.__setattr__(cls, name, refuse)
        type.__setattr__(cls, "__new__", staticmethod(refuse))
        type.__setattr__(cls, "__init__", refuse)
        type.__setattr__(cls, "__call__", refuse)
        type.__setattr__(cls, "__init_subclass__", classmethod(refuse))


def _karenina_verify_bridge_types(bridge_types, js_base):
    """Fails the start-up if any bridge class still yields a JavaScript object, or a JsProxy type any instance:
    called, through __new__ (its own or a base's), or through a subclass."""

    def attempts(cls):
        # The bridge's immutable C helpers (JsFuncSignature, ...) are not JsProxy types and make no JavaScript
        # object; called with wrong arguments, JsFuncSignature crashes the interpreter, so only __new__ is tried.
        if js_base in cls.__mro__ or not cls.__flags__ & (1 << 8):
            yield lambda: cls()
            yield lambda: cls("x")
        for base in cls.__mro__:
            yield lambda base=base: base.__new__(cls)
            yield lambda base=base: base.__new__(cls, "x")

    def made(attempt):
        try:
            return (attempt(),)
        except Exception:
            return ()

    for cls in bridge_types:
        if issubclass(cls, type):
            continue
        is_js_type = js_base in cls.__mro__
        try:
            subclass = type("_KareninaProbe", (cls,), {})
        except Exception:
            subclass = None
        for target in [cls] + ([subclass] if subclass else []):
            for attempt in attempts(target):
                for obj in made(attempt):
                    if is_js_type or isinstance(obj, js_base):
                        raise RuntimeError(
                            f"the sandbox lockdown failed: {cls.__module__}.{cls.__qualname__} still yields instances"
                        )


def _karenina_forbid_code_from_bytes():
    """Code objects come only from the compiler: crafted bytecode reads and writes memory at will. The hook
    holds no closure, defaults or globals an attacker could change, and its own code cannot be swapped."""
    import sys

    def audit(event, args):
        if event in ("code.__new__", "marshal.loads", "marshal.load") or (
            event == "object.__setattr__" and len(args) > 1 and args[1] == "__code__"
        ):
            raise RuntimeError(f"{event} is disabled in the sandbox: code objects come only from source")

    sys.addaudithook(audit)


def _karenina_lock_down():
    del globals()["_karenina_lock_down"]
    neuter_bridge_types = globals().pop("_karenina_neuter_bridge_types")
    verify_bridge_types = globals().pop("_karenina_verify_bridge_types")
    forbid_code_from_bytes = globals().pop("_karenina_forbid_code_from_bytes")
    import gc, sys, time, types, _imp

    bridge_roots = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core")
    blocked_roots = (
        *bridge_roots, "micropip",
        "ctypes", "_ctypes", "_testcapi", "_testinternalcapi", "_testlimitedcapi", "_testbuffer",
        "_testclinic", "_testclinic_limited", "_testmultiphase", "_testsinglephase", "_xxtestfuzz",
        "_remote_debugging", "socket", "_socket", "ssl", "_ssl", "asyncio", "_asyncio",
        "subprocess", "_posixsubprocess", "multiprocessing", "_multiprocessing",
    )

    def is_blocked(name):
        return isinstance(name, str) and any(name == r or name.startswith(r + ".") for r in blocked_roots)

    # Undo Pyodide's patch of time.sleep, whose helpers the lockdown removes.
    time.sleep = getattr(time.sleep, "__wrapped__", time.sleep)

    # Frozen modules too (runpy, ...): _imp.get_frozen_object, which loads them, is deleted below.
    for name in (*sys.builtin_module_names, *_imp._frozen_module_names()):
        if not is_blocked(name) and not name.startswith("__") and name not in sys.modules:
            try:
                __import__(name)
            except ImportError:
                pass

    # The C type every JsProxy type derives from, found from a JsProxy (the js module, scrubbed below with
    # whatever importing it made).
    js_base = type(__import__("js")).__mro__[-2]
    if js_base.__name__ != "JsProxy":
        raise RuntimeError(f"the sandbox lockdown expected Pyodide's JsProxy type, found {js_base!r}")

    # Held in tuples (never scrubbed) so that their ids stay valid while scrubbing.
    doomed = tuple(m for n, m in list(sys.modules.items()) if is_blocked(n) and isinstance(m, types.ModuleType))
    doomed_functions = tuple(
        v
        for m in doomed
        for v in vars(m).values()
        if isinstance(v, types.BuiltinFunctionType) and any(v.__self__ is d for d in doomed)
    )
    forbidden_ids = {id(v) for v in doomed + doomed_functions}
    js_proxy = sys.modules["pyodide.ffi"].JsProxy
    # Pyodide creates JsProxy subtypes at run time that __subclasses__() does not list: ask issubclass,
    # once per type.
    js_types = {}

    def is_js_type(kind):
        if kind not in js_types:
            try:
                js_types[kind] = issubclass(kind, js_proxy)
            except Exception:
                js_types[kind] = False
        return js_types[kind]

    def is_forbidden(value):
        return is_js_type(type(value)) or id(value) in forbidden_ids

    def holds_forbidden(obj):
        refs = gc.get_referents(obj)
        if isinstance(obj, types.FunctionType) and obj.__defaults__:
            refs += obj.__defaults__
        return any(is_forbidden(r) for r in refs)

    def scrub(obj):
        """Deletes the forbidden values held by a container, a function's defaults or an object's attributes."""
        if isinstance(obj, type):
            for key in [k for k, v in vars(obj).items() if is_forbidden(v)]:
                try:
                    type.__delattr__(obj, key)
                except TypeError:
                    pass
        elif isinstance(obj, dict):
            for key in [k for k, v in obj.items() if is_forbidden(v)]:
                del obj[key]
        elif isinstance(obj, list):
            obj[:] = [v for v in obj if not is_forbidden(v)]
        elif isinstance(obj, types.CellType):
            obj.cell_contents = None
        elif isinstance(obj, types.FunctionType):
            obj.__defaults__ = None
        else:
            try:
                scrub(object.__getattribute__(obj, "__dict__"))
            except Exception:
                pass

    # Classes first, through type.__delattr__, so their dicts are never edited behind the type cache's back.
    # Untracked dicts (holding only atoms such as JsProxies) are reached through their owners' referents.
    tracked = gc.get_objects()
    classes = [o for o in tracked if isinstance(o, type)]
    # The bridge's C helper types are static: the garbage collector does not list them, object's subclasses do.
    bridge_helpers = ("JsFuncSignature", "Py2JsConverter", "Js2PyConverter", "JsMethodCallSingleton")
    bridge_types = [
        c for c in classes if js_base in c.__mro__ or str(c.__module__).split(".")[0] in bridge_roots
    ] + [c for c in object.__subclasses__() if c.__name__ in bridge_helpers and c not in classes]
    others = [o for o in tracked if not isinstance(o, type)]
    others += [r for o in tracked for r in gc.get_referents(o) if type(r) is dict and not gc.is_tracked(r)]
    for obj in classes + others:
        if holds_forbidden(obj):
            scrub(obj)
    del tracked, classes, others
    for module in doomed:
        vars(module).clear()
    for name in [n for n in sys.modules if is_blocked(n)]:
        del sys.modules[name]
    # create_builtin and create_dynamic create C modules; get_frozen_object unmarshals any bytes it is given.
    del _imp.create_builtin, _imp.create_dynamic, _imp.get_frozen_object
    neuter_bridge_types(bridge_types)

    class BlockedImports:
        @staticmethod
        def find_spec(fullname, path=None, target=None):
            if is_blocked(fullname):
                raise ImportError(f"import of {fullname!r} is blocked in the sandbox", name=fullname)
            return None

    sys.meta_path[:] = [BlockedImports] + [
        f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("_pyodide")
    ]
    sys.excepthook = sys.__excepthook__
    sys.dont_write_bytecode = True
    (getattr(sys, "_clear_internal_caches", None) or sys._clear_type_cache)()
    gc.collect()
    verify_bridge_types(bridge_types, js_base)
    del bridge_types, js_base
    gc.collect()
    forbid_code_from_bytes()


def _karenina_handler():
    del globals()["_karenina_handler"]
    import builtins, json, linecache, traceback

    dumps, loads = json.dumps, json.loads
    format_exception = traceback.format_exception
    sandbox_file = "<karenina-sandbox>"

    def plain(value, path):
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError(f"result{path} is {value!r}, which JSON cannot hold")
            return float(value)
        if isinstance(value, (list, tuple)):
            return [plain(v, f"{path}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if not isinstance(k, str):
                    raise TypeError(f"result{path} has a key of type {type(k).__name__}; JSON keys are strings")
                out[str(k)] = plain(v, f"{path}[{k!r}]")
            return out
        raise TypeError(f"result{path} is a {type(value).__name__}, which is not JSON data")

    # Code objects are immutable, so the same text compiles once; callers run the same snippets again and again.
    compiled_cache = {}

    def compiled(source, filename, mode="exec"):
        key = (source, filename, mode)
        code = compiled_cache.get(key)
        if code is None:
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            code = compile(source, filename, mode, dont_inherit=True)
            if len(compiled_cache) >= 256:
                compiled_cache.clear()
            compiled_cache[key] = code
        return code

    def fresh_namespace(name):
        return {"__name__": name, "__builtins__": builtins}

    def run(request):
        namespace = fresh_namespace("__sandbox__")
        exec(compiled(request["code"], "<code>"), namespace)
        target = eval(compiled(request["entry"], "<entry>", "eval"), namespace)
        if "args" in request:
            target = target(*request["args"])
        return plain(target, "")

    def setup(request):
        exec(compiled(request["code"], "<setup>"), fresh_namespace("__sandbox_setup__"))
        return None

    def check(request):
        try:
            compile(request["code"], "<template>", "exec", dont_inherit=True)
        except SyntaxError as error:
            return {"ok": False, "message": f"Syntax error: {error.msg} at line {error.lineno}", "line": error.lineno}
        except Exception as error:
            return {"ok": False, "message": f"Parse error: {error}", "line": None}
        return {"ok": True}

    operations = {"run": run, "setup": setup, "check": check}

    def user_traceback(error):
        tb = error.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == sandbox_file:
            tb = tb.tb_next
        return "".join(format_exception(type(error), error, tb))

    def safely(describe, error):
        try:
            return str(describe(error))
        except BaseException:
            return f"<unprintable {type(error).__name__}>"

    def failure(error):
        return {
            "ok": False,
            "type": type(error).__name__,
            "message": safely(str, error),
            "traceback": safely(user_traceback, error),
        }

    def handle(request_text):
        try:
            request = loads(request_text)
            return dumps({"ok": True, "value": operations[request["op"]](request)})
        except BaseException as error:
            return dumps(failure(error))

    return handle
