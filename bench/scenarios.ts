/**
 * Scenario runs through the CLI (issue 19): S scenarios × T turns against a scripted OpenAI-compatible server.
 *
 *   npm run bench:scenarios                                   # S=200 T=4, L=50 ms, W=8; then L=0 for CPU
 *   npm run bench:scenarios -- --workers 1,8,32 --latency 50
 *   npm run bench:scenarios -- --cli /tmp/build/packages/karenina/bin/karenina.js --variants classic
 *
 * Each scenario is a chain of T nodes a1 → a2 → … → aT → END (unconditional edges), each node one question, so
 * each turn is one answering call and one judge call; one model pair, one replicate: S executions of T turns.
 * Two checkpoints, measured one after the other: every node with the declarative VerifiedField template
 * (test-support/pipeline-context.ts DRUG_TEMPLATE, checked in JavaScript), and every node with the classic
 * Python template whose `verify` is Python (test-support/classic-template.ts, run in the Pyodide sandbox).
 * What users run is measured: `karenina verify CHECKPOINT -a openai_endpoint:answerer@URL -p
 * openai_endpoint:judge@URL --concurrency W -o run.jsonl` in a fresh process, wall time from its spawn to its
 * exit (start-up, checkpoint load, sandbox start, run, export and results tables included). The server runs in
 * this process, each reply after L ms, on a fresh server per run (its peak of requests in flight is per run).
 *
 * Printed per run: wall time; the run time the CLI's summary line states (without start-up); the ideal,
 * ceil(S / W) × T × 2 × L (turns are sequential within an execution, W executions run at once, each turn two
 * sequential calls of L ms); efficiency = ideal / wall (and ideal / stated run time); the peak of requests in
 * flight at the server (at most W); CPU per turn = the CLI process's own user + system (a preloaded probe,
 * bench/scenarios-probe.cjs) over S × T turns, and the same with the CPU of its descendant processes (the
 * Python sandbox) added, as last seen by a poll of /proc every 100 ms (a descendant's last < 100 ms is missed: the
 * sandbox is not reaped by the CLI before it exits, so the kernel's children's times do not have it); peak RSS of the
 * CLI process. An L = 0 row per template shows CPU without waiting; a run of one scenario at L = 0 gives the
 * start-up's share, and so the marginal CPU per turn: (CPU of S scenarios − CPU of 1) / ((S − 1) × T).
 * The built CLI (packages/karenina/bin/karenina.js) is measured when dist/ has scenario runs; else the source
 * through tsx (start-up then includes tsx's compiling: build first). `--cli FILE` measures another entry.
 * Figures only, no targets asserted; the machine's cores are shared with the server in this process and
 * whatever else runs. Every reply of the server is hand-written benchmark data, not the output of any model.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Benchmark, END, Scenario } from "../packages/karenina/src/index.js";
import { CLASSIC_TEMPLATE } from "../packages/karenina/src/test-support/classic-template.js";
import {
  type ScriptRule,
  startOpenAiServer,
} from "../packages/karenina/src/test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../packages/karenina/src/test-support/pipeline-context.js";

const { values } = parseArgs({
  options: {
    scenarios: { type: "string", default: "200" },
    turns: { type: "string", default: "4" },
    latency: { type: "string", default: "50" },
    workers: { type: "string", default: "8" },
    variants: { type: "string", default: "declarative,classic" },
    cli: { type: "string" },
  },
});
const S = Number(values.scenarios);
const T = Number(values.turns);
const LATENCY = Number(values.latency);
const WORKERS = values.workers.split(",").map(Number);
const PACKAGE = fileURLToPath(new URL("../packages/karenina/", import.meta.url));
const PROBE = fileURLToPath(new URL("./scenarios-probe.cjs", import.meta.url));
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Variant {
  name: string;
  label: string;
  template: string;
  answer: string;
  judged: Record<string, string>;
}

const VARIANTS: Variant[] = [
  {
    name: "declarative",
    label: "declarative VerifiedField template (DRUG_TEMPLATE)",
    template: DRUG_TEMPLATE,
    answer: "Venetoclax.",
    judged: { drug: "venetoclax" },
  },
  {
    name: "classic",
    label: "classic Python template with verify() (CLASSIC_TEMPLATE, Pyodide)",
    template: CLASSIC_TEMPLATE,
    answer: "Venetoclax inhibits BCL2.",
    judged: { target: "BCL2" },
  },
];

interface Cli {
  label: string;
  argv: string[];
}

function chooseCli(): Cli {
  if (values.cli !== undefined) return { label: values.cli, argv: [values.cli] };
  if (existsSync(join(PACKAGE, "dist/cli/scenario-verify.js")))
    return {
      label: "built CLI (packages/karenina/bin/karenina.js)",
      argv: [join(PACKAGE, "bin/karenina.js")],
    };
  return {
    label:
      "CLI from source through tsx (dist/ has no scenario runs yet: `npm run build` to measure the built one; start-up includes tsx's compiling)",
    argv: ["--import", "tsx", join(PACKAGE, "src/cli/main.ts")],
  };
}

/** A checkpoint of `scenarios` chains of `turns` nodes, every node asking a question with `template`. */
async function writeCheckpoint(file: string, scenarios: number, template: string): Promise<void> {
  const bench = Benchmark.create({ name: `bench-scenarios-${scenarios}` });
  for (let i = 0; i < scenarios; i++) {
    const scenario = new Scenario(`s${i}`);
    for (let k = 1; k <= T; k++)
      scenario.addNode(`a${k}`, {
        question: {
          question: `Scenario ${i}, turn ${k}: which drug inhibits BCL2, and which protein does it target?`,
          raw_answer: "venetoclax",
          answer_template: template,
        },
      });
    for (let k = 1; k < T; k++) scenario.addEdge(`a${k}`, `a${k + 1}`);
    bench.addScenario(scenario.addEdge(`a${T}`, END).setEntry("a1"));
  }
  await bench.save(file);
  await bench.close();
}

