import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "ai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { WorkspaceEscapeError } from "../workspace/index.js";
import { WorkspaceToolError } from "./errors.js";
import { workspaceTools } from "./workspace-tools.js";

let base: string;
let ws: string;
let outside: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "karenina-tools-"));
  ws = join(base, "ws");
  outside = join(base, "outside");
  await mkdir(join(ws, "results", "raw"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "TOP SECRET value=7\n");
  await writeFile(join(ws, "README.md"), "# Task\nCompute the value.\nvalue = ?\n");
  await writeFile(join(ws, "results", "summary.json"), '{"value": 42}\n');
  await writeFile(join(ws, "results", "raw", "run.log"), "step 1\nstep 2 value=41\nstep 3 VALUE=42\n");
  await writeFile(
    join(ws, "results", "raw", "blob.bin"),
    Buffer.from([0x76, 0x61, 0x6c, 0x75, 0x65, 0, 1, 2]),
  );
  await symlink("summary.json", join(ws, "results", "latest.json"));
  await symlink(join(outside, "secret.txt"), join(ws, "leak.txt"));
  await symlink(outside, join(ws, "outside-dir"));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Calls a tool as the AI SDK does after a model's tool call. */
async function call<I, O>(tool: Tool<I, O>, input: I): Promise<O> {
  if (tool.execute === undefined) throw new Error("the tool has no execute");
  return (await tool.execute(input, { toolCallId: "call_1", messages: [] })) as O;
}

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof WorkspaceEscapeError || error instanceof WorkspaceToolError) return error.message;
    throw error;
  }
  throw new Error("expected the tool call to be refused");
}

describe("the toolset of each mode", () => {
  test("a judge (read_only) gets list_files, read_file and search_files only", () => {
    expect(Object.keys(workspaceTools(ws, { mode: "read_only" }))).toEqual([
      "list_files",
      "read_file",
      "search_files",
    ]);
  });

  test("read_only cannot be given run_command", () => {
    const options = { mode: "read_only", allowCommands: true } as never;
    expect(() => workspaceTools(ws, options)).toThrow(/run_command: is not available in read_only mode/);
  });

  test("an answering agent (read_write) gets write_file; run_command is off by default", () => {
    expect(Object.keys(workspaceTools(ws, { mode: "read_write" }))).toEqual([
      "list_files",
      "read_file",
      "search_files",
      "write_file",
    ]);
    expect(Object.keys(workspaceTools(ws, { mode: "read_write", allowCommands: true }))).toContain(
      "run_command",
    );
  });
});

describe("list_files", () => {
  test("lists recursively in name order, with sizes, reporting links without following them", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect(await call(tools.list_files, {})).toEqual({
      path: ".",
      truncated: false,
      entries: [
        { path: "README.md", type: "file", size: 36 },
        { path: "leak.txt", type: "symlink" },
        { path: "outside-dir", type: "symlink" },
        { path: "results", type: "directory" },
        { path: "results/latest.json", type: "symlink" },
        { path: "results/raw", type: "directory" },
        { path: "results/raw/blob.bin", type: "file", size: 8 },
        { path: "results/raw/run.log", type: "file", size: 39 },
        { path: "results/summary.json", type: "file", size: 14 },
      ],
    });
  });

  test("lists one directory, and stops at the entry limit", async () => {
    const tools = workspaceTools(ws, { mode: "read_only", limits: { listMaxEntries: 2 } });
    expect(await call(tools.list_files, { path: "results", recursive: false })).toEqual({
      path: "results",
      truncated: true,
      entries: [
        { path: "results/latest.json", type: "symlink" },
        { path: "results/raw", type: "directory" },
      ],
    });
  });
});

