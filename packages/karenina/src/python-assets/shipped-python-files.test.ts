/**
 * The library's Python (the sandbox's lockdown, the template layer, the callable-trait picker) lives in `.py` files
 * under src/, where Python's own tools read it: each one compiles with the host's python3, each one a module names
 * exists, and the build copies each one beside its compiled module in dist/.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const run = promisify(execFile);
const SRC = fileURLToPath(new URL("../", import.meta.url));
const COPY_SCRIPT = fileURLToPath(new URL("../../scripts/copy-python-files.mjs", import.meta.url));

const isTestOnly = (file: string) =>
  file.split(sep).some((part) => part === "__fixtures__" || part === "test-support");

/** Every `.py` file the package ships: under src/, test fixtures excepted (the build's own rule). */
const SHIPPED = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".py") && !isTestOnly(file))
  .sort();

/** Every `.py` file a library module reads, by `new URL("./x.py", import.meta.url)` (TSDoc aside), relative to src/. */
const REFERENCED = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !isTestOnly(file))
  .flatMap((file) =>
    [
      ...readFileSync(join(SRC, file), "utf8").matchAll(
        /^(?!\s*\*).*new URL\("(\.{1,2}\/[^"]+\.py)", import\.meta\.url\)/gm,
      ),
    ].map((match) => relative(SRC, resolve(join(SRC, dirname(file)), match[1] as string))),
  )
  .sort();

/** The host's python3 and its version, or null when there is none. */
async function hostPython(): Promise<string | null> {
  try {
    return (await run("python3", ["--version"])).stdout.trim();
  } catch {
    return null;
  }
}

test("the Python layer is shipped as .py files, each read by a module, and every file a module reads exists", () => {
  expect(SHIPPED).toEqual(
    expect.arrayContaining([
      join("sandbox", "python", "karenina_sandbox.py"),
      join("templates", "python", "compat", "pydantic.py"),
      join("templates", "python", "compat", "_karenina_bridge.py"),
      join("rubrics", "callable_trait_setup.py"),
    ]),
  );
  expect([...new Set(REFERENCED)]).toEqual(SHIPPED);
});

test("every shipped .py file compiles with the host's python3", async (context) => {
  const version = await hostPython();
  if (version === null)
    context.skip("python3 is not installed on this machine: nothing to compile the files with");
  // compile() without writing bytecode: no __pycache__ is left in src/.
  const check = [
    "import json, sys",
    "errors = {}",
    "for path in sys.argv[1:]:",
    "    try:",
    "        compile(open(path, encoding='utf-8').read(), path, 'exec', dont_inherit=True)",
    "    except SyntaxError as error:",
    "        errors[path] = f'line {error.lineno}: {error.msg}'",
    "print(json.dumps(errors))",
  ].join("\n");
  const { stdout } = await run("python3", ["-c", check, ...SHIPPED.map((file) => join(SRC, file))]);
  expect(JSON.parse(stdout), `compiled with ${version}`).toEqual({});
});

test("the build copies every shipped .py file, and no test fixture, beside the compiled modules", async () => {
  const out = await mkdtemp(join(tmpdir(), "karenina-python-copy-"));
  try {
    await run(process.execPath, [COPY_SCRIPT, SRC, out]);
    const copied = readdirSync(out, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".py"))
      .sort();
    expect(copied).toEqual(SHIPPED);
    for (const file of SHIPPED) {
      expect(await readFile(join(out, file), "utf8")).toBe(await readFile(join(SRC, file), "utf8"));
    }
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
