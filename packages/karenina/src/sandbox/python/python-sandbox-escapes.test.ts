/**
 * Real escape attempts, each of which must fail. Sandboxed code is treated as adversarial: it may walk the
 * garbage collector, class hierarchies and closures, rewrite the import system, and call C functions
 * directly.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonExecutionError } from "./errors.js";
import { PythonSandbox } from "./python-sandbox.js";

const SECRET = "KARENINA_SECRET_TEST";
/** The first sandbox loads Pyodide; the second starts from the snapshot the first one made. */
const KINDS = ["loaded from scratch", "restored from a snapshot"] as const;
const sandboxes = new Map<string, PythonSandbox>();
let sandbox: PythonSandbox;
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  process.env[SECRET] = "host-secret-value";
  server = createServer((socket) => {
    connections += 1;
    socket.end("HTTP/1.0 200 OK\r\n\r\nreached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  for (const kind of KINDS) {
    const created = PythonSandbox.create();
    await created.start();
    sandboxes.set(kind, created);
  }
  // Two interpreters start here, on a machine that may be busy with other work.
}, 120_000);

afterAll(async () => {
  delete process.env[SECRET];
  for (const created of sandboxes.values()) await created.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Runs code that leaves its findings in `found`; returns them. */
function probe(code: string): Promise<unknown> {
  return sandbox.run({ code, entry: "found" });
}

/** Runs code that must raise; returns the Python exception's type name. */
async function raised(code: string): Promise<string> {
  const error = await sandbox.run({ code, entry: "None" }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PythonExecutionError);
  return (error as PythonExecutionError).pythonType;
}

/** Python that collects every class reachable from `object`, into `classes`. */
const ALL_CLASSES = `
classes, stack = set(), [object]
while stack:
    cls = stack.pop()
    if cls in classes:
        continue
    classes.add(cls)
    try:
        stack.extend(type.__subclasses__(cls))
    except TypeError:
        pass
JsProxy = next(c for c in classes if c.__name__ == "JsProxy" and c.__module__ == "pyodide.ffi")
`;

describe.each(KINDS)("in an interpreter %s", (kind) => {
  beforeAll(() => {
    sandbox = sandboxes.get(kind) as PythonSandbox;
  });

  describe("no JavaScript object is reachable", () => {
    test.each([
      ["import js", "import js"],
      ["import pyodide_js", "import pyodide_js"],
      ["pyodide.ffi.to_js", "from pyodide.ffi import to_js"],
      ["pyodide.ffi.create_proxy", "from pyodide.ffi import create_proxy"],
      ["pyodide.code.run_js", "from pyodide.code import run_js"],
      ["pyodide.http.pyfetch", "from pyodide.http import pyfetch"],
      ["_pyodide internals", "import _pyodide._importhook"],
      ["the C bridge _pyodide_core", "import _pyodide_core"],
      ["__import__", "__import__('js')"],
      ["builtins.__import__ from __builtins__", "__builtins__.__import__('pyodide_js')"],
      ["importlib.import_module", "import importlib\nimportlib.import_module('js')"],
      [
        "importlib's pure-Python __import__",
        "import importlib._bootstrap as b\nb.__import__('_pyodide_core')",
      ],
      ["sys.modules", "import sys\nsys.modules['js']"],
    ])("%s fails", async (_, code) => {
      expect(await raised(code)).toMatch(/ImportError|ModuleNotFoundError|KeyError/);
    });

    test("no JsProxy is left anywhere the garbage collector can see", async () => {
      const code = `${ALL_CLASSES}
import gc, types
found = []
for obj in gc.get_objects():
    for ref in [obj, *gc.get_referents(obj)]:
        if isinstance(ref, JsProxy):
            found.append(type(obj).__name__)
        if isinstance(ref, types.FunctionType):
            for value in [*(ref.__defaults__ or ()), *(ref.__closure__ or ())]:
                if isinstance(getattr(value, "cell_contents", value), JsProxy):
                    found.append(ref.__qualname__)
`;
      expect(await probe(code)).toEqual([]);
    });

    test("no function of any class has globals holding a JS object or a bridge module", async () => {
      const code = `${ALL_CLASSES}
import types
bridges = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core")
found = set()
for cls in classes:
    for attr in list(vars(cls).values()):
        for value in (getattr(attr, "__globals__", None) or {}).values():
            name = getattr(value, "__name__", "") if isinstance(value, types.ModuleType) else ""
            if isinstance(value, JsProxy) or name.split(".")[0] in bridges:
                found.add(cls.__qualname__)
found = sorted(found)
`;
      expect(await probe(code)).toEqual([]);
    });

    test("the bridge's classes cannot make a JS object", async () => {
      const code = `${ALL_CLASSES}
found = []
for cls in [c for c in classes if c.__module__ in ("pyodide.ffi", "_pyodide_core")]:
    for make in (lambda: cls(), lambda: cls({}), lambda: cls.__new__(cls), lambda: cls.new({})):
        try:
            if isinstance(make(), JsProxy):
                found.append(cls.__name__)
        except BaseException:
            pass
`;
      expect(await probe(code)).toEqual([]);
    });

    test("restoring the standard import system does not bring the bridge back", async () => {
      const code = `
import sys, _frozen_importlib as fi, _frozen_importlib_external as fe
saved = list(sys.meta_path)
found = []
try:
    sys.meta_path[:] = [fi.BuiltinImporter, fi.FrozenImporter, fe.PathFinder]
    for name in ("js", "pyodide_js", "_pyodide_core", "pyodide.ffi", "_ctypes"):
        try:
            __import__(name)
            found.append(name)
        except BaseException:
            pass
finally:
    sys.meta_path[:] = saved
`;
      expect(await probe(code)).toEqual([]);
    });

    test("C modules cannot be created again, through _imp or importlib", async () => {
      expect(
        await raised("import _imp, types\n_imp.create_builtin(types.SimpleNamespace(name='_pyodide_core'))"),
      ).toBe("AttributeError");
      const viaSpec = `
import importlib.machinery as m, importlib.util as u
u.module_from_spec(m.ModuleSpec("_pyodide_core", m.BuiltinImporter, origin="built-in"))`;
      expect(await raised(viaSpec)).toBe("AttributeError");
    });

    test("Pyodide's own Python sources, loaded straight from the stdlib zip, cannot reach the bridge", async () => {
      const code = "import zipimport\nzipimport.zipimporter('/lib/python314.zip').load_module('pyodide')";
      expect(await raised(code)).toMatch(/ImportError/);
      const reload = "import importlib, json\nimportlib.reload(json)\nimport pyodide";
      expect(await raised(reload)).toBe("ImportError");
    });

    test("ctypes and raw-memory test modules are blocked", async () => {
      for (const name of ["ctypes", "_ctypes", "_testcapi", "_testinternalcapi"]) {
        expect(await raised(`import ${name}`)).toBe("ImportError");
      }
    });
  });

  describe("no host file system", () => {
    test("host files do not exist: only Pyodide's in-memory file system is visible", async () => {
      expect(await raised("open('/etc/passwd').read()")).toBe("FileNotFoundError");
      const code = `import os\nfound = [sorted(os.listdir("/")), os.path.exists(${JSON.stringify(process.cwd())})]`;
      expect(await probe(code)).toEqual([["dev", "home", "lib", "proc", "tmp"], false]);
    });

    test("the code cannot write files, in the sandbox or on the host", async () => {
      const name = `karenina-sandbox-${process.pid}-${Date.now()}`;
      expect(await raised(`open("/tmp/${name}", "w").write("x")`)).toBe("OSError");
      expect(await probe(`import os\nfound = os.path.exists("/tmp/${name}")`)).toBe(false);
      expect(existsSync(join(tmpdir(), name))).toBe(false);
      expect(existsSync(join("/tmp", name))).toBe(false);
    });
  });

  describe("no network", () => {
    test("urllib, socket and pyfetch cannot be imported", async () => {
      const code = `import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/").read()`;
      expect(await raised(code)).toBe("ImportError");
      expect(await raised("import socket")).toBe("ImportError");
      expect(await raised("import http.client")).toBe("ImportError");
      expect(connections).toBe(0);
    });

    test("a socket made from the C type found through object.__subclasses__() cannot connect", async () => {
      const code = `${ALL_CLASSES}
socket_type = next(c for c in classes if c.__module__ == "_socket" and c.__name__ == "socket")
try:
    s = socket_type(2, 1)
    s.connect(("127.0.0.1", ${port}))
    found = s.recv(100).decode()
except OSError as error:
    found = type(error).__name__
`;
      expect(await probe(code)).toBe("PermissionError");
      expect(connections).toBe(0);
    });
  });

  describe("no environment and no processes", () => {
    test("the host's environment variables and paths are not visible", async () => {
      expect(process.env[SECRET]).toBe("host-secret-value");
      const code =
        "import os, sys\nfound = repr([dict(os.environ), sys.argv, sys.orig_argv, sys.path, sys.executable, sys._base_executable, sys.prefix])";
      const seen = (await probe(code)) as string;
      expect(seen).not.toContain(SECRET);
      expect(seen).not.toContain("host-secret-value");
      expect(seen).not.toContain(process.cwd());
      expect(await probe("import os\nfound = os.getenv('KARENINA_SECRET_TEST')")).toBeNull();
    });

    test("os.system runs nothing on the host", async () => {
      const marker = join(tmpdir(), `karenina-sandbox-system-${process.pid}-${Date.now()}`);
      expect(await probe(`import os\nfound = os.system("touch ${marker}")`)).toBe(-1);
      expect(existsSync(marker)).toBe(false);
    });

    test("subprocess, fork and the host's standard input are out of reach", async () => {
      expect(await raised("import subprocess")).toBe("ImportError");
      expect(await raised("import os\nos.fork()")).toBe("OSError");
      expect(await raised("input()")).toBe("EOFError");
    });
  });
});
