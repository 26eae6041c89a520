/**
 * The real `karenina serve` process for tests that need a separate process (kill -9, the environment a server
 * runs with, the CLI's own wiring): started on a free port of 127.0.0.1, read from its banner.
 * @example
 * const serving = await startServeProcess(["--db", join(dir, "karenina.db"), "--dir", dir]);
 * await fetch(`${serving.url}/api/health`);
 * expect(await serving.stop()).toBe(0);
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../cli/main.ts", import.meta.url));

export interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:<port>` from the banner. */
  readonly url: string;
  /** The access token from the banner. */
  readonly token: string;
  /** What it printed on stdout up to the banner's last line. */
  readonly banner: string;
  /** Everything it printed on stderr so far. */
  stderr(): string;
  /** Resolves with its exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Sends SIGTERM (a graceful stop) unless it has exited, and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `karenina serve --port 0 ARGS` with `env` added to this process's environment; resolves once it prints
 * its banner, rejects (with its stderr) when it exits first.
 */
export async function startServeProcess(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "serve", "--port", "0", ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let out = "";
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  child.stdout.setEncoding("utf8");
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("Press Ctrl+C")) resolve(out);
    });
    void exited.then(() => reject(new Error(`karenina serve exited early: ${err}`)));
  });
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
  const token = /access token: +(\S+)/.exec(banner)?.[1];
  if (url === undefined || token === undefined) throw new Error(`no URL or token in the banner: ${banner}`);
  return {
    child,
    url,
    token,
    banner,
    stderr: () => err,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
