/** A fresh scripted server for every test of a file, started before it and closed after it. */
import { afterEach, beforeEach } from "vitest";

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
  const running = (): Server => {
    if (current === undefined) throw new Error("the test server runs only inside a test");
    return current;
  };
  return new Proxy({} as Server, {
    get(_target, key) {
      const server = running();
      const value: unknown = Reflect.get(server, key);
      return typeof value === "function" ? value.bind(server) : value;
    },
  });
}