describe("read_file", () => {
  test("reads a file whole, or a range of its lines", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect(await call(tools.read_file, { path: "README.md" })).toEqual({
      path: "README.md",
      content: "# Task\nCompute the value.\nvalue = ?",
      start_line: 1,
      end_line: 3,
      total_lines: 3,
      truncated: false,
      size: 36,
    });
    expect(
      await call(tools.read_file, { path: "results/raw/run.log", start_line: 2, end_line: 2 }),
    ).toMatchObject({
      content: "step 2 value=41",
      start_line: 2,
      end_line: 2,
      total_lines: null,
      truncated: false,
    });
  });

  test("reads through a link that stays inside the workspace", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect((await call(tools.read_file, { path: "results/latest.json" })).content).toBe('{"value": 42}');
  });

  test("stops at the byte limit on a whole line and says where to read on", async () => {
    const tools = workspaceTools(ws, { mode: "read_only", limits: { readMaxBytes: 20 } });
    expect(await call(tools.read_file, { path: "README.md" })).toMatchObject({
      content: "# Task",
      start_line: 1,
      end_line: 1,
      truncated: true,
    });
  });

  test("refuses directories, binary files, special files and missing files", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect(await refusal(() => call(tools.read_file, { path: "results" }))).toBe(
      'read_file: "results": expected a file, found a directory (use list_files)',
    );
    expect(await refusal(() => call(tools.read_file, { path: "results/raw/blob.bin" }))).toBe(
      'read_file: "results/raw/blob.bin": expected a text file, found binary data (8 bytes)',
    );
    expect(await refusal(() => call(tools.read_file, { path: "nope.txt" }))).toBe(
      'read_file: "nope.txt": expected an existing path, found nothing',
    );
    execFileSync("mkfifo", [join(ws, "pipe")]);
    expect(await refusal(() => call(tools.read_file, { path: "pipe" }))).toBe(
      'read_file: "pipe": expected a file, found a special file',
    );
    expect(await refusal(() => call(tools.search_files, { pattern: "x", path: "pipe" }))).toMatch(
      /special file/,
    );
  });
});

describe("search_files", () => {
  test("finds a text literally, in path order, skipping binary files", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect(await call(tools.search_files, { pattern: "value =" })).toEqual({
      matches: [{ path: "README.md", line: 3, text: "value = ?" }],
      truncated: false,
      files_searched: 3,
      files_skipped: 1,
    });
    expect((await call(tools.search_files, { pattern: "(.*)" })).matches).toEqual([]);
  });

  test("matches a regular expression, case-insensitively when asked, under a path", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    const found = await call(tools.search_files, {
      pattern: "value=\\d+",
      regex: true,
      case_sensitive: false,
      path: "results/raw",
    });
    expect(found.matches).toEqual([
      { path: "results/raw/run.log", line: 2, text: "step 2 value=41" },
      { path: "results/raw/run.log", line: 3, text: "step 3 VALUE=42" },
    ]);
  });

  test("stops at the match limit, and skips files over the size limit", async () => {
    const tools = workspaceTools(ws, {
      mode: "read_only",
      limits: { searchMaxMatches: 1, searchMaxFileBytes: 20 },
    });
    expect(await call(tools.search_files, { pattern: "e" })).toEqual({
      matches: [{ path: "results/summary.json", line: 1, text: '{"value": 42}' }],
      truncated: false,
      files_searched: 1,
      files_skipped: 3,
    });
    const limited = workspaceTools(ws, { mode: "read_only", limits: { searchMaxMatches: 2 } });
    expect(await call(limited.search_files, { pattern: "step" })).toMatchObject({ truncated: true });
  });

  test("attack: a model's regex that backtracks catastrophically is stopped off the event loop, and the next search works", async () => {
    await writeFile(join(ws, "results", "trap.txt"), `${"a".repeat(40)}!\n`);
    const tools = workspaceTools(ws, { mode: "read_only" });
    // Before the fix the regex ran on the calling thread, line by line: no timer could fire until it stopped.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const refused = refusal(() =>
      call(tools.search_files, { pattern: "(a+)+$", regex: true, path: "results" }),
    );
    try {
      expect(await refused).toMatch(
        /^search_files: pattern "\(a\+\)\+\$" was stopped on results\/trap\.txt: .*timed out after 1000 ms/,
      );
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
    const found = await call(tools.search_files, { pattern: "value=\\d+", regex: true, path: "results" });
    expect(found.matches).toHaveLength(1);
  });

  test("attack: 500 000 empty lines matched by ^ stop at the match limit, within a deadline", async () => {
    await writeFile(join(ws, "results", "empty.txt"), "\n".repeat(500_000));
    const tools = workspaceTools(ws, { mode: "read_only", limits: { searchMaxMatches: 50 } });
    const started = Date.now();
    const found = await call(tools.search_files, { pattern: "^", regex: true, path: "results/empty.txt" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(found.truncated).toBe(true);
    expect(found.matches).toHaveLength(50);
    expect(found.matches[0]).toEqual({ path: "results/empty.txt", line: 1, text: "" });
  }, 15_000);

  test("attack: a catastrophic regex over several files is refused at the first file and leaves no worker busy", async () => {
    await mkdir(join(ws, "traps"));
    for (const name of ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]) {
      await writeFile(join(ws, "traps", name), `${"a".repeat(40)}!\n`);
    }
    const tools = workspaceTools(ws, { mode: "read_only" });
    const started = Date.now();
    expect(
      await refusal(() => call(tools.search_files, { pattern: "(a+)+$", regex: true, path: "traps" })),
    ).toMatch(/was stopped on traps\/a\.txt: .*timed out after 1000 ms/);
    // One file's deadline, not five.
    expect(Date.now() - started).toBeLessThan(4000);
    // Five searches at once (more than the pool's workers): none waits behind a stuck worker.
    const next = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(tools.search_files, { pattern: "value=\\d+", regex: true, path: "results" }),
      ),
    );
    for (const found of next) expect(found.matches).toHaveLength(1);
  }, 20_000);

  test("a regex search reports the same lines as a plain one, CRLF files included", async () => {
    await writeFile(join(ws, "results", "crlf.txt"), "alpha\r\nbeta step\r\ngamma\r\nstep delta");
    const tools = workspaceTools(ws, { mode: "read_only" });
    const plain = await call(tools.search_files, { pattern: "step", path: "results/crlf.txt" });
    const regex = await call(tools.search_files, { pattern: "st.p", regex: true, path: "results/crlf.txt" });
    expect(regex.matches).toEqual(plain.matches);
    expect(plain.matches).toEqual([
      { path: "results/crlf.txt", line: 2, text: "beta step" },
      { path: "results/crlf.txt", line: 4, text: "step delta" },
    ]);
  });

  test("refuses a bad regular expression", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect(await refusal(() => call(tools.search_files, { pattern: "(", regex: true }))).toMatch(
      /^search_files: pattern "\(": expected a valid regular expression/,
    );
  });
});

