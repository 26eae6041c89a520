/**
 * A Python sandbox for the tests of one file, started before them and closed after them.
 */
import { afterAll, beforeAll } from "vitest";
import { PythonSandbox, type PythonSandboxOptions } from "../sandbox/index.js";

/** Starting a sandbox on a machine shared with other work can take longer than Vitest's 10 s default. */
const START_TIMEOUT_MS = 120_000;

/**
 * A sandbox for the tests of the calling file: started before them, closed after them. Sandboxes asked for in
 * turn start in turn (Vitest runs `beforeAll` hooks one after the other): the first loads Pyodide, the next
 * start from the memory snapshot it made.
 */
export function sandboxForTheseTests(options: PythonSandboxOptions = {}): PythonSandbox {
  const sandbox = PythonSandbox.create(options);
  beforeAll(() => sandbox.start(), START_TIMEOUT_MS);
  afterAll(() => sandbox.close());
  return sandbox;
}
