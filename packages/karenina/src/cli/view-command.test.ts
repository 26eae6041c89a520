import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { tempDir } from "../storage/__fixtures__/databases.js";
import { manyResults } from "../storage/__fixtures__/results.js";
import { openStorage } from "../storage/index.js";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

interface Viewing {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: URL;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** Starts the real `karenina view ARGS --no-open`; resolves with the address it prints. */
async function startView(args: readonly string[]): Promise<Viewing> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, "view", ...args, "--no-open"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let out = "";
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  child.stdout.setEncoding("utf8");
  const printed = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("Press Ctrl+C")) resolve(out);
    });
    void exited.then(() => reject(new Error(`karenina view exited early: ${err}`)));
  });
  const address = /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(printed)?.[1];
  if (address === undefined) throw new Error(`no address in: ${printed}`);
  return { child, url: new URL(address), exited, stderr: () => err };
}

/** The run the printed address opens: the hash's `run` and `label`. */
function hashRun(url: URL): { run: string | null; label: string | null } {
  const query = new URLSearchParams(url.hash.slice(url.hash.indexOf("?") + 1));
  return { run: query.get("run"), label: query.get("label") };
}

async function api<T>(url: URL, path: string): Promise<T> {
  const response = await fetch(`${url.origin}${path}`, {
    headers: { authorization: `Bearer ${url.searchParams.get("token")}` },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

interface RunsPage {
  items: { id: string; run_name: string; is_imported: boolean }[];
}

describe("karenina view (the real process)", () => {
  let viewing: Viewing | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    if (viewing !== undefined && viewing.child.exitCode === null) viewing.child.kill("SIGTERM");
    await viewing?.exited;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  test("on a JSONL run log: serves it as an imported run, prints the page that opens it, leaves the file alone", async () => {
    dir = await tempDir();
    const file = join(dir, "nightly.jsonl");
    const text = `${manyResults(["q1", "q2"], 5)
      .map((r) => JSON.stringify(r))
      .join("\n")}\n`;
    await writeFile(file, text);
    viewing = await startView([file]);
    expect(viewing.url.pathname).toBe("/");
    expect(viewing.url.hash).toMatch(/^#\/benchmark\?/);
    const { run, label } = hashRun(viewing.url);
    expect(label).toBe("Run nightly");
    const runs = await api<RunsPage>(viewing.url, "/api/v2/verification-runs");
    expect(runs.items).toEqual([
      expect.objectContaining({ id: run, run_name: "nightly", is_imported: true }),
    ]);
    const results = await api<{ total: number }>(viewing.url, `/api/v2/verification-results?run_id=${run}`);
    expect(results.total).toBe(5);
    expect(await readFile(file, "utf8")).toBe(text);
    viewing.child.kill("SIGTERM");
    expect(await viewing.exited, viewing.stderr()).toBe(0);
  }, 60_000);

  test("on --db URL RUN: that database's run by name; without RUN its newest", async () => {
    dir = await tempDir();
    const db = join(dir, "k.db");
    const storage = await openStorage(db);
    const { Benchmark } = await import("../benchmark/index.js");
    const bench = Benchmark.create({ name: "b" });
    bench.addQuestion({ question: "Q1?", raw_answer: "A", question_id: "q1" });
    await storage.saveBenchmark(bench);
    const first = await storage.startRun({ runId: "r-old", runName: "old", benchmarkName: "b", config: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await storage.startRun({ runId: "r-new", runName: "new", benchmarkName: "b", config: {} });
    await storage.close();
    viewing = await startView(["--db", db, "old"]);
    expect(hashRun(viewing.url)).toEqual({ run: first.id, label: "Run old" });
    viewing.child.kill("SIGTERM");
    await viewing.exited;
    viewing = await startView(["--db", db]);
    expect(hashRun(viewing.url)).toEqual({ run: second.id, label: "Run new" });
  }, 60_000);

  test("refuses a file of another kind, saying what it expects", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", MAIN, "view", "results.csv", "--no-open"]);
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(2);
    expect(err).toContain("expected a .jsonl run log or a .json results export");
  }, 60_000);
});
