/**
 * Start-up cost of the built `karenina` command: wall time and peak RSS of
 *   help      `karenina --help`
 *   inspect   `karenina checkpoint inspect examples/drug-targets.jsonld` (a small checkpoint)
 *   verify    `karenina verify` of one question whose template is classic Python (not declarative, so Pyodide
 *             runs it) against a scripted OpenAI-compatible server started in this process
 * each run `--runs` times in a fresh process (median, min and max). Run `npm run build` first: the built CLI
 * is measured.
 *
 *   npm run bench:cli
 *   npm run bench:cli -- --runs 9
 *   npm run bench:cli -- --baseline /tmp/cli-base/packages/karenina/bin/karenina.js   # before/after ratios
 *
 * `--cli FILE` measures another build's bin/karenina.js; `--baseline FILE` measures that one too and prints
 * after/before ratios. Peak RSS is the CLI process's own (its maximum resident set, reported at exit by a
 * preloaded hook); for verify, the Python sandbox runs in a process of its own, whose peak RSS is not in it.
 * For verify, "reported" is the run time the summary line states, and reported / wall how much of the wall
 * time it accounts for. Target: help and inspect under 200 ms wall. Every reply of the server is hand-written
 * benchmark data, not the output of any model.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { addClassicQuestion } from "../packages/karenina/src/test-support/classic-template.js";
import { startOpenAiServer } from "../packages/karenina/src/test-support/openai-server/index.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "7" },
    cli: { type: "string" },
    baseline: { type: "string" },
  },
});

const PACKAGE = fileURLToPath(new URL("../packages/karenina/", import.meta.url));
const CLI = values.cli ?? join(PACKAGE, "bin/karenina.js");
const BUILT = join(PACKAGE, "dist/index.js");
const SMALL_CHECKPOINT = join(PACKAGE, "examples/drug-targets.jsonld");
const RSS_HOOK = fileURLToPath(new URL("./cli-start-rss.cjs", import.meta.url));
const RUNS = Number(values.runs);
const TARGET_MS = 200;

interface Sample {
  wallMs: number;
  peakRssMb: number;
  reportedS: number | null;
}

interface Scenario {
  name: string;
  args: string[];
}

/** Runs the CLI once in a fresh process; wall time from spawn to exit, peak RSS from the preloaded hook. */
async function runOnce(cli: string, args: readonly string[], rssFile: string): Promise<Sample> {
  await rm(rssFile, { force: true });
  const started = performance.now();
  const child = spawn(process.execPath, ["--require", RSS_HOOK, cli, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, KARENINA_BENCH_RSS_FILE: rssFile, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`karenina ${args.join(" ")} exited with ${code}:\n${stderr}`);
  const peakRssMb = Number(await readFile(rssFile, "utf8")) / 1024;
  const reported = /·\s*(\d+(?:\.\d+)?)\s*s\b/.exec(stderr);
  return { wallMs, peakRssMb, reportedS: reported ? Number(reported[1]) : null };
}

const median = (xs: readonly number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

interface Figures {
  wallMs: number;
  minMs: number;
  maxMs: number;
  peakRssMb: number;
  reportedS: number | null;
}

function figures(samples: readonly Sample[]): Figures {
  const walls = samples.map((s) => s.wallMs);
  const reported = samples.map((s) => s.reportedS).filter((s): s is number => s !== null);
  return {
    wallMs: median(walls),
    minMs: Math.min(...walls),
    maxMs: Math.max(...walls),
    peakRssMb: median(samples.map((s) => s.peakRssMb)),
    reportedS: reported.length === 0 ? null : median(reported),
  };
}

/**
 * Figures of each CLI for one scenario. With two CLIs (baseline and measured) their runs alternate, so a
 * machine whose load changes meanwhile weighs on both alike.
 */
async function measure(clis: readonly string[], scenario: Scenario, rssFile: string): Promise<Figures[]> {
  for (const cli of clis) await runOnce(cli, scenario.args, rssFile); // warm the file-system cache; not counted
  const samples: Sample[][] = clis.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [index, cli] of clis.entries())
      samples[index]?.push(await runOnce(cli, scenario.args, rssFile));
  }
  return samples.map(figures);
}

/** A one-question checkpoint with the classic template, written with the built library. */
async function pythonCheckpoint(dir: string): Promise<string> {
  const { Benchmark } = (await import(BUILT)) as typeof import("../packages/karenina/src/index.js");
  const bench = Benchmark.create({ name: "cli-start bench" });
  addClassicQuestion(bench);
  const file = join(dir, "python-template.jsonld");
  await bench.save(file);
  await bench.close();
  return file;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const ratio = (x: number) => `${x.toFixed(2)}×`;

function row(label: string, figures: Figures, baseline: Figures | undefined, target: number | null): string {
  const parts = [
    label.padEnd(14),
    `wall ${ms(figures.wallMs).padStart(8)} (min ${ms(figures.minMs)}, max ${ms(figures.maxMs)})`,
    `peak RSS ${figures.peakRssMb.toFixed(0).padStart(4)} MB`,
  ];
  if (figures.reportedS !== null) {
    parts.push(
      `reported ${figures.reportedS.toFixed(1)} s (reported / wall ${ratio((1000 * figures.reportedS) / figures.wallMs)})`,
    );
  }
  if (target !== null) parts.push(`wall / ${target} ms target ${ratio(figures.wallMs / target)}`);
  if (baseline !== undefined) {
    parts.push(
      `after / before: wall ${ratio(figures.wallMs / baseline.wallMs)}, RSS ${ratio(figures.peakRssMb / baseline.peakRssMb)}`,
    );
  }
  return parts.join(" · ");
}

if (!existsSync(join(PACKAGE, "dist/cli/main.js")) && values.cli === undefined) {
  throw new Error("no built CLI: run `npm run build` first");
}

const dir = await mkdtemp(join(tmpdir(), "karenina-bench-cli-"));
// Hand-written benchmark replies, not output of any model.
const server = await startOpenAiServer([
  { match: { model: "answerer" }, reply: { text: "Venetoclax inhibits BCL2." }, repeat: true },
  { match: { model: "judge" }, reply: { json: { target: "BCL2" } }, repeat: true },
]);
try {
  const checkpoint = await pythonCheckpoint(dir);
  const scenarios: (Scenario & { target: number | null })[] = [
    { name: "help", args: ["--help"], target: TARGET_MS },
    { name: "inspect", args: ["checkpoint", "inspect", SMALL_CHECKPOINT], target: TARGET_MS },
    {
      name: "verify",
      args: [
        "verify",
        checkpoint,
        "-a",
        `openai_endpoint:answerer@${server.baseURL}`,
        "-p",
        `openai_endpoint:judge@${server.baseURL}`,
        "--no-progress",
      ],
      target: null,
    },
  ];
  const rssFile = join(dir, "rss");
  console.log(`karenina start-up: median of ${RUNS} runs each, node ${process.version}, ${CLI}`);
  if (values.baseline !== undefined) console.log(`baseline (before): ${values.baseline}`);
  for (const scenario of scenarios) {
    if (values.baseline === undefined) {
      const [measured] = await measure([CLI], scenario, rssFile);
      if (measured !== undefined) console.log(row(scenario.name, measured, undefined, scenario.target));
      continue;
    }
    const [before, after] = await measure([values.baseline, CLI], scenario, rssFile);
    if (before === undefined || after === undefined) continue;
    console.log(row(`${scenario.name} before`, before, undefined, scenario.target));
    console.log(row(`${scenario.name} after`, after, before, scenario.target));
  }
} finally {
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
