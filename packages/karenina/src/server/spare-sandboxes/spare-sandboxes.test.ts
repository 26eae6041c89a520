import { afterEach, describe, expect, test } from "vitest";
import { type PythonSandbox, SandboxError, SandboxTimeoutError } from "../../sandbox/index.js";
import { createTemplateSandbox } from "../../templates/index.js";
import { SpareSandboxes } from "./spare-sandboxes.js";

/** Real sandboxes, each recorded with whether it was closed (the pool under test is not a stand-in). */
function recordingFactory() {
  const made: { sandbox: PythonSandbox; closed: boolean }[] = [];
  const create = () => {
    const sandbox = createTemplateSandbox("strict");
    const entry = { sandbox, closed: false };
    const close = sandbox.close.bind(sandbox);
    sandbox.close = async () => {
      entry.closed = true;
      await close();
    };
    made.push(entry);
    return sandbox;
  };
  return { made, create };
}

const LEAVE_MARK =
  "import builtins\nbuiltins.left_behind = 'by an earlier request'\ndef mark():\n    return 1";
const FIND_MARK = "import builtins\ndef seen():\n    return hasattr(builtins, 'left_behind')";

let pools: SpareSandboxes[] = [];
afterEach(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  pools = [];
});

describe("SpareSandboxes", () => {
  test("each request gets a sandbox no one used: what one request leaves behind, the next never sees", async () => {
    const { made, create } = recordingFactory();
    const pool = new SpareSandboxes(create);
    pools.push(pool);
    await pool.use((sandbox) => sandbox.run({ code: LEAVE_MARK, entry: "mark", args: [] }));
    // The first request had to start its own (made second); a spare was started beside it (made first).
    expect(made).toHaveLength(2);
    expect(made.map((entry) => entry.closed)).toEqual([false, true]);
    const seen = await pool.use((sandbox) => sandbox.run({ code: FIND_MARK, entry: "seen", args: [] }));
    expect(seen).toBe(false);
    // The second request took that spare, and a third sandbox became the next spare.
    expect(made.map((entry) => entry.closed)).toEqual([true, true, false]);
  }, 60_000);

  test("requests arriving together each get their own sandbox, and exactly one spare is left", async () => {
    const { made, create } = recordingFactory();
    const pool = new SpareSandboxes(create);
    pools.push(pool);
    await pool.use(async () => undefined);
    const seen = await Promise.all(
      [0, 1, 2].map(() => pool.use((sandbox) => sandbox.run({ code: FIND_MARK, entry: "seen", args: [] }))),
    );
    expect(seen).toEqual([false, false, false]);
    expect(made.filter((entry) => !entry.closed)).toHaveLength(1);
  }, 90_000);

  test("a spare unused for the idle time is closed; close() closes the spare and keeps no other", async () => {
    const { made, create } = recordingFactory();
    const pool = new SpareSandboxes(create, { idleMs: 200 });
    pools.push(pool);
    await pool.use(async () => undefined);
    expect(made).toHaveLength(2);
    await expect.poll(() => made[0]?.closed, { timeout: 30_000 }).toBe(true);

    const closing = new SpareSandboxes(create);
    await closing.use(async () => undefined);
    expect(made).toHaveLength(4);
    await closing.close();
    expect(made[2]?.closed).toBe(true);
    await closing.use((sandbox) => sandbox.run({ code: FIND_MARK, entry: "seen", args: [] }));
    expect(made).toHaveLength(5);
    expect(made.every((entry) => entry.closed)).toBe(true);
  }, 90_000);
  test("attack: a request that times out or exhausts memory is followed by one with a working, clean sandbox", async () => {
    const { made, create } = recordingFactory();
    const pool = new SpareSandboxes(create);
    pools.push(pool);
    const spin = "import builtins\nbuiltins.left_behind = 'spun'\ndef spin():\n    while True:\n        pass";
    await expect(
      pool.use((sandbox) => sandbox.run({ code: spin, entry: "spin", args: [] })),
    ).rejects.toBeInstanceOf(SandboxTimeoutError);
    expect(await pool.use((sandbox) => sandbox.run({ code: FIND_MARK, entry: "seen", args: [] }))).toBe(
      false,
    );

    const eat =
      "import builtins\nbuiltins.left_behind = 'ate'\ndef eat():\n    hoard = []\n    while True:\n        hoard.append(bytearray(1_000_000))";
    const ate = await pool
      .use((sandbox) => sandbox.run({ code: eat, entry: "eat", args: [] }))
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(ate).toBeInstanceOf(SandboxError);
    expect(await pool.use((sandbox) => sandbox.run({ code: FIND_MARK, entry: "seen", args: [] }))).toBe(
      false,
    );
    expect(
      await pool.use((sandbox) =>
        sandbox.run({ code: "def add(a, b):\n    return a + b", entry: "add", args: [2, 3] }),
      ),
    ).toBe(5);
    // Every sandbox a request used was closed; only the spare is left.
    expect(made.filter((entry) => !entry.closed)).toHaveLength(1);
  }, 120_000);
});
