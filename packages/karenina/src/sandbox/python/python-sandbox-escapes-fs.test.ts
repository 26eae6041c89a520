/**
 * Attempts to change the interpreter's virtual file system (written for this project). It lives in the worker's
 * JavaScript, outside the memory a reset restores, so a file written by one template would be there for the
 * next: a module dropped on `sys.path` or over the standard library would run inside a later template. After
 * the lockdown every change is refused, and reading (the standard library's imports) keeps working.
 */
import { expect, test } from "vitest";
import { sandboxForTheseTests } from "../../test-support/python-sandbox-for-tests.js";
import { expectStillWorks, probe, raised } from "./__fixtures__/hostile-python.js";

const sandbox = sandboxForTheseTests({ timeoutMs: 20_000 });

/** Python that tries `attempt` and leaves in `found` the name of the exception it raised, or "allowed". */
function outcome(attempt: string): string {
  return `
import os, shutil
try:
    ${attempt}
    found = "allowed"
except OSError as error:
    found = type(error).__name__ + (": read-only" if "Read-only" in str(error) else ": " + str(error))
`;
}

test("a file written to /tmp is refused, and a later call finds nothing", async () => {
  expect(
    await probe(sandbox, outcome("open('/tmp/planted.txt', 'w').write('from an earlier template')")),
  ).toBe("OSError: read-only");
  expect((await raised(sandbox, "open('/tmp/planted.txt').read()")).pythonType).toBe("FileNotFoundError");
  await expectStillWorks(sandbox);
});

test("a module planted on sys.path, shadowing the standard library, is refused and never imported", async () => {
  const plant = "open('fractions.py', 'w').write('raise SystemExit(\"planted\")')";
  expect(await probe(sandbox, outcome(plant))).toBe("OSError: read-only");
  await expectStillWorks(sandbox);
  const module = await probe(sandbox, "import fractions\nfound = fractions.__file__");
  expect(module).toBe("/lib/python314.zip/fractions.py");
});

test("the standard library's files cannot be overwritten, appended to or truncated", async () => {
  for (const attempt of [
    "open('/lib/python314.zip', 'r+b').write(b'PK')",
    "open('/lib/python314.zip', 'ab').write(b'x')",
    "os.truncate('/lib/python314.zip', 0)",
    "os.open('/lib/python3.14/site-packages/statistics.py', os.O_CREAT | os.O_WRONLY)",
    "os.open('/lib/python314.zip', os.O_RDONLY | os.O_TRUNC)",
  ]) {
    expect([attempt, await probe(sandbox, outcome(attempt))]).toEqual([attempt, "OSError: read-only"]);
  }
  expect(
    await probe(sandbox, "import statistics, decimal\nfound = str(statistics.mean([decimal.Decimal(1), 2]))"),
  ).toBe("1.5");
});

test("chmod, chown, rename, unlink, mkdir, rmdir, symlink and utime are refused", async () => {
  for (const attempt of [
    "os.chmod('/lib/python314.zip', 0o777)",
    "os.chown('/lib/python314.zip', 1, 1)",
    "os.rename('/lib/python314.zip', '/tmp/stdlib.zip')",
    "os.unlink('/lib/python314.zip')",
    "os.mkdir('/tmp/karenina')",
    "os.rmdir('/tmp')",
    "os.symlink('/tmp', '/home/pyodide/link')",
    "os.utime('/lib/python314.zip', (0, 0))",
    "shutil.rmtree('/lib/python3.14/site-packages')",
  ]) {
    expect([attempt, await probe(sandbox, outcome(attempt))]).toEqual([attempt, "OSError: read-only"]);
  }
  expect(await probe(sandbox, "import os\nfound = sorted(os.listdir('/lib'))")).toEqual([
    "python3.14",
    "python314.zip",
  ]);
  await expectStillWorks(sandbox);
});

test("modules of the standard library not yet imported still import, and bytecode is not written", async () => {
  const code = `
import sys, fractions, decimal, statistics, textwrap
found = [sys.dont_write_bytecode, str(statistics.median([fractions.Fraction(1, 2), 3, 4])), textwrap.dedent("  a")]`;
  expect(await probe(sandbox, code)).toEqual([true, "3", "a"]);
});

test("a pipe cannot be created: its buffers would live outside the WebAssembly heap and its memory limit", async () => {
  expect(await probe(sandbox, outcome("os.pipe()"))).toBe(
    "PermissionError: [Errno 63] Operation not permitted",
  );
  await expectStillWorks(sandbox);
});
