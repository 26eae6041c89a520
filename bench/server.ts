/**
 * `karenina serve` under load: paged results and one full row with 100,000 stored results, summary and
 * comparison by reference, progress fan-out to 50 subscribers, and the server's RSS.
 *
 *   npm run bench:server                                   # 100,000 results, a 2,000-task job, 50 subscribers
 *   npm run bench:server -- --results 20000 --tasks 500 --subscribers 10
 *   npm run bench:server -- --built                        # the compiled CLI (run `npm run build` first)
 *   npm run bench:server -- --tasks 0 --skip-in-process    # only the server's pages, summary and comparison
 *
 * 1. Stores `--results` full results (about 6 kB of JSON each, the storage tests' fixture) in one run of a
 *    SQLite file, in batches of 1,000 through `Storage.saveResults`, and a completed verification job row over
 *    that run.
 * 2. Starts the real `karenina serve` process (its own process, so its RSS is the server's alone).
 * 3. Progress fan-out (first, so the RSS during the job is not that of a heap the summaries grew): starts a
 *    `--tasks`-question job against the scripted OpenAI-compatible server (its own process, no delay), with
 *    `--subscribers` WebSocket clients following it from seq 0 to `job_completed`; prints events delivered per
 *    second (all subscribers) and how many subscribers saw every event. Samples the server's RSS every 50 ms.
 * 4. Over real HTTP: walks the 100,000 results a page of 100 summary rows at a time by cursor (every page),
 *    fetches 200 random full rows, asks for the summary by reference (job id) and the comparison of the run
 *    with itself by reference (run names), `--repeat` times each (default once: the comparison takes minutes).
 *    The summary is asked twice each time: "cold: no stored summary" after the bench deletes the run's stored
 *    summary (`Storage.deleteRunSummary`), so the server reads and summarises every digest (and stores the
 *    result, as it does for any finished run); then "stored summary", served from the run_summaries row the
 *    cold request wrote (what every request after a run's end costs, since finished runs store theirs).
 *    Each is printed with its p50 over `--repeat`.
 * Targets (issue 15): results page p95 ≤ 50 ms; summary of 100,000 results ≤ 1 s; server RSS ≤ 200 MB during
 * the job. Prints figures and ratios only; nothing is asserted. The scripted replies are hand-written
 * benchmark data, not the output of any model.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { WebSocket } from "undici";
import {
  Benchmark,
  createSummaryAccumulator,
  openStorage,
  summarizeResults,
  type VerificationResult,
} from "../packages/karenina/src/index.js";
import { richResult } from "../packages/karenina/src/storage/__fixtures__/results.js";
import { DRUG_TEMPLATE } from "../packages/karenina/src/test-support/pipeline-context.js";
import { type Served, serve as serveWeb } from "./web-bench.js";

const { values } = parseArgs({
  options: {
    results: { type: "string", default: "100000" },
    tasks: { type: "string", default: "2000" },
    subscribers: { type: "string", default: "50" },
    repeat: { type: "string", default: "1" },
    built: { type: "boolean", default: false },
    /** Skips the in-process summaries (they take a minute: the first reads every full row). */
    "skip-in-process": { type: "boolean", default: false },
  },
});
const RESULTS = Number(values.results);
const TASKS = Number(values.tasks);
const SUBSCRIBERS = Number(values.subscribers);
const SUMMARIES = Number(values.repeat);
const LLM_SERVER = fileURLToPath(new URL("./pipeline-server.ts", import.meta.url));

const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function latencies(label: string, samples: number[], target?: { p95: number }) {
  const sorted = [...samples].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p95 = percentile(sorted, 95);
  const ratio =
    target === undefined ? "" : ` (p95 / target ${target.p95} ms = ${(p95 / target.p95).toFixed(2)})`;
  console.log(
    `${label}: ${samples.length} requests, p50 ${ms(p50)}, p95 ${ms(p95)}, max ${ms(sorted.at(-1) ?? 0)}${ratio}`,
  );
}