// Hand-written benchmark replies, not output of any model.
const replies = (variant: Variant, delayMs: number): ScriptRule[] => [
  { match: { model: "answerer" }, reply: { text: variant.answer, delayMs }, repeat: true },
  { match: { model: "judge" }, reply: { json: variant.judged, delayMs }, repeat: true },
];

/** CPU (ms) of every process under `root` (not `root` itself), as last seen by a poll of /proc every 100 ms. */
function watchDescendants(root: number): { stop: () => number } {
  const seen = new Map<number, number>();
  const poll = () => {
    const parents = new Map<number, { ppid: number; cpuMs: number }>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const cpuMs = ((Number(fields[14 - 3]) + Number(fields[15 - 3])) * 1000) / TICKS_PER_SECOND;
        parents.set(Number(entry), { ppid: Number(fields[4 - 3]), cpuMs });
      } catch {
        // The process ended between the listing and the read.
      }
    }
    for (const [pid, { cpuMs }] of parents) {
      let ancestor = parents.get(pid)?.ppid;
      while (ancestor !== undefined && ancestor > 1 && ancestor !== root)
        ancestor = parents.get(ancestor)?.ppid;
      if (ancestor === root) seen.set(pid, Math.max(seen.get(pid) ?? 0, cpuMs));
    }
  };
  const timer = setInterval(poll, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return [...seen.values()].reduce((a, b) => a + b, 0);
    },
  };
}

interface Measured {
  variant: string;
  scenarios: number;
  workers: number;
  latency: number;
  wallS: number;
  /** The run time the CLI's summary line states. */
  statedS: number;
  ideal: number;
  calls: number;
  peakInFlight: number;
  cliCpuMs: number;
  /** CPU of the CLI's descendant processes (the Python sandbox), polled. */
  descendantsCpuMs: number;
  peakRssMb: number;
  summary: string;
  argv: string[];
}

async function runOnce(
  cli: Cli,
  dir: string,
  variant: Variant,
  checkpoint: string,
  scenarios: number,
  workers: number,
  latency: number,
): Promise<Measured> {
  const server = await startOpenAiServer(replies(variant, latency));
  const output = join(dir, `run-${variant.name}-${scenarios}-${workers}-${latency}.jsonl`);
  const probeFile = join(dir, "probe.json");
  await rm(probeFile, { force: true });
  const args = [
    "verify",
    checkpoint,
    "-a",
    `openai_endpoint:answerer@${server.baseURL}`,
    "-p",
    `openai_endpoint:judge@${server.baseURL}`,
    "--concurrency",
    String(workers),
    "-o",
    output,
  ];
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ["--require", PROBE, ...cli.argv, ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NO_COLOR: "1", KARENINA_BENCH_SCENARIOS_PROBE: probeFile },
    });
    const descendants = watchDescendants(child.pid as number);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const wallS = (performance.now() - started) / 1000;
    const descendantsCpuMs = descendants.stop();
    if (code !== 0)
      throw new Error(`karenina ${args.join(" ")} exited with ${code}:\n${stderr.slice(-4000)}`);
    const probe = JSON.parse(await readFile(probeFile, "utf8")) as {
      userMs: number;
      systemMs: number;
      maxRssKb: number;
    };
    const summary = stderr.split("\n").find((line) => / executions \(/.test(line)) ?? "(no summary line)";
    const stated = /LLM calls · (\d+(?:\.\d+)?) s/.exec(summary);
    return {
      variant: variant.name,
      scenarios,
      workers,
      latency,
      wallS,
      statedS: stated ? Number(stated[1]) : Number.NaN,
      ideal: (Math.ceil(scenarios / workers) * T * 2 * latency) / 1000,
      calls: server.requests.filter((request) => request.path.endsWith("/chat/completions")).length,
      peakInFlight: server.peakInFlight.all ?? 0,
      cliCpuMs: probe.userMs + probe.systemMs,
      descendantsCpuMs,
      peakRssMb: probe.maxRssKb / 1024,
      summary,
      argv: [...cli.argv, ...args],
    };
  } finally {
    await server.close();
  }
}