describe("write_file", () => {
  test("creates a file and its directories, atomically, leaving no temporary file", async () => {
    const tools = workspaceTools(ws, { mode: "read_write" });
    expect(await call(tools.write_file, { path: "out/answer.txt", content: "42\n" })).toEqual({
      path: "out/answer.txt",
      bytes_written: 3,
      created: true,
    });
    expect(await readFile(join(ws, "out", "answer.txt"), "utf8")).toBe("42\n");
    expect(await readdir(join(ws, "out"))).toEqual(["answer.txt"]);
  });

  test("replaces a file and keeps its mode", async () => {
    await chmod(join(ws, "README.md"), 0o750);
    const tools = workspaceTools(ws, { mode: "read_write" });
    expect((await call(tools.write_file, { path: "README.md", content: "new" })).created).toBe(false);
    expect(await readFile(join(ws, "README.md"), "utf8")).toBe("new");
    expect((await stat(join(ws, "README.md"))).mode & 0o777).toBe(0o750);
  });

  test("refuses content over the limit and a directory as target", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", limits: { writeMaxBytes: 4 } });
    expect(await refusal(() => call(tools.write_file, { path: "big.txt", content: "12345" }))).toBe(
      'write_file: "big.txt": expected at most 4 bytes of content, found 5',
    );
    expect(await refusal(() => call(tools.write_file, { path: "results", content: "x" }))).toBe(
      'write_file: "results": expected a file, found a directory',
    );
    expect(await readdir(ws)).not.toContain("big.txt");
  });
});

describe("paths that leave the workspace are refused by every tool", () => {
  const escapes = [
    ["../outside/secret.txt", "it climbs out with `..`"],
    ["results/../../outside/secret.txt", "it climbs out with `..`"],
    ["/etc/hostname", "it is an absolute path outside it"],
    ["leak.txt", "it resolves through a symbolic link to"],
    ["outside-dir/secret.txt", "it resolves through a symbolic link to"],
  ] as const;

  test.each(escapes)("%s", async (path, how) => {
    const tools = workspaceTools(ws, { mode: "read_write" });
    const messages = [
      await refusal(() => call(tools.read_file, { path })),
      await refusal(() => call(tools.list_files, { path })),
      await refusal(() => call(tools.search_files, { pattern: "SECRET", path })),
      await refusal(() => call(tools.write_file, { path, content: "overwritten" })),
    ];
    for (const [index, tool] of ["read_file", "list_files", "search_files", "write_file"].entries()) {
      expect(messages[index]).toContain(
        `${tool}: path ${JSON.stringify(path)}: expected a path inside ${ws}, but ${how}`,
      );
    }
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET value=7\n");
  });

  test("writing a new file below a linked directory that leads out is refused", async () => {
    const tools = workspaceTools(ws, { mode: "read_write" });
    expect(
      await refusal(() => call(tools.write_file, { path: "outside-dir/new/planted.txt", content: "x" })),
    ).toMatch(/symbolic link/);
    expect(await readdir(outside)).toEqual(["secret.txt"]);
  });

  test("an absolute path inside the workspace is accepted", async () => {
    const tools = workspaceTools(ws, { mode: "read_only" });
    expect((await call(tools.read_file, { path: join(ws, "results", "summary.json") })).content).toBe(
      '{"value": 42}',
    );
  });
});
