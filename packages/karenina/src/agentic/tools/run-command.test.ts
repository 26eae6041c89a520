import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "ai";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { WorkspaceToolError } from "./errors.js";
import { workspaceTools } from "./workspace-tools.js";

let ws: string;
beforeEach(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), "karenina-command-")));
});
afterEach(async () => {
  await rm(ws, { recursive: true, force: true });
});

async function call<I, O>(tool: Tool<I, O>, input: I, abortSignal?: AbortSignal): Promise<O> {
  if (tool.execute === undefined) throw new Error("the tool has no execute");
  return (await tool.execute(input, { toolCallId: "call_1", messages: [], abortSignal })) as O;
}

/** Whether a process is gone (a zombie waiting for its reaper counts as gone). */
async function gone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat === "" || / Z /.test(stat);
}

describe("run_command", () => {
  test("runs in the workspace, with only PATH and HOME (= the workspace) in its environment", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", allowCommands: true });
    expect(await call(tools.run_command, { command: "pwd" })).toMatchObject({
      exit_code: 0,
      stdout: `${ws}\n`,
    });
    const env = await call(tools.run_command, { command: "env" });
    expect(env.stdout.trim().split("\n").sort()).toEqual([`HOME=${ws}`, `PATH=${process.env.PATH}`]);
  });

  test("passes arguments as they are, with no shell to interpret them", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", allowCommands: true });
    const run = await call(tools.run_command, { command: "echo", args: ["$HOME", "; touch pwned", "*"] });
    expect(run.stdout).toBe("$HOME ; touch pwned *\n");
    expect((await call(tools.run_command, { command: "ls", args: ["-A"] })).stdout).toBe("");
  });

  test("reports the exit code and stderr of a failing command", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", allowCommands: true });
    expect(await call(tools.run_command, { command: "ls", args: ["no-such-file"] })).toMatchObject({
      exit_code: 2,
      signal: null,
      stdout: "",
      stderr: expect.stringContaining("no-such-file"),
      timed_out: false,
    });
  });

  test("refuses a program that does not exist", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", allowCommands: true });
    await expect(call(tools.run_command, { command: "no-such-program-xyz" })).rejects.toThrow(
      new WorkspaceToolError("run_command", 'cannot start "no-such-program-xyz" (ENOENT)'),
    );
  });

  test("cuts output at the limit but lets the command finish", async () => {
    const tools = workspaceTools(ws, {
      mode: "read_write",
      allowCommands: true,
      limits: { commandOutputBytes: 10 },
    });
    const run = await call(tools.run_command, { command: "seq", args: ["1", "100000"] });
    expect(run).toMatchObject({ exit_code: 0, stdout: "1\n2\n3\n4\n5\n", output_truncated: true });
  });

  test("a command past its time limit is killed, with the processes it started", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", allowCommands: true, commandTimeoutMs: 300 });
    const run = await call(tools.run_command, {
      command: "sh",
      args: ["-c", "sleep 60 & echo $! > child.pid; wait"],
    });
    expect(run).toMatchObject({ exit_code: null, signal: "SIGKILL", timed_out: true });
    const child = Number(await readFile(join(ws, "child.pid"), "utf8"));
    await vi.waitFor(async () => expect(await gone(child)).toBe(true));
  });

  test("aborting the agent's run kills the command", async () => {
    const tools = workspaceTools(ws, { mode: "read_write", allowCommands: true });
    const controller = new AbortController();
    const running = call(tools.run_command, { command: "sleep", args: ["60"] }, controller.signal);
    controller.abort();
    expect(await running).toMatchObject({ signal: "SIGKILL", timed_out: false });
  });
});