const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");

const HEADER = [
  "template",
  "W",
  "L ms",
  "wall s",
  "stated s",
  "ideal s",
  "eff (wall)",
  "eff (stated)",
  "peak in flight",
  "LLM calls",
  "CLI CPU ms/turn",
  "with sandbox ms/turn",
  "peak RSS MB",
];

function row(m: Measured): string[] {
  const turns = m.scenarios * T;
  const eff = (x: number) => (m.ideal > 0 ? f(m.ideal / x, 3) : "n/a (L=0)");
  return [
    m.variant,
    String(m.workers),
    String(m.latency),
    f(m.wallS),
    f(m.statedS, 1),
    f(m.ideal),
    eff(m.wallS),
    eff(m.statedS),
    String(m.peakInFlight),
    String(m.calls),
    f(m.cliCpuMs / turns),
    f((m.cliCpuMs + m.descendantsCpuMs) / turns),
    f(m.peakRssMb, 0),
  ];
}

function printTable(rows: string[][]): void {
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join(" │ ");
  console.log(line(HEADER));
  console.log(widths.map((w) => "─".repeat(w)).join("─┼─"));
  for (const r of rows) console.log(line(r));
}

const dir = await mkdtemp(join(tmpdir(), "karenina-bench-scenarios-"));
try {
  const cli = chooseCli();
  const chosen = VARIANTS.filter((v) => values.variants.split(",").includes(v.name));
  console.log(
    `karenina scenario bench: node ${process.version}, ${cpus().length} cores (shared with the scripted server in this process), ${cli.label}`,
  );
  console.log(
    `${S} scenarios × ${T} turns (chain a1 → … → a${T} → END), 1 answering × 1 judge model, 1 replicate: ${S * T} turns, ${S * T * 2} LLM calls per run`,
  );
  console.log(`ideal = ceil(S / W) × T × 2 × L = ceil(${S} / W) × ${T} × 2 × L`);
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const variant of chosen) {
    const checkpoint = join(dir, `${variant.name}.jsonld`);
    const single = join(dir, `${variant.name}-1.jsonld`);
    await writeCheckpoint(checkpoint, S, variant.template);
    await writeCheckpoint(single, 1, variant.template);
    const runs: Measured[] = [];
    for (const workers of WORKERS)
      runs.push(await runOnce(cli, dir, variant, checkpoint, S, workers, LATENCY));
    const idle = await runOnce(cli, dir, variant, checkpoint, S, WORKERS[0] as number, 0);
    runs.push(idle);
    const startUp = await runOnce(cli, dir, variant, single, 1, WORKERS[0] as number, 0);
    for (const m of runs) rows.push(row(m));
    const marginalTurns = (S - 1) * T;
    notes.push(
      `${variant.name}: 1 scenario at L=0 (start-up and one execution): wall ${f(startUp.wallS)} s (stated ${f(startUp.statedS, 1)} s), CLI CPU ${f(startUp.cliCpuMs, 0)} ms, with sandbox ${f(startUp.cliCpuMs + startUp.descendantsCpuMs, 0)} ms · marginal CPU per turn at L=0: CLI ${f((idle.cliCpuMs - startUp.cliCpuMs) / marginalTurns)} ms, with sandbox ${f((idle.cliCpuMs + idle.descendantsCpuMs - startUp.cliCpuMs - startUp.descendantsCpuMs) / marginalTurns)} ms`,
      `${variant.name}: summary line of the L=0 run: ${idle.summary}`,
    );
    console.log(`\n${variant.label}: command line (W=${runs[0]?.workers}, L=${LATENCY} ms):`);
    console.log(`  node --require bench/scenarios-probe.cjs ${runs[0]?.argv.join(" ")}`);
  }
  console.log("");
  printTable(rows);
  console.log("");
  for (const note of notes) console.log(note);
} finally {
  await rm(dir, { recursive: true, force: true });
}
