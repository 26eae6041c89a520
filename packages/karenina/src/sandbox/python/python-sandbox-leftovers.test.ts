/**
 * What code could leave outside the interpreter's memory for the next code (hostile code written for these
 * tests): file descriptors live in JavaScript, so a memory restore alone would keep them.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { PythonSandbox } from "./python-sandbox.js";

let sandbox: PythonSandbox;

beforeAll(() => {
  sandbox = PythonSandbox.create();
});

afterAll(async () => {
  await sandbox.close();
});

/** Imports a module no earlier call imported, which needs a free file descriptor to read the standard library. */
const freshImport = (module: string) =>
  sandbox.run({ code: `import ${module}`, entry: `${module}.__name__` });

test("descriptors one code leaves open are closed before other code runs", async () => {
  const exhaust = [
    "import os",
    "held = []",
    "try:",
    "    while True:",
    "        held.append(os.open('/lib/python314.zip', os.O_RDONLY))",
    "except OSError as error:",
    "    reason = str(error)",
  ].join("\n");
  expect(await sandbox.run({ code: exhaust, entry: "reason" })).toMatch(/No file descriptors available/);
  expect(await freshImport("statistics")).toBe("statistics");
});

test("code that closes the interpreter's own descriptors fails alone; the next code gets a sound interpreter", async () => {
  const closeAll =
    "import os\nfor fd in range(64):\n    try:\n        os.close(fd)\n    except OSError:\n        pass";
  await expect(sandbox.run({ code: closeAll, entry: "None" })).rejects.toThrow(/closed file descriptors/);
  expect(await freshImport("fractions")).toBe("fractions");
});
