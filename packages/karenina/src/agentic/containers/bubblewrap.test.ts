/**
 * The bubblewrap backend with the real `bwrap`: every escape an agent's command may try is contained, with
 * a result the model can read, and the next command still runs.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "ai";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type CommandWorkspaceTools, type RunCommandOutput, workspaceTools } from "../tools/index.js";
import { type BubblewrapOptions, bubblewrapRunner, onPath } from "./bubblewrap.js";
import { ContainerBackendUnavailableError } from "./errors.js";

const hasBwrap = onPath("bwrap") !== null;
const SKIP = hasBwrap ? "" : " (skipped: no bwrap on PATH; .ci/run installs bubblewrap)";

let ws = "";
let outside = "";
beforeEach(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), "karenina-bwrap-ws-")));
  outside = await realpath(await mkdtemp(join(tmpdir(), "karenina-bwrap-host-")));
  await writeFile(join(outside, "secret.txt"), "host secret 42\n");
});
afterEach(async () => {
  await rm(ws, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function toolsWith(options: BubblewrapOptions = {}, commandTimeoutMs = 20_000) {
  const commandRunner = await bubblewrapRunner(options);
  return workspaceTools(ws, { mode: "read_write", allowCommands: true, commandRunner, commandTimeoutMs });
}

async function run(
  tools: CommandWorkspaceTools,
  command: string,
  ...args: string[]
): Promise<RunCommandOutput> {
  const tool: Tool<{ command: string; args?: string[] }, RunCommandOutput> = tools.run_command;
  if (tool.execute === undefined) throw new Error("no execute");
  return (await tool.execute({ command, args }, { toolCallId: "c1", messages: [] })) as RunCommandOutput;
}

/** Processes whose command line holds `marker` (left behind by a command). */
async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (cmdline.includes(marker) && !/ Z /.test(stat)) found.push(Number(entry));
  }
  return found;
}

describe("bubblewrapRunner when bwrap is missing", () => {
  test("fails with a clear error naming the package, never falling back to the host", async () => {
    const error = await bubblewrapRunner({ bwrapPath: "no-such-bwrap-program" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContainerBackendUnavailableError);
    expect((error as Error).message).toMatch(
      /container backend bubblewrap is unavailable: no bwrap program on PATH; install bubblewrap/,
    );
  });
});

describe.skipIf(!hasBwrap)(`run_command in a bubblewrap container${SKIP}`, () => {
  test("a write inside the workspace works and is seen on the host; the environment is clean", async () => {
    const tools = await toolsWith();
    const out = await run(tools, "sh", "-c", "echo made inside > made.txt && pwd");
    expect(out).toMatchObject({ exit_code: 0, stdout: `${ws}\n` });
    expect(await readFile(join(ws, "made.txt"), "utf8")).toBe("made inside\n");
    const env = await run(tools, "env");
    expect(env.stdout.trim().split("\n").sort()).toEqual([
      `HOME=${ws}`,
      "LANG=C.UTF-8",
      "PATH=/usr/local/bin:/usr/bin:/bin",
      `PWD=${ws}`,
      "TMPDIR=/tmp",
    ]);
    expect(tools.run_command.description).toContain("bubblewrap container");
  });

  test("host files outside the workspace cannot be read: a file beside it, /etc/shadow, the home", async () => {
    const tools = await toolsWith();
    const secret = await run(tools, "cat", join(outside, "secret.txt"));
    expect(secret.exit_code).not.toBe(0);
    expect(secret.stdout).not.toContain("host secret");
    expect(secret.stderr).toContain("No such file or directory");
    const shadow = await run(tools, "cat", "/etc/shadow");
    expect(shadow.exit_code).not.toBe(0);
    expect(shadow.stderr).toContain("No such file or directory");
    const home = await run(tools, "ls", "/root", "/home");
    expect(home.exit_code).not.toBe(0);
    expect((await run(tools, "echo", "still running")).stdout).toBe("still running\n");
  });

  test("nothing outside the workspace can be written; /tmp is private and gone afterwards", async () => {
    const tools = await toolsWith();
    const beside = await run(tools, "sh", "-c", `echo x > ${join(outside, "planted.txt")}`);
    expect(beside.exit_code).not.toBe(0);
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    const system = await run(tools, "touch", "/usr/planted");
    expect(system.exit_code).not.toBe(0);
    expect(system.stderr).toContain("Read-only file system");
    const marker = `karenina-private-${process.pid}-${Date.now()}`;
    expect((await run(tools, "touch", `/tmp/${marker}`)).exit_code).toBe(0);
    expect(existsSync(join("/tmp", marker))).toBe(false);
  });

  describe("the network", () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        socket.on("error", () => undefined);
        socket.end("hello\n");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const probe = () =>
      `require("net").connect(${port}, "127.0.0.1").on("connect", () => { console.log("connected"); process.exit(0); })` +
      `.on("error", (e) => { console.error(e.code); process.exit(3); })`;

    test("is absent: a listener on the host's 127.0.0.1 cannot be reached", async () => {
      const before = connections;
      const tools = await toolsWith();
      const out = await run(tools, "node", "-e", probe());
      expect(out.exit_code).toBe(3);
      expect(out.stderr).toContain("ECONNREFUSED");
      expect(connections).toBe(before);
      expect((await run(tools, "echo", "goes on")).exit_code).toBe(0);
    });

    test("is shared when the settings allow it (network: true)", async () => {
      const tools = await toolsWith({ network: true });
      const out = await run(tools, "node", "-e", probe());
      expect(out).toMatchObject({ exit_code: 0, stdout: "connected\n" });
    });
  });

  test("a fork bomb is bounded by the process limit, leaves nothing behind, and the next command runs", async () => {
    const marker = `karenina-bomb-${process.pid}-${Date.now()}`;
    const tools = await toolsWith({ limits: { maxProcesses: 32 } }, 8_000);
    const out = await run(tools, "sh", "-c", 'f() { f | f & }; f; sleep 2; echo "$0 done"', marker);
    expect(out.limit === "processes" || out.limit === "wall_clock").toBe(true);
    expect(out.note).toMatch(/processes|time limit/);
    expect(await processesWith(marker)).toEqual([]);
    expect((await run(tools, "echo", "after the bomb")).stdout).toBe("after the bomb\n");
  });

  test("a command past the memory limit fails with a memory note, and the next command runs", async () => {
    const tools = await toolsWith({ limits: { memoryBytes: 1024 ** 3 } });
    const out = await run(tools, "node", "-e", "const a = []; for (;;) a.push(Buffer.alloc(1e7, 1));");
    expect(out.exit_code).not.toBe(0);
    expect(out.limit).toBe("memory");
    expect(out.note).toContain("1024 MB");
    expect((await run(tools, "echo", "after")).exit_code).toBe(0);
  });

  test("a command past its CPU time is stopped with a CPU note", async () => {
    const tools = await toolsWith({ limits: { cpuSeconds: 1 } });
    const out = await run(tools, "sh", "-c", "while :; do :; done");
    expect(out).toMatchObject({ exit_code: null, limit: "cpu_time" });
    expect(["SIGXCPU", "SIGKILL"]).toContain(out.signal);
  });

  test("past the wall-clock limit the whole container is killed, background processes included", async () => {
    const marker = `karenina-sleep-${process.pid}-${Date.now()}`;
    const tools = await toolsWith({}, 1_000);
    const out = await run(tools, "sh", "-c", "sleep 60 & sleep 60; echo $0", marker);
    expect(out).toMatchObject({ timed_out: true, limit: "wall_clock" });
    expect(await processesWith(marker)).toEqual([]);
  });
});
