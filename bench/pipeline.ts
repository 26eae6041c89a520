/**
 * Pipeline throughput and overhead against a local scripted server.
 *
 *   npm run bench:pipeline                                   # the three standard runs below
 *   npm run bench:pipeline -- --n 500 --latency 200 --concurrency 32
 *   npm run bench:pipeline -- --n 100000 --latency 0 --concurrency 64
 *
 * N questions, each one answer call and one judge call, against a scripted OpenAI-compatible server (in its own
 * process) that waits L ms before each reply; C tasks and C calls in flight. Results stream to a JSONL run log
 * and are not kept in memory. Run `npm run build` first so the built library is measured. Prints wall time, the ideal time ceil(N / C) × 2 × L, efficiency (ideal / wall),
 * CPU milliseconds per LLM call (this process only: user + system) and peak RSS.
 * Targets: efficiency ≥ 0.9 at N=500, L=200, C=32; ≤ 1 ms CPU per call at L=0; peak RSS ≤ 150 MB at N=500
 * and ≤ 250 MB at N=100,000.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    n: { type: "string" },
    latency: { type: "string" },
    concurrency: { type: "string" },
    child: { type: "boolean", default: false },
  },
});

/** The built library when it exists (`npm run build`): RSS and CPU then exclude tsx's on-the-fly transpiling. */
const BUILT = fileURLToPath(new URL("../packages/karenina/dist/index.js", import.meta.url));

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

interface Figures {
  n: number;
  latency: number;
  concurrency: number;
  wall: number;
  ideal: number;
  calls: number;
  cpuMsPerCall: number;
  peakRssMb: number;
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

/** One measured run, in this process. */
async function measure(n: number, latency: number, concurrency: number): Promise<Figures> {
  const { parseVerificationConfig, runVerification } = (await import(
    existsSync(BUILT) ? BUILT : "../packages/karenina/src/index.js"
  )) as typeof import("../packages/karenina/src/index.js");
  const server = await startServer(latency);
  const dir = await mkdtemp(join(tmpdir(), "karenina-bench-"));
  try {
    const model = (id: string) => ({
      id,
      model_name: id,
      interface: "openai_endpoint",
      endpoint_base_url: server.url,
      endpoint_api_key: "bench",
    });
    const config = parseVerificationConfig({
      answering_models: [model("answerer")],
      parsing_models: [model("judge")],
      async_max_workers: concurrency,
      max_concurrent_requests: concurrency,
    });
    const questions = Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      text: `Which drug inhibits BCL2? (variant ${i})`,
      rawAnswer: "venetoclax",
      template: { code: TEMPLATE, language: "Python" as const },
      keywords: null,
      fewShotExamples: [],
      rubric: null,
      dynamicRubric: null,
      workspacePath: null,
    }));
    // Warm up: template load and client creation are one-off costs, not per-call overhead.
    await runVerification(questions.slice(0, 2), config, { keepResults: false });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const run = await runVerification(questions, config, {
      output: join(dir, "run.jsonl"),
      keepResults: false,
    });
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      n,
      latency,
      concurrency,
      wall,
      ideal: (Math.ceil(n / concurrency) * 2 * latency) / 1000,
      calls: run.summary.calls,
      cpuMsPerCall: (used.user + used.system) / 1000 / run.summary.calls,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      passed: run.summary.passed,
    };
  } finally {
    server.stop();
    await rm(dir, { recursive: true, force: true });
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
      `${f.passed}/${f.n} passed`,
    ].join(" · "),
  );
}

/** Runs one configuration in a fresh child process, so each peak RSS is its own. */
function inChild(n: number, latency: number, concurrency: number): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const args = [
    "--import",
    "tsx",
    script,
    "--child",
    "--n",
    `${n}`,
    "--latency",
    `${latency}`,
    "--concurrency",
    `${concurrency}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`bench child exited with ${code}`)),
    );
  });
}

if (values.child) {
  print(await measure(Number(values.n), Number(values.latency), Number(values.concurrency)));
} else if (values.n !== undefined) {
  await inChild(Number(values.n), Number(values.latency ?? 0), Number(values.concurrency ?? 32));
} else {
  await inChild(500, 200, 32);
  await inChild(2000, 0, 32);
  await inChild(500, 0, 32);
}
