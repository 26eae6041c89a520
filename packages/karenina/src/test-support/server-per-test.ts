/** Scripted servers and temporary directories for the tests of a file, started and removed by Vitest hooks. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

/**
 * Registers `beforeEach`/`afterEach` hooks that start a server with `start()` and close it, and returns a
 * stand-in for the current test's server: its properties and methods are those of the running one
 * (`const server = serverPerTest(startOpenAiServer);` at the top of a test file, `server.script(...)` in a test).
 */
export function serverPerTest<Server extends { close(): Promise<void> }>(
  start: () => Promise<Server>,
): Server {
  let current: Server | undefined;
  beforeEach(async () => {
    current = await start();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return standIn(() => current);
}

/**
 * Registers hooks that start one server with `start()` for all tests of a file, empty its request log before
 * each test and close it after the last, and returns a stand-in for it (as {@link serverPerTest} does).
 */
export function serverPerFile<Server extends { close(): Promise<void>; requests: unknown[] }>(
  start: () => Promise<Server>,
): Server {
  let current: Server | undefined;
  beforeAll(async () => {
    current = await start();
  });
  beforeEach(() => {
    if (current !== undefined) current.requests.length = 0;
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  return standIn(() => current);
}

/** A fresh temporary directory (under the OS's) for every test of a file, removed after it. */
export function tempDirPerTest(prefix: string): { readonly path: string } {
  let current: string | undefined;
  beforeEach(async () => {
    current = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    if (current !== undefined) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return {
    get path() {
      if (current === undefined) throw new Error("the temporary directory exists only inside a test");
      return current;
    },
  };
}

/** An object whose properties and methods are those of the server `current()` returns, at the time of use. */
function standIn<Server extends object>(current: () => Server | undefined): Server {
  const running = (): Server => {
    const server = current();
    if (server === undefined) throw new Error("the test server runs only inside a test");
    return server;
  };
  return new Proxy({} as Server, {
    get(_target, key) {
      const server = running();
      const value: unknown = Reflect.get(server, key);
      return typeof value === "function" ? value.bind(server) : value;
    },
  });
}
