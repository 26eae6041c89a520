/**
 * Vitest global setup (see vitest.config.ts): once per test run, provides the PostgreSQL admin URL of
 * `KARENINA_TEST_PG_URL`, or of a throwaway cluster it starts and, at teardown, stops and deletes; or, when
 * neither is possible, the reason (see postgres.ts for how test files use it).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import type { ProvidedPostgres } from "./postgres.js";

const run = promisify(execFile);

/** A running throwaway cluster. */
interface ThrowawayCluster {
  readonly url: string;
  stop(): Promise<void>;
}

/** The directory holding `initdb` and `pg_ctl`: on PATH, else the newest `/usr/lib/postgresql/<v>/bin`. */
function postgresBinDir(): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], "bin");
}

function freePort(): Promise<number> {
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

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user. */
async function clusterOwner(dir: string): Promise<readonly string[]> {
  if (process.getuid?.() !== 0) return [];
  const { stdout } = await run("id", ["-u", "postgres"]);
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  await chown(dir, Number(stdout.trim()), Number(group.trim()));
  return ["runuser", "-u", "postgres", "--"];
}

async function runAs(prefix: readonly string[], command: string, args: readonly string[]): Promise<void> {
  const [program, ...rest] = prefix.length > 0 ? [...prefix, command, ...args] : [command, ...args];
  await run(program as string, rest, { timeout: 60_000 });
}

/**
 * Starts a PostgreSQL cluster in a new temporary directory, listening on 127.0.0.1 only, with trust
 * authentication for the `postgres` user and fsync off. `stop()` stops it and deletes the directory.
 * @throws when no PostgreSQL binaries are found or the cluster does not start (the log's end in the message).
 */
async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  if (bin === null)
    throw new Error("no PostgreSQL binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql");
  const dir = await mkdtemp(join(tmpdir(), "karenina-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "postgres.log");
  const pgCtl = join(bin, "pg_ctl");
  try {
    const owner = await clusterOwner(dir);
    await runAs(owner, join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]);
    const port = await freePort();
    const options = `-h 127.0.0.1 -p ${port} -k '${dir}' -F`;
    await runAs(owner, pgCtl, ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        try {
          await runAs(owner, pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
        } finally {
          await rm(dir, { recursive: true, force: true, maxRetries: 3 });
        }
      },
    };
  } catch (error) {
    const tail = await readFile(log, "utf8").then(
      (text) => text.trim().split("\n").slice(-5).join(" | "),
      () => "",
    );
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    throw new Error(
      `the throwaway PostgreSQL cluster did not start: ${(error as Error).message} ${tail}`.trim(),
    );
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const provide = (value: ProvidedPostgres) => project.provide("kareninaPostgres", value);
  const external = process.env.KARENINA_TEST_PG_URL;
  if (external) {
    provide({ adminUrl: external, reason: null });
    return undefined;
  }
  try {
    const cluster = await startThrowawayCluster();
    provide({ adminUrl: cluster.url, reason: null });
    return () => cluster.stop();
  } catch (error) {
    provide({ adminUrl: null, reason: (error as Error).message });
    return undefined;
  }
}
