import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { finishedKeys, RunLogError, RunLogWriter, readRunLog } from "./index.js";

interface Row {
  task: string;
  index: number;
}

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-run-log-"));
  path = join(dir, "out.results.jsonl");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const isRow = (value: unknown): value is Row =>
  typeof value === "object" && value !== null && typeof (value as Row).task === "string";

describe("run log", () => {
  test("appended results read back in order, one line each", async () => {
    const writer = await RunLogWriter.open(join(dir, "nested", "log.jsonl"));
    await Promise.all([writer.append({ task: "a", index: 0 }), writer.append({ task: "b", index: 1 })]);
    await writer.append({ task: "c", index: 2, text: "line\nbreak" });
    await writer.close();
    const text = await readFile(join(dir, "nested", "log.jsonl"), "utf8");
    expect(text.split("\n")).toHaveLength(4);
    const read = await readRunLog<Row>(join(dir, "nested", "log.jsonl"));
    expect(read.results.map((r) => r.task)).toEqual(["a", "b", "c"]);
    expect(read.skippedLines).toBe(0);
  });

  test("a missing log reads as empty", async () => {
    expect(await readRunLog(path)).toEqual({ results: [], skippedLines: 0 });
  });

  test("a truncated last line is skipped, and a new writer starts on a fresh line", async () => {
    await writeFile(path, '{"task":"a","index":0}\n{"task":"b","ind', "utf8");
    expect(await readRunLog(path)).toEqual({ results: [{ task: "a", index: 0 }], skippedLines: 1 });
    const writer = await RunLogWriter.open(path);
    await writer.append({ task: "c", index: 2 });
    await writer.close();
    const read = await readRunLog<Row>(path);
    expect(read.results.map((r) => r.task)).toEqual(["a", "c"]);
    expect(read.skippedLines).toBe(1);
  });

  test("lines rejected by accept are counted as skipped", async () => {
    await writeFile(path, '{"task":"a","index":0}\n42\n{"other":true}\n', "utf8");
    const read = await readRunLog(path, { accept: isRow });
    expect(read.results).toEqual([{ task: "a", index: 0 }]);
    expect(read.skippedLines).toBe(2);
  });

  test("a value that is not JSON is refused without touching the file", async () => {
    const writer = await RunLogWriter.open(path);
    await expect(writer.append({ n: 1n })).rejects.toBeInstanceOf(RunLogError);
    await writer.append({ task: "a", index: 0 });
    await writer.close();
    await expect(writer.append({ task: "b", index: 1 })).rejects.toBeInstanceOf(RunLogError);
    expect(await readFile(path, "utf8")).toBe('{"task":"a","index":0}\n');
  });

  test("resume skips finished keys; a duplicate key is reported and the first result kept", async () => {
    const rows = [
      { task: "a", index: 0 },
      { task: "b", index: 1 },
      { task: "a", index: 2 },
    ];
    const finished = finishedKeys(rows, (r) => r.task);
    expect([...finished.keys]).toEqual(["a", "b"]);
    expect(finished.results).toEqual([rows[0], rows[1]]);
    expect(finished.duplicates).toEqual(["a"]);
    const toRun = ["a", "b", "c", "d"].filter((task) => !finished.keys.has(task));
    expect(toRun).toEqual(["c", "d"]);
  });
});

const fixture = fileURLToPath(new URL("./__fixtures__/append-loop.ts", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));

function runFixture(args: string[]) {
  return spawn(process.execPath, ["--import", "tsx", fixture, path, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
}

async function lineCount(): Promise<number> {
  try {
    return (await readFile(path, "utf8")).split("\n").length - 1;
  } catch {
    return 0;
  }
}

describe("run log under SIGKILL", () => {
  test("a process killed mid-run leaves only whole lines, and a resumed run adds no duplicates", async () => {
    const child = runFixture(["2000"]);
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_, signal) => resolve(signal)),
    );
    const deadline = Date.now() + 20_000;
    while ((await lineCount()) < 50 && child.exitCode === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(child.kill("SIGKILL")).toBe(true);
    expect(await exited, stderr).toBe("SIGKILL");

    const text = await readFile(path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const killed = await readRunLog<Row>(path, { accept: isRow });
    expect(killed.skippedLines).toBe(0);
    expect(killed.results.length).toBeGreaterThanOrEqual(50);
    expect(killed.results.map((r) => r.index)).toEqual(killed.results.map((_, i) => i));

    const resumed = runFixture(["2000", String(killed.results.length + 20)]);
    const code = await new Promise<number | null>((resolve) => resumed.on("exit", (c) => resolve(c)));
    expect(code).toBe(0);
    const after = await readRunLog<Row>(path, { accept: isRow });
    expect(after.skippedLines).toBe(0);
    const finished = finishedKeys(after.results, (r) => r.task);
    expect(finished.duplicates).toEqual([]);
    expect(finished.keys.size).toBe(killed.results.length + 20);
  });
});
