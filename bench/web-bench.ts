/**
 * What the web app's benchmarks share (bench/web-results.ts, bench/web-extraction.ts): the real `karenina serve`
 * in a child process (the compiled CLI, or the TypeScript sources with `source`), Debian's Chromium flags, and
 * the median / milliseconds formatting of their figures.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAIN_TS = fileURLToPath(new URL("../packages/karenina/src/cli/main.ts", import.meta.url));
const BIN = fileURLToPath(new URL("../packages/karenina/bin/karenina.js", import.meta.url));

export { CHROMIUM, CHROMIUM_FLAGS } from "../packages/web/e2e/__fixtures__/chromium.js";

export const median = (samples: readonly number[]) =>
  [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? Number.NaN;
export const ms = (n: number) => `${n.toFixed(0)} ms`;

export interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  /** The access token the server printed. */
  readonly token: string;
}

/**
 * Starts `karenina serve` on a free port over `dir` (its SQLite file `karenina.db` and work folder); `source`
 * runs the TypeScript CLI through tsx instead of the compiled one. The page it serves is `packages/web/dist`.
 */
export async function serve(
  dir: string,
  source: boolean,
  env: Readonly<Record<string, string>> = {},
): Promise<Served> {
  const args = source ? ["--import", "tsx", MAIN_TS] : [BIN];
  const child = spawn(
    process.execPath,
    [...args, "serve", "--port", "0", "--db", join(dir, "karenina.db"), "--dir", dir],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } },
  );
  let out = "";
  const banner = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("Press Ctrl+C")) resolve(out);
    });
    child.on("close", () => reject(new Error("karenina serve exited early")));
  });
  return {
    child,
    url: /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] as string,
    token: /access token: +(\S+)/.exec(banner)?.[1] as string,
  };
}

/** Stops a server started by {@link serve} and waits for its exit. */
export async function stop(served: Served): Promise<void> {
  const closed = new Promise((resolve) => served.child.once("close", resolve));
  served.child.kill("SIGTERM");
  await closed;
}
