import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  RUN_STATE_FORMAT,
  type RunState,
  RunStateError,
  readRunState,
  runStatePath,
  writeRunState,
} from "./run-state.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-run-state-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const state: RunState = {
  format: RUN_STATE_FORMAT,
  run_name: "nightly",
  total_tasks: 6,
  resumed: 2,
  started_at: "2025-01-02T03:04:05.000Z",
  updated_at: "2025-01-02T03:05:00.000Z",
  finished: false,
  aborted: true,
  config: { replicate_count: 1 },
};

describe("run state file", () => {
  test("what is written reads back unchanged, beside the run log", async () => {
    const path = runStatePath(join(dir, "run.jsonl"));
    expect(path).toBe(join(dir, "run.jsonl.state.json"));
    await writeRunState(path, state);
    expect(await readRunState(path)).toEqual(state);
    await writeRunState(path, { ...state, finished: true, aborted: false });
    expect((await readRunState(path)).finished).toBe(true);
  });

  test("a missing file is an error naming the file", async () => {
    const path = join(dir, "none.state.json");
    const error = await readRunState(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStateError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain("ENOENT");
  });

  test("a file that is not JSON is an error naming the file", async () => {
    const path = join(dir, "bad.state.json");
    await writeFile(path, "{not json", "utf8");
    await expect(readRunState(path)).rejects.toThrow(`${path}: not a run state file: not JSON`);
  });

  test("a field of the wrong type or format is named in the error", async () => {
    const path = join(dir, "bad.state.json");
    await writeFile(path, JSON.stringify({ ...state, total_tasks: "six", format: "other/1" }), "utf8");
    const error = await readRunState(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunStateError);
    const message = (error as Error).message;
    expect(message).toContain(path);
    expect(message).toContain("total_tasks:");
    expect(message).toContain("format:");
  });

  test("an invalid state is refused before anything is written", async () => {
    const path = join(dir, "run.jsonl.state.json");
    await expect(writeRunState(path, { ...state, started_at: "yesterday" })).rejects.toThrow("started_at:");
    await expect(readFile(path, "utf8")).rejects.toThrow("ENOENT");
  });
});
