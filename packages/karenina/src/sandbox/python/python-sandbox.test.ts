import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SandboxError } from "../errors.js";
import { PythonExecutionError } from "./errors.js";
import { PythonSandbox } from "./python-sandbox.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create();
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

async function pythonError(promise: Promise<unknown>): Promise<PythonExecutionError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PythonExecutionError);
  return error as PythonExecutionError;
}

describe("results", () => {
  test("Python values come back as the matching JSON data", async () => {
    const code = `
value = {
    "none": None, "yes": True, "no": False, "int": -42, "big": 2**53, "float": 2.5,
    "text": "Œuvre – 東京 🎉", "list": [1, "a", None], "tuple": (1, (2, 3)), "nested": {"k": [{"x": 1.0}]},
}`;
    expect(await sandbox.run({ code, entry: "value" })).toEqual({
      none: null,
      yes: true,
      no: false,
      int: -42,
      big: 2 ** 53,
      float: 2.5,
      text: "Œuvre – 東京 🎉",
      list: [1, "a", null],
      tuple: [1, [2, 3]],
      nested: { k: [{ x: 1 }] },
    });
  });

  test("the entry is called with the JSON arguments when args are given", async () => {
    const code =
      "def describe(name, tags, options):\n    return f\"{name}:{len(tags)}:{options['deep']['flag']}\"";
    const args = ["é", ["a", "b"], { deep: { flag: true } }];
    expect(await sandbox.run({ code, entry: "describe", args })).toBe("é:2:True");
  });

  test("an entry can be any expression over the code's namespace", async () => {
    const code =
      "class Answer:\n    def verify(self, city):\n        return city.strip().lower() in {'paris', 'rome'}";
    expect(await sandbox.run({ code, entry: "Answer().verify", args: [" Paris "] })).toBe(true);
    expect(await sandbox.run({ code: "", entry: "sorted({3, 1, 2})" })).toEqual([1, 2, 3]);
  });

  test.each([
    ["a set", "{1, 2}", /result is a set/],
    ["an object", "object()", /result is a object/],
    ["a non-string key", "{1: 'a'}", /has a key of type int/],
    ["NaN", "float('nan')", /which JSON cannot hold/],
    ["a nested function", "{'f': [len]}", /result\['f'\]\[0\] is a builtin_function_or_method/],
  ])("a result holding %s is refused with the path to the bad value", async (_, entry, message) => {
    const error = await pythonError(sandbox.run({ code: "", entry }));
    expect(error.message).toMatch(message);
  });
});

describe("errors", () => {
  test("a Python exception carries its type, message and a traceback of the code's own frames", async () => {
    const code = "def score(d):\n    return d['missing']\n";
    const error = await pythonError(sandbox.run({ code, entry: "score", args: [{}] }));
    expect(error.pythonType).toBe("KeyError");
    expect(error.pythonMessage).toBe("'missing'");
    expect(error.message).toBe("KeyError: 'missing'");
    expect(error.traceback).toContain('File "<code>", line 2, in score');
    expect(error.traceback).toContain("return d['missing']");
    expect(error.traceback).not.toContain("karenina-sandbox");
    expect(error).toBeInstanceOf(SandboxError);
  });

  test("a syntax error in the code is a PythonExecutionError of type SyntaxError", async () => {
    const error = await pythonError(sandbox.run({ code: "def f(:\n    pass", entry: "f" }));
    expect(error.pythonType).toBe("SyntaxError");
  });

  test("SystemExit raised by the code is an ordinary error and the sandbox carries on", async () => {
    const error = await pythonError(sandbox.run({ code: "import sys\nsys.exit(3)", entry: "0" }));
    expect(error.pythonType).toBe("SystemExit");
    expect(await sandbox.run({ code: "", entry: "1 + 1" })).toBe(2);
  });

  test("an exception whose str() raises is still reported", async () => {
    const code =
      "class Weird(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\nraise Weird()";
    const error = await pythonError(sandbox.run({ code, entry: "0" }));
    expect(error.pythonType).toBe("Weird");
    expect(error.pythonMessage).toBe("<unprintable Weird>");
  });
});

