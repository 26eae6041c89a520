/**
 * Pipeline throughput and overhead against a local scripted server.
 *
 *   npm run bench:pipeline            # N=500 L=200 C=32 (efficiency); N=500 L=0 (RSS); N=20000 L=0 (CPU, warmed up)
 *   npm run bench:pipeline -- --n 500 --latency 200 --concurrency 32
 *   npm run bench:pipeline -- --n 100000 --latency 0 --concurrency 64
 *
 * N questions, each one answer call and one judge call, against a scripted OpenAI-compatible server (in its own
 * process) that waits L ms before each reply; C tasks and C calls in flight. Results stream to a JSONL run log
 * and are not kept in memory. Run `npm run build` first so the built library is measured. Prints wall time, the ideal time ceil(N / C) × 2 × L, efficiency (ideal / wall),
 * CPU milliseconds per LLM call (this process only: user + system), peak RSS, and the live heap after a full
 * GC at the end (what the run retains; results stream to disk, so it does not grow with N). `--heap-cap MB`
 * runs the measured process with `--max-old-space-size=MB`, to show how far V8's heap sizing, not retained
 * data, sets the peak RSS.
 * Targets: efficiency ≥ 0.9 at N=500, L=200, C=32; ≤ 1 ms CPU per call at L=0; peak RSS ≤ 150 MB at N=500
 * and ≤ 250 MB at N=100,000.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    n: { type: "string" },
    latency: { type: "string" },
    concurrency: { type: "string" },
    "heap-cap": { type: "string" },
  },
});

const BUILT = fileURLToPath(new URL("../packages/karenina/dist/index.js", import.meta.url));
const CHILD = fileURLToPath(new URL("./pipeline-child.mjs", import.meta.url));

interface Figures {
  n: number;
  latency: number;
  concurrency: number;
  wall: number;
  ideal: number;
  calls: number;
  cpuMsPerCall: number;
  peakRssMb: number;
  liveHeapMb: number;
  passed: number;
}

async function startServer(latency: number): Promise<{ url: string; stop: () => void }> {
  const script = fileURLToPath(new URL("./pipeline-server.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, "--latency", String(latency)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve) => lines.once("line", resolve));
  return { url, stop: () => child.kill() };
}

/** One measured run in a fresh plain-Node process (its own peak RSS, no tsx loader), against a fresh server. */
async function measure(n: number, latency: number, concurrency: number): Promise<Figures> {
  const server = await startServer(latency);
  try {
    const heapCap = values["heap-cap"] === undefined ? [] : [`--max-old-space-size=${values["heap-cap"]}`];
    const child = spawn(
      process.execPath,
      ["--expose-gc", ...heapCap, CHILD, `${n}`, `${latency}`, `${concurrency}`, server.url],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      child.on("exit", (code) => code !== 0 && reject(new Error(`bench child exited with ${code}`)));
    });
    return JSON.parse(line) as Figures;
  } finally {
    server.stop();
  }
}

function print(f: Figures): void {
  const efficiency = f.ideal > 0 ? (f.ideal / f.wall).toFixed(3) : "n/a (L=0)";
  console.log(
    [
      `N=${f.n} L=${f.latency}ms C=${f.concurrency}:`,
      `wall ${f.wall.toFixed(2)} s`,
      `ideal ${f.ideal.toFixed(2)} s`,
      `efficiency ${efficiency}`,
      `${f.calls} LLM calls`,
      `CPU ${f.cpuMsPerCall.toFixed(3)} ms/call`,
      `peak RSS ${f.peakRssMb.toFixed(0)} MB`,
      `live heap after the run ${f.liveHeapMb.toFixed(0)} MB`,
      `${f.passed}/${f.n} passed`,
    ].join(" · "),
  );
}

if (!existsSync(BUILT)) {
  console.error("bench:pipeline measures the built library: run `npm run build` first.");
  process.exit(2);
}
const runs: [number, number, number][] =
  values.n !== undefined
    ? [[Number(values.n), Number(values.latency ?? 0), Number(values.concurrency ?? 32)]]
    : [
        [500, 200, 32],
        [500, 0, 32],
        [20000, 0, 32],
      ];
for (const [n, latency, concurrency] of runs) print(await measure(n, latency, concurrency));
