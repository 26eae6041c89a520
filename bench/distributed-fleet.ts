/**
 * The processes bench/distributed.ts measures: `karenina` commands (the built CLI when it has the fleet's
 * commands, else the source through tsx), each with bench/distributed-probe.mjs preloaded, `karenina worker`
 * processes kept alive across runs, and the probe's CPU and query counts read back.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type WatchedLines,
  watchLines,
} from "../packages/karenina/src/distributed/__fixtures__/fleet-fixture.js";

const PACKAGE = fileURLToPath(new URL("../packages/karenina/", import.meta.url));
const PROBE = fileURLToPath(new URL("./distributed-probe.mjs", import.meta.url));

/** How `karenina` is started: the built CLI when it has the fleet's commands, else the source through tsx. */
export interface Cli {
  readonly label: string;
  readonly argv: readonly string[];
}

export function chooseCli(): Cli {
  if (existsSync(join(PACKAGE, "dist/cli/worker-command.js")))
    return {
      label: "built CLI (packages/karenina/bin/karenina.js)",
      argv: [join(PACKAGE, "bin/karenina.js")],
    };
  return {
    label:
      "CLI from source through tsx (packages/karenina/dist has no fleet commands yet: `npm run build` to measure the built one)",
    argv: ["--import", "tsx", join(PACKAGE, "src/cli/main.ts")],
  };
}

/** A probe reading: the process's CPU (ms, user + system) and pg queries sent so far, in all and per statement. */
export interface ProbeReading {
  cpuMs: number;
  queries: number;
  byStatement: Record<string, number>;
}

/** `a + sign × b`, field by field. */
export function combine(a: ProbeReading, b: ProbeReading, sign: 1 | -1): ProbeReading {
  const byStatement = { ...a.byStatement };
  for (const [key, n] of Object.entries(b.byStatement)) byStatement[key] = (byStatement[key] ?? 0) + sign * n;
  for (const [key, n] of Object.entries(byStatement)) if (n === 0) delete byStatement[key];
  return { cpuMs: a.cpuMs + sign * b.cpuMs, queries: a.queries + sign * b.queries, byStatement };
}

export const NO_READING: ProbeReading = { cpuMs: 0, queries: 0, byStatement: {} };

/** A `karenina` process started with the probe preloaded, its stderr kept line by line. */
export interface KareninaProcess extends WatchedLines {
  readonly child: ChildProcess;
}

export function startKarenina(cli: Cli, probeDir: string, args: readonly string[]): KareninaProcess {
  const child = spawn(process.execPath, ["--import", PROBE, ...cli.argv, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1", KARENINA_BENCH_PROBE_DIR: probeDir },
  });
  return { child, ...watchLines(child, `karenina ${args[0]}`) };
}

/** Runs `karenina ARGS` to its end; rejects on a non-zero exit. Returns its stderr and the probe's exit reading. */
export async function runKarenina(
  cli: Cli,
  probeDir: string,
  args: readonly string[],
): Promise<{ err: string; probe: ProbeReading }> {
  const proc = startKarenina(cli, probeDir, args);
  const code = await proc.exited;
  const err = proc.lines.join("\n");
  if (code !== 0) throw new Error(`karenina ${args.join(" ")} exited with ${code}:\n${err}`);
  const readings = await probeLines(probeDir, proc.child.pid as number);
  const exit = readings.findLast((r) => r.label === "exit");
  if (exit === undefined) throw new Error(`no probe reading at exit of karenina ${args[0]}`);
  return { err, probe: exit };
}

async function probeLines(probeDir: string, pid: number): Promise<(ProbeReading & { label: string })[]> {
  const text = await readFile(join(probeDir, `${pid}.jsonl`), "utf8").catch(() => "");
  // The last piece is a line still being written (or empty).
  return text
    .split("\n")
    .slice(0, -1)
    .map((line) => JSON.parse(line) as ProbeReading & { label: string });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks a running process for a probe reading (SIGUSR2) and waits for it. */
export async function snapshot(probeDir: string, proc: KareninaProcess): Promise<ProbeReading> {
  const pid = proc.child.pid as number;
  const before = (await probeLines(probeDir, pid)).length;
  proc.child.kill("SIGUSR2");
  for (let waited = 0; waited < 10_000; waited += 20) {
    const readings = await probeLines(probeDir, pid);
    const latest = readings[before];
    if (latest !== undefined) return latest;
    await sleep(20);
  }
  throw new Error(`worker ${pid} gave no probe reading`);
}

/** Starts `count` workers (`--concurrency`, quiet) and waits until each takes jobs. */
export async function startWorkers(
  cli: Cli,
  probeDir: string,
  url: string,
  count: number,
  concurrency: number,
): Promise<KareninaProcess[]> {
  const workers = Array.from({ length: count }, (_, i) =>
    startKarenina(cli, probeDir, [
      "worker",
      "--db",
      url,
      "--name",
      `bench-w${i + 1}`,
      "--concurrency",
      String(concurrency),
      "--quiet",
    ]),
  );
  await Promise.all(workers.map((worker) => worker.waitFor(/taking jobs/)));
  return workers;
}

/** Stops workers with SIGTERM (they finish the jobs in hand) and waits for them to exit. */
export async function stopWorkers(workers: readonly KareninaProcess[]): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill("SIGTERM");
  await Promise.all(workers.map((worker) => worker.exited));
}

/** Probe readings of every worker, summed. */
export async function fleetReading(
  probeDir: string,
  workers: readonly KareninaProcess[],
): Promise<ProbeReading> {
  const readings = await Promise.all(workers.map((worker) => snapshot(probeDir, worker)));
  return readings.reduce((sum, reading) => combine(sum, reading, 1), NO_READING);
}