describe("namespaces", () => {
  test("each call runs in a fresh namespace", async () => {
    await sandbox.run({ code: "leftover = 1\nclass Kept: pass", entry: "leftover" });
    const error = await pythonError(sandbox.run({ code: "", entry: "leftover" }));
    expect(error.pythonType).toBe("NameError");
    expect((await pythonError(sandbox.run({ code: "", entry: "Kept" }))).pythonType).toBe("NameError");
  });

  test("code can define classes and functions that refer to each other", async () => {
    const code = `
def normalise(text):
    return text.strip().lower()

class Base:
    def check(self, value):
        return normalise(value) == self.expected

class Answer(Base):
    expected = "paris"
`;
    expect(await sandbox.run({ code, entry: "Answer().check", args: ["  PARIS"] })).toBe(true);
  });

  test("setup runs once per interpreter and the modules it registers stay importable", async () => {
    const setup = `
import sys, types
compat = types.ModuleType("compat")
compat.runs = getattr(sys.modules.get("compat"), "runs", 0) + 1
compat.greet = lambda name: f"hello {name}"
sys.modules["compat"] = compat
`;
    const code = "import compat";
    expect(await sandbox.run({ setup, code, entry: "compat.greet", args: ["x"] })).toBe("hello x");
    expect(await sandbox.run({ setup, code, entry: "compat.runs" })).toBe(1);
    expect(await sandbox.run({ code, entry: "compat.runs" })).toBe(1);
  });

  test("a failing setup is reported and tried again by the next call", async () => {
    const setup =
      "import sys\nsys.modules.setdefault('flaky', type(sys)('flaky'))\nraise ValueError('setup broke')";
    const error = await pythonError(sandbox.run({ setup, code: "", entry: "1" }));
    expect(error.message).toBe("ValueError: setup broke");
    expect(error.traceback).toContain('File "<setup>", line 3');
    await expect(sandbox.run({ setup, code: "", entry: "1" })).rejects.toThrow("setup broke");
  });
});

describe("syntax checks", () => {
  test("valid code passes without being executed", async () => {
    expect(await sandbox.checkSyntax("while True:\n    pass\nraise SystemExit(1)")).toEqual({ ok: true });
  });

  test("a syntax error is reported as the original's validate_templates() reports it", async () => {
    expect(
      await sandbox.checkSyntax("class Answer(BaseAnswer):\n    x: int\n    def verify(self:\n        pass"),
    ).toEqual({
      ok: false,
      message: "Syntax error: '(' was never closed at line 3",
      line: 3,
    });
    expect(await sandbox.checkSyntax("def f():\nreturn 1")).toEqual({
      ok: false,
      message: "Syntax error: expected an indented block after function definition on line 1 at line 2",
      line: 2,
    });
  });

  test("a syntax error without a line number is reported as Python words it", async () => {
    expect(await sandbox.checkSyntax("x = 1\0")).toEqual({
      ok: false,
      message: "Syntax error: source code string cannot contain null bytes at line None",
      line: null,
    });
  });

  test("an unclosed bracket names the bracket", async () => {
    expect(await sandbox.checkSyntax("x = (1,")).toEqual({
      ok: false,
      message: "Syntax error: '(' was never closed at line 1",
      line: 1,
    });
  });
});

test("the TSDoc examples hold", async () => {
  expect(await sandbox.run({ code: "def add(a, b):\n    return a + b", entry: "add", args: [2, 3] })).toBe(5);
  const invalid = { ok: false, message: "Syntax error: invalid syntax at line 1", line: 1 };
  expect(await sandbox.checkSyntax("def f(:\n")).toEqual(invalid);
  expect(await sandbox.checkSyntax("x = 1")).toEqual({ ok: true });
});

describe("lifecycle", () => {
  test("concurrent calls are served one at a time, each with its own result", async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => sandbox.run({ code: `n = ${n}`, entry: "lambda: n * 10", args: [] })),
    );
    expect(results).toEqual([10, 20, 30, 40, 50]);
  });

  test("a sandbox closed while it starts stops its worker and refuses calls", async () => {
    const closing = PythonSandbox.create();
    const starting = closing.start();
    await closing.close();
    await expect(starting).rejects.toThrow("closed");
    await expect(closing.run({ code: "", entry: "1" })).rejects.toThrow(SandboxError);
  });

  test("an idle sandbox does not keep the host process alive", { timeout: 40_000 }, async () => {
    const script = `
import { PythonSandbox } from ${JSON.stringify(new URL("./python-sandbox.ts", import.meta.url).href)};
console.log(await PythonSandbox.create().run({ code: "", entry: "6 * 7" }));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", script],
      { cwd: fileURLToPath(new URL(".", import.meta.url)), timeout: 30_000 },
    );
    expect(stdout.trim()).toBe("42");
  });

  test("a closed sandbox refuses calls", async () => {
    const closing = PythonSandbox.create();
    await closing.close();
    await expect(closing.run({ code: "", entry: "1" })).rejects.toThrow(SandboxError);
  });
});
