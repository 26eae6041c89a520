/**
 * Issue 16's "done when": `npx karenina demo` ends by printing the `karenina view` command for its run, and that
 * view shows it. Both commands run as real processes in a scratch folder (the demo offline, on its hand-written
 * answers); the printed command is run as printed (plus `--no-open --port 0`), and the run its printed address
 * opens is checked over HTTP. The browser half of the check is packages/web/e2e/demo-view.test.ts.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../storage/__fixtures__/databases.js";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
/** tsx's loader by absolute URL: the processes run in a scratch folder, where `--import tsx` would not resolve. */
const TSX = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist", "loader.mjs"),
).href;
const DEMO_ROWS = 14;

/** Splits a command line the demo printed (bare words, or single-quoted as `shellWord` quotes them). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) =>
    m[1] === undefined ? (m[2] as string) : m[1].replace(/'\\''/g, "'"),
  );
}

function karenina(args: readonly string[], cwd: string): ChildProcessWithoutNullStreams {
  const env = { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };
  return spawn(process.execPath, ["--import", TSX, MAIN, ...args], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
}

async function finished(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; out: string; err: string }> {
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, out, err };
}

describe("karenina demo, then the karenina view command it prints (real processes)", () => {
  let dir = "";
  let printed = "";
  let viewing: ChildProcessWithoutNullStreams | undefined;
  let exited: Promise<number | null> | undefined;
  let url: URL;

  beforeAll(async () => {
    dir = await tempDir();
    const demo = await finished(karenina(["demo", "--offline", "--no-progress"], dir));
    expect(demo.code, demo.err).toBe(0);
    const line = /Open them in the web app: (karenina view [^\n]+)\n/.exec(demo.err)?.[1];
    if (line === undefined) throw new Error(`the demo printed no karenina view command:\n${demo.err}`);
    printed = line;
    const [program, ...args] = shellWords(printed);
    expect(program).toBe("karenina");
    viewing = karenina([...args, "--no-open", "--port", "0"], dir);
    exited = new Promise((resolve) => viewing?.on("close", resolve));
    let out = "";
    let err = "";
    viewing.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    viewing.stdout.setEncoding("utf8");
    const shown = await new Promise<string>((resolve, reject) => {
      viewing?.stdout.on("data", (chunk: string) => {
        out += chunk;
        if (out.includes("Press Ctrl+C")) resolve(out);
      });
      void exited?.then(() => reject(new Error(`${printed} exited early: ${err}`)));
    });
    const address = /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(shown)?.[1];
    if (address === undefined) throw new Error(`no address in: ${shown}`);
    url = new URL(address);
  }, 120_000);

  afterAll(async () => {
    if (viewing !== undefined && viewing.exitCode === null) viewing.kill("SIGTERM");
    await exited;
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${url.origin}${path}`, {
      headers: { authorization: `Bearer ${url.searchParams.get("token")}` },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  }

  test("the demo prints `karenina view --db karenina.db <run>` for its stored run", () => {
    expect(printed).toMatch(/^karenina view --db karenina\.db run_\w+$/);
  });

  test("the printed view's address opens that run, which the server lists with every demo row", async () => {
    const query = new URLSearchParams(url.hash.slice(url.hash.indexOf("?") + 1));
    expect(url.hash).toMatch(/^#\/benchmark\?/);
    const runId = query.get("run");
    expect(runId).not.toBeNull();
    const runName = shellWords(printed).at(-1);
    const runs = await api<{ items: { id: string; run_name: string; status: string }[] }>(
      "/api/v2/verification-runs",
    );
    expect(runs.items).toContainEqual(
      expect.objectContaining({ id: runId, run_name: runName, status: "completed" }),
    );
    const results = await api<{ total: number }>(
      `/api/v2/verification-results?run_id=${encodeURIComponent(runId as string)}`,
    );
    expect(results.total).toBe(DEMO_ROWS);
  });

  test("Ctrl+C (SIGTERM) stops the view cleanly", async () => {
    viewing?.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