/** The resident set of process `pid` in kB (Linux /proc), or NaN elsewhere. */
function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** Stores `count` results in one run and a completed verification job over it; returns the job id. */
async function populate(dbFile: string, count: number): Promise<{ jobId: string; runId: string }> {
  const questions = Array.from({ length: 500 }, (_, i) => `q${i}`);
  const bench = Benchmark.create({ name: "server-bench", version: "1.0.0" });
  for (const id of questions) bench.addQuestion(`Question ${id}?`, `Answer ${id}`, { questionId: id });
  const storage = await openStorage(dbFile);
  try {
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "bench-100k", benchmarkName: "server-bench" });
    const started = performance.now();
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, (_, k) => {
        const index = start + k;
        return richResult({
          questionId: questions[index % questions.length] as string,
          replicate: index + 1,
          passed: index % 3 !== 2,
        });
      });
      await storage.saveResults(run.id, batch);
    }
    await storage.finishRun(run.id, { status: "completed" });
    const jobId = crypto.randomUUID();
    await storage.createJob({
      id: jobId,
      kind: "verification",
      input: { benchmark_name: "server-bench", run_name: "bench-100k", question_ids: null, config: {} },
      runId: run.id,
    });
    const now = new Date().toISOString();
    await storage.updateJob(jobId, {
      status: "completed",
      startedAt: now,
      finishedAt: now,
      progress: {
        total: count,
        processed: count,
        successful: count,
        failed: 0,
        percentage: 100,
        last_seq: 0,
      },
    });
    console.log(
      `stored ${count} results (batches of 1,000) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return { jobId, runId: run.id };
  } finally {
    await storage.close();
  }
}

/** `karenina serve` on `dir`, with two async regex workers (as in the server scenario tests). */
const serve = (dir: string) => serveWeb(dir, !values.built, { KARENINA_ASYNC_MAX_WORKERS: "2" });

async function startLlmServer(): Promise<{ child: ChildProcess; baseURL: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", LLM_SERVER, "--latency", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const baseURL = await new Promise<string>((resolve) => lines.once("line", resolve));
  return { child, baseURL };
}

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await run();
  return [performance.now() - start, value];
}

/** Progress fan-out during a job of TASKS tasks at L = 0; returns the scripted LLM server to stop. */
async function fanOut(url: string, headers: Record<string, string>, pid: number, idleKb: number) {
  const llm = await startLlmServer();
  const get = (path: string) => fetch(`${url}${path}`, { headers });
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const model = (name: string) => ({
    id: name,
    model_provider: "openai",
    model_name: name,
    interface: "openai_endpoint",
    endpoint_base_url: llm.baseURL,
    endpoint_api_key: "sk-bench",
  });
  const bench = Benchmark.create({ name: "fan-out" });
  for (let i = 0; i < TASKS; i++)
    bench.addQuestion(`Which drug inhibits BCL2? (${i})`, "venetoclax", {
      questionId: `f${i}`,
      answerTemplate: DRUG_TEMPLATE,
    });
  // The job is queued behind nothing; subscribers connect at once and replay from seq 0 what they missed.
  const started = (await (
    await post("/api/v2/verifications", {
      config: { answering_models: [model("answerer")], parsing_models: [model("judge")] },
      checkpoint: JSON.parse(bench.serialize()),
      run_name: "fan-out",
    })
  ).json()) as { job_id: string };
  const wsUrl = `${url.replace("http", "ws")}/ws/verification-progress/${started.job_id}?after=0`;
  const counts: number[] = [];
  const lastSeqs: number[] = [];
  let peakJobKb = rssKb(pid);
  const jobSampler = setInterval(() => {
    peakJobKb = Math.max(peakJobKb, rssKb(pid));
  }, 50);
  const fanStart = performance.now();
  await Promise.all(
    Array.from({ length: SUBSCRIBERS }, (_, index) => {
      counts[index] = 0;
      lastSeqs[index] = 0;
      const ws = new WebSocket(wsUrl, { headers });
      ws.addEventListener("message", (event) => {
        const data = JSON.parse(String(event.data)) as { type: string; seq: number };
        if (data.type === "snapshot") return;
        counts[index] = (counts[index] ?? 0) + 1;
        lastSeqs[index] = data.seq;
      });
      return new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
    }),
  );
  const fanSeconds = (performance.now() - fanStart) / 1000;
  clearInterval(jobSampler);
  const view = (await (await get(`/api/v2/verifications/${started.job_id}/progress`)).json()) as {
    status: string;
    processed: number;
    last_seq: number;
  };
  const delivered = counts.reduce((a, b) => a + b, 0);
  const complete = counts.filter((c, i) => c === view.last_seq && lastSeqs[i] === view.last_seq).length;
  console.log(
    `fan-out: job of ${TASKS} tasks at L=0 ${view.status} (${view.processed} processed) in ${fanSeconds.toFixed(1)} s; ` +
      `${view.last_seq} events × ${SUBSCRIBERS} subscribers = ${delivered} delivered, ` +
      `${(delivered / fanSeconds).toFixed(0)} events/s (${(view.last_seq / fanSeconds).toFixed(0)} per subscriber/s); ` +
      `${complete}/${SUBSCRIBERS} subscribers got every event`,
  );
  console.log(
    `server RSS idle ${mb(idleKb)}, peak during the job ${mb(peakJobKb)} (/ target 200 MB = ${(peakJobKb / 1024 / 200).toFixed(2)})`,
  );

  return llm;
}

/**
 * Asks /api/health every 20 ms until stopped and returns the latencies: how long the server's event loop
 * kept clients waiting while it worked on something else.
 */
function healthProbe(get: (path: string) => Promise<Response>) {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const [took] = await timed(async () => (await get("/api/health")).text());
      samples.push(took);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * The summary's work in this process, three ways, with perf_hooks' event-loop delay monitor running (p99 and
 * max delay are how long a request waited) and the heap sampled: every full row validated then summarised
 * (issue 15's first route), every stored digest listed then summarised (the route before the accumulator),
 * and the digests fed a page at a time to a summary accumulator with the event loop free between pages (now).
 */
async function inProcessSummaries(dbFile: string, runId: string) {
  const storage = await openStorage(dbFile);
  const yieldNow = () => new Promise((r) => setImmediate(r));
  try {
    const measure = async (label: string, work: () => Promise<unknown>) => {
      global.gc?.();
      const baseHeap = process.memoryUsage().heapUsed;
      let peakHeap = baseHeap;
      const sampler = setInterval(() => {
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }, 20);
      const monitor = monitorEventLoopDelay({ resolution: 10 });
      monitor.enable();
      const [took, summary] = await timed(work);
      // The monitor records a blocked stretch when its next timer fires: let it fire before reading.
      await new Promise((r) => setTimeout(r, 50));
      monitor.disable();
      clearInterval(sampler);
      const msOf = (ns: number) => ns / 1e6;
      console.log(
        `in-process ${label}: ${(took / 1000).toFixed(2)} s; event-loop delay ` +
          `p50 ${ms(msOf(monitor.percentile(50)))}, p99 ${ms(msOf(monitor.percentile(99)))}, max ${ms(msOf(monitor.max))}; ` +
          `heap growth (sampled every 20 ms) ${((peakHeap - baseHeap) / 1e6).toFixed(0)} MB`,
      );
      return [took, JSON.stringify(summary)] as const;
    };
    const [fullRows] = await measure("summary, full rows validated (issue 15)", async () => {
      const rows: VerificationResult[] = [];
      for (let offset = 0; ; offset += 2000) {
        const page = await storage.loadResults({ runId, limit: 2000, offset });
        rows.push(...page);
        if (page.length < 2000) break;
      }
      return summarizeResults(rows);
    });
    const [listed, listedSummary] = await measure(
      "summary, digests listed then summarised (before)",
      async () => {
        const rows: VerificationResult[] = [];
        for (let after: number | null = 0; after !== null; ) {
          const page = await storage.loadResultDigestPage({ runId, limit: 2000 }, after);
          for (const digest of page.digests) rows.push(digest);
          after = page.after;
          await yieldNow();
        }
        return summarizeResults(rows);
      },
    );
    const [paged, pagedSummary] = await measure(
      "summary, digests accumulated page by page (now)",
      async () => {
        const summary = createSummaryAccumulator();
        for (let after: number | null = 0; after !== null; ) {
          const page = await storage.loadResultDigestPage({ runId, limit: 2000 }, after);
          summary.add(page.digests);
          after = page.after;
          await yieldNow();
        }
        return summary.finish();
      },
    );
    console.log(
      `in-process summary: full rows / now = ${(fullRows / paged).toFixed(1)}×, listed digests / now = ${(listed / paged).toFixed(1)}×; ` +
        `same summary: ${listedSummary === pagedSummary}`,
    );
  } finally {
    await storage.close();
  }
}

/**
 * The results table's routes over HTTP (issue 16): the first page cold (a new cache entry: the same run under a
 * run-id list the cache has not seen, `run_id` repeated 1–6 times; it reads every stored table row) and warm,
 * the facets, and a filtered page (a new filter each time, so the selection is recomputed).
 */
async function resultsTable(get: (path: string) => Promise<Response>, runId: string) {
  const source = (copies: number) => Array.from({ length: copies }, () => `run_id=${runId}`).join("&");
  const page = async (query: string) => {
    const [took, res] = await timed(() => get(`/api/v2/results?${query}&page=1&page_size=100`));
    const body = (await res.json()) as { total: number };
    return [took, body.total] as const;
  };
  const cold: number[] = [];
  for (let copies = 1; copies <= 6; copies++) cold.push((await page(source(copies)))[0]);
  const warm: number[] = [];
  for (let i = 0; i < 20; i++) warm.push((await page(source(1)))[0]);
  const facets: number[] = [];
  for (let i = 0; i < 5; i++)
    facets.push((await timed(async () => (await get(`/api/v2/results/facets?${source(1)}`)).text()))[0]);
  const filtered: number[] = [];
  for (let i = 0; i < 20; i++)
    filtered.push((await page(`${source(1)}&question=q${i}&sort=execution_time&order=desc`))[0]);
  const stat = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return `${ms(percentile(sorted, 50))}/${ms(percentile(sorted, 95))}`;
  };
  console.log(
    `results table: first page p50/p95 cold ${stat(cold)} (n=${cold.length}), warm ${stat(warm)}; ` +
      `facets ${stat(facets)}; filtered page ${stat(filtered)} (target first page ≤ 1 s in the browser)`,
  );
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "karenina-bench-server-"));
  let server: Served | null = null;
  let llm: { child: ChildProcess; baseURL: string } | null = null;
  try {
    const { jobId, runId: jobRunId } = await populate(join(dir, "karenina.db"), RESULTS);
    server = await serve(dir);
    const { url, token } = server;
    const pid = server.child.pid as number;
    const headers = { authorization: `Bearer ${token}` };
    const get = (path: string) => fetch(`${url}${path}`, { headers });
    const post = (path: string, body: unknown) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await (await get("/api/health")).text();
    const idleKb = rssKb(pid);
    console.log(`server RSS idle (after start): ${mb(idleKb)}`);

    if (TASKS > 0) llm = await fanOut(url, headers, pid, idleKb);

    // Results pages (summary fields), every page by cursor.
    const pageTimes: number[] = [];
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `fields=summary&limit=100${cursor === null ? "" : `&cursor=${cursor}`}`;
      const [took, page] = await timed(async () => {
        const res = await get(`/api/v2/verifications/${jobId}/results?${query}`);
        return (await res.json()) as { items: { result_id: string }[]; next_cursor: string | null };
      });
      pageTimes.push(took);
      for (const item of page.items) ids.push(item.result_id);
      cursor = page.next_cursor;
    } while (cursor !== null);
    latencies(`results page (100 summary rows, all ${pageTimes.length} pages by cursor)`, pageTimes, {
      p95: 50,
    });
    console.log(`  rows walked: ${ids.length} (distinct ${new Set(ids).size})`);

    const rowTimes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const id = ids[Math.floor(Math.random() * ids.length)] as string;
      const [took] = await timed(async () =>
        (await get(`/api/v2/verifications/${jobId}/results/${id}`)).text(),
      );
      rowTimes.push(took);
    }
    latencies("one full row (random result ids)", rowTimes);
    await resultsTable(get, jobRunId);

    /** Runs `work` with /api/health probed and the server's RSS sampled; returns its time. */
    const underProbe = async <T>(label: string, work: () => Promise<T>) => {
      let peak = rssKb(pid);
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssKb(pid));
      }, 50);
      const probe = healthProbe(get);
      const [took, body] = await timed(work);
      clearInterval(sampler);
      latencies(`  /api/health answered during the ${label}`, await probe.stop());
      console.log(`  server RSS peak during the ${label}: ${mb(peak)}`);
      return [took, body] as const;
    };
    // Cold then stored, `--repeat` times: the stored summary is deleted (through a storage of the bench's own
    // on the server's file) before each cold request, which computes it and stores it for the next one.
    const own = await openStorage(join(dir, "karenina.db"));
    const askSummary = async () => {
      const res = await post("/api/v2/verifications/summary", { job_ids: [jobId] });
      return (await res.json()) as { result_count: number };
    };
    const coldTimes: number[] = [];
    const storedTimes: number[] = [];
    let summarized = 0;
    try {
      for (let i = 0; i < SUMMARIES; i++) {
        await own.deleteRunSummary(jobRunId);
        const [cold, body] = await underProbe("summary (cold: no stored summary)", askSummary);
        coldTimes.push(cold);
        summarized = body.result_count;
        if ((await own.loadRunSummary(jobRunId)) === null)
          console.log("  (the cold summary was not stored!)");
        const [stored] = await underProbe("summary (stored summary)", askSummary);
        storedTimes.push(stored);
      }
    } finally {
      await own.close();
    }
    const p50 = (samples: number[]) =>
      percentile(
        [...samples].sort((a, b) => a - b),
        50,
      ) / 1000;
    console.log(
      `summary by reference (stored summary) of ${summarized} results: p50 ${p50(storedTimes).toFixed(3)} s over ${SUMMARIES} ` +
        `(/ target 1 s = ${p50(storedTimes).toFixed(3)})`,
    );
    console.log(
      `summary by reference (cold: no stored summary) of ${summarized} results: p50 ${p50(coldTimes).toFixed(2)} s over ${SUMMARIES} ` +
        `(/ target 1 s = ${p50(coldTimes).toFixed(2)}; before: 18 s with full rows (issue 15), 6.5 s with digests listed then summarised)`,
    );
    for (let i = 0; i < SUMMARIES; i++) {
      const [took, body] = await underProbe("comparison", async () => {
        const res = await post("/api/v2/verifications/compare", { run_names: ["bench-100k", "bench-100k"] });
        return (await res.json()) as { comparison: { summary: { matched: number } } };
      });
      console.log(
        `comparison by reference, ${RESULTS} × ${RESULTS} rows (matched ${body.comparison.summary.matched}): ` +
          `${(took / 1000).toFixed(2)} s (before: 129 s with full rows (issue 15), 7.8 s with digests listed)`,
      );
    }
    if (!values["skip-in-process"]) await inProcessSummaries(join(dir, "karenina.db"), jobRunId);
  } finally {
    server?.child.kill("SIGTERM");
    llm?.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
