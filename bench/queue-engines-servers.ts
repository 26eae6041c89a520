/**
 * The servers the queue-engine bench runs against: a throwaway PostgreSQL cluster (started the way the test
 * suite's global setup starts one: initdb in a temporary directory, 127.0.0.1 on a free port, trust, fsync off,
 * run as the `postgres` user when we are root) and, when `redis-server` is installed, a throwaway Redis on a
 * free port with persistence off. Also reads a server's CPU time from /proc.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A server started by the bench; `stop()` stops it and deletes its directory. */
export interface ThrowawayServer {
  readonly url: string;
  /** CPU time (user + system, ms) of the server, its exited children included. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

function binDirWith(program: string, extraRoots: readonly string[]): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, program))) return dir;
  }
  for (const dir of extraRoots) if (existsSync(join(dir, program))) return dir;
  return null;
}

function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => join(root, v, "bin"))
    : [];
  const dir = binDirWith("initdb", versions);
  return dir !== null && existsSync(join(dir, "pg_ctl")) ? dir : null;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, ...]; utime is field 14 (index 11 here). */
function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** utime + stime (+ cutime + cstime of waited-for children when `withChildren`), in ms. */
function processCpuMs(pid: number, withChildren: boolean): number {
  const fields = statFields(pid);
  if (fields === null) return 0;
  const ticks = [11, 12, ...(withChildren ? [13, 14] : [])].reduce((sum, i) => sum + Number(fields[i]), 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The postmaster's CPU, that of its exited children (backends) and that of its live children. */
function postgresTreeCpuMs(postmaster: number): number {
  let total = processCpuMs(postmaster, true);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields !== null && Number(fields[1]) === postmaster) total += processCpuMs(Number(entry), false);
  }
  return total;
}

async function asPostgresUser(dir: string): Promise<readonly string[]> {
  if (process.getuid?.() !== 0) return [];
  const { stdout: uid } = await run("id", ["-u", "postgres"]);
  const { stdout: gid } = await run("id", ["-g", "postgres"]);
  await chown(dir, Number(uid.trim()), Number(gid.trim()));
  return ["runuser", "-u", "postgres", "--"];
}

async function runAs(prefix: readonly string[], command: string, args: readonly string[]): Promise<void> {
  const [program, ...rest] = [...prefix, command, ...args];
  await run(program as string, rest, { timeout: 60_000 });
}

/** Starts a PostgreSQL cluster in a temporary directory (max_connections raised for many consumers). */
export async function startPostgres(): Promise<ThrowawayServer> {
  const bin = postgresBinDir();
  if (bin === null)
    throw new Error("no PostgreSQL binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql");
  const dir = await mkdtemp(join(tmpdir(), "karenina-queue-bench-pg-"));
  const data = join(dir, "data");
  const owner = await asPostgresUser(dir);
  const pgCtl = join(bin, "pg_ctl");
  try {
    await runAs(owner, join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]);
    const port = await freePort();
    const options = `-h 127.0.0.1 -p ${port} -k '${dir}' -F -c max_connections=300`;
    await runAs(owner, pgCtl, [
      "-D",
      data,
      "-l",
      join(dir, "postgres.log"),
      "-w",
      "-t",
      "60",
      "-o",
      options,
      "start",
    ]);
    const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      cpuMs: () => postgresTreeCpuMs(postmaster),
      async stop() {
        try {
          await runAs(owner, pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          await rm(dir, { recursive: true, force: true, maxRetries: 3 });
        }
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}

function readyLine(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start: ${seen.slice(-300)}`)),
      15_000,
    );
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${seen.slice(-300)}`));
    });
  });
}

/** Starts redis-server on a free port of 127.0.0.1, persistence off; or says why it cannot. */
export async function startRedis(): Promise<ThrowawayServer | { unavailable: string }> {
  const bin = binDirWith("redis-server", ["/usr/bin", "/usr/sbin"]);
  if (bin === null)
    return { unavailable: "redis-server is not installed (Debian: apt-get install redis-server)" };
  const dir = await mkdtemp(join(tmpdir(), "karenina-queue-bench-redis-"));
  const port = await freePort();
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
  ];
  const child = spawn(join(bin, "redis-server"), args, { stdio: ["ignore", "pipe", "pipe"] });
  try {
    await readyLine(child);
  } catch (error) {
    child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    return { unavailable: (error as Error).message };
  }
  const pid = child.pid ?? 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    cpuMs: () => processCpuMs(pid, true),
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
