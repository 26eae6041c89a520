/**
 * Python files shipped beside the modules that use them: read by the host on first use, once, and a missing one
 * reported as an incomplete installation.
 */
import { mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { KareninaError } from "../errors/index.js";
import { PythonAssetError } from "./errors.js";
import { pythonAsset } from "./python-asset.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-python-asset-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("the file is read on first use, not when the module is loaded, and only once", async () => {
  const file = join(dir, "later.py");
  const source = pythonAsset(pathToFileURL(file));
  await writeFile(file, "x = 1\n");
  expect(source()).toBe("x = 1\n");
  await writeFile(file, "x = 2\n");
  expect(source()).toBe("x = 1\n");
});

test("a checkout with CRLF line ends gives Python the same text as one with LF", async () => {
  const file = join(dir, "crlf.py");
  await writeFile(file, 'def f():\r\n    return "a"\r\n');
  expect(pythonAsset(pathToFileURL(file))()).toBe('def f():\n    return "a"\n');
});

test("a missing file fails with an error that names it and says to reinstall or rebuild", async () => {
  const file = join(dir, "gone.py");
  await writeFile(file, "pass\n");
  await unlink(file);
  const source = pythonAsset(pathToFileURL(file));
  expect(source).toThrow(PythonAssetError);
  try {
    source();
  } catch (error) {
    expect(KareninaError.isInstance(error)).toBe(true);
    expect((error as PythonAssetError).file).toBe(file);
    expect((error as Error).message).toContain(`${file} could not be read (ENOENT)`);
    expect((error as Error).message).toMatch(/reinstall karenina, or in a clone run `npm run build`/);
  }
});
