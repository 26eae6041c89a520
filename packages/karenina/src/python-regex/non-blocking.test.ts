import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { thrown } from "../test-support/thrown.js";
import { whileTicking } from "../test-support/while-ticking.js";
import {
  pythonFindall,
  pythonSearch,
  RegexEngineError,
  RegexTimeoutError,
  runRegexAsync,
  translatePythonRegex,
  withNonBlockingRegexes,
} from "./index.js";

const NESTED = translatePythonRegex("(a+)+$");
const NESTED_TEXT = `${"a".repeat(40)}!`;

describe("runRegexAsync: the deadline without holding the calling thread", () => {
  test("(a+)+$ on 40 a's and a '!' ends with a RegexTimeoutError while the event loop keeps ticking", async () => {
    const { outcome, ticks } = await whileTicking(() =>
      runRegexAsync("test", NESTED, NESTED_TEXT, { timeoutMs: 500 }),
    );
    expect(outcome).toBeInstanceOf(RegexTimeoutError);
    expect((outcome as RegexTimeoutError).message).toMatch(
      /^regex ".*" timed out after 500 ms on a 41-character text/,
    );
    // 500 ms at one tick per 10 ms: a loop held by the wait would count none
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  test("the synchronous runner, by contrast, holds the thread: no tick during its wait", async () => {
    const { outcome, ticks } = await whileTicking(async () =>
      pythonSearch("(a+)+$", NESTED_TEXT, { timeoutMs: 300 }),
    );
    expect(outcome).toBeInstanceOf(RegexTimeoutError);
    expect(ticks).toBe(0);
  });

  test("evaluations awaited together run side by side; those after a timeout run on fresh workers", async () => {
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 6 }, () => runRegexAsync("test", NESTED, NESTED_TEXT, { timeoutMs: 200 })),
      runRegexAsync("findall", translatePythonRegex(String.raw`\[(\d+)\]`), "see [1] and [23]"),
    ]);
    expect(
      outcomes.slice(0, 6).map((o) => o.status === "rejected" && o.reason instanceof RegexTimeoutError),
    ).toEqual(Array(6).fill(true));
    expect(outcomes[6]).toEqual({ status: "fulfilled", value: ["1", "23"] });
    expect(await runRegexAsync("test", NESTED, "aaaa")).toBe(true);
    expect(await runRegexAsync("count", translatePythonRegex("aa"), "aaaaa")).toBe(2);
  });

  test("a process whose only pending work is the awaited regex does not exit before its outcome", async () => {
    // Atomics.waitAsync alone does not keep Node's event loop alive: without the runner's timer, this script
    // ends with exit code 13 (unsettled top-level await) and prints nothing.
    const dir = await mkdtemp(join(tmpdir(), "karenina-regex-"));
    const script = join(dir, "await-regex.mts");
    const index = fileURLToPath(new URL("./index.ts", import.meta.url));
    await writeFile(
      script,
      `import { runRegexAsync, translatePythonRegex } from ${JSON.stringify(index)};\n` +
        `const outcome = await runRegexAsync("test", translatePythonRegex("(a+)+$"), ${JSON.stringify(NESTED_TEXT)}, { timeoutMs: 300 }).catch((e) => e.name);\n` +
        `console.log("outcome", outcome);\n`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], {
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe("outcome RegexTimeoutError");
  }, 40_000);

  test("a pattern V8 refuses is a RegexEngineError", async () => {
    const error = await runRegexAsync("test", { source: "(", flags: "" }, "x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegexEngineError);
  });
});

describe("withNonBlockingRegexes: synchronous work whose regexes are awaited off the thread", () => {
  test("the work's value is what it gives when run synchronously", async () => {
    const work = () => [
      pythonFindall(String.raw`(\w)=(\d)`, "a=1 b=2"),
      pythonSearch("done$", "done\n"),
      pythonSearch("bcl2", "BCL2", { ignoreCase: true }),
      pythonFindall(String.raw`(\w)=(\d)`, "a=1 b=2"),
    ];
    expect(await withNonBlockingRegexes(work)).toEqual(work());
  });

  test("a timeout reaches the work as the same typed error, which it may catch, while the loop ticks", async () => {
    const work = () => {
      try {
        return pythonSearch("(a+)+$", NESTED_TEXT, { timeoutMs: 400 });
      } catch (error) {
        return error instanceof RegexTimeoutError ? `caught: ${error.timeoutMs}` : "other";
      }
    };
    const { outcome, ticks } = await whileTicking(() => withNonBlockingRegexes(work));
    expect(outcome).toBe("caught: 400");
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  test("a throw of the work's own is the result", async () => {
    const error = await withNonBlockingRegexes(() => {
      if (pythonSearch("a", "a")) throw new RangeError("the work's own");
      return 1;
    }).catch((e: unknown) => e);
    expect(error).toEqual(new RangeError("the work's own"));
  });

  test("attack: catastrophic patterns past the pass limit are refused, never run on the calling thread", async () => {
    // 256 cheap distinct patterns use up the passes; before the fix the next ones ran synchronously, each
    // holding the event loop to its deadline (a RegexTimeoutError here), 1 s apiece for a real checkpoint.
    const work = () => {
      for (let i = 0; i < 256; i++) pythonSearch(`^${i}$`, String(i % 7));
      return pythonSearch("(a+)+$", NESTED_TEXT, { timeoutMs: 300 });
    };
    const error = await withNonBlockingRegexes(work).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegexEngineError);
    expect((error as RegexEngineError).message).toMatch(/more than 256 distinct regex evaluations/);
  });

  test("up to the pass limit every evaluation gives what it gives when run synchronously", async () => {
    const work = () => Array.from({ length: 255 }, (_, i) => pythonSearch(`^${i}$`, String(i % 7)));
    expect(await withNonBlockingRegexes(work)).toEqual(work());
  });

  test("outside the work, runRegex is synchronous again", async () => {
    await withNonBlockingRegexes(() => pythonSearch("a", "a"));
    thrown(RegexTimeoutError, () => pythonSearch("(a+)+$", NESTED_TEXT, { timeoutMs: 100 }));
  });
});
