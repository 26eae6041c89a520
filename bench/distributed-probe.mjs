// Preloaded (`--import`) by bench/distributed.ts into every karenina process it measures. Counts the queries
// sent by any node-postgres client of the process (pg.Pool and BullMQ's PostgreSQL backend both go through
// pg.Client.prototype.query) and appends {pid, label, cpuMs, queries, byStatement} to $KARENINA_BENCH_PROBE_DIR/<pid>.jsonl
// on SIGUSR2 ("snapshot") and at exit ("exit"). cpuMs is process.cpuUsage() (user + system, every thread of
// the process; child processes such as the Python sandbox are not in it). Plain JavaScript so that the built
// CLI runs without the tsx loader.
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const dir = process.env.KARENINA_BENCH_PROBE_DIR;
if (dir) {
  const pg = createRequire(import.meta.url)("pg");
  let queries = 0;
  /** Queries per statement (its text's first 80 characters, whitespace collapsed). */
  const byStatement = {};
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    queries++;
    const [first] = args;
    const text = typeof first === "string" ? first : (first?.text ?? first?.name ?? "?");
    const key = String(text).replace(/\s+/g, " ").trim().slice(0, 80);
    byStatement[key] = (byStatement[key] ?? 0) + 1;
    return query.apply(this, args);
  };
  const write = (label) => {
    const { user, system } = process.cpuUsage();
    const line = { pid: process.pid, label, cpuMs: (user + system) / 1000, queries, byStatement };
    appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
  };
  process.on("SIGUSR2", () => write("snapshot"));
  process.on("exit", () => write("exit"));
}
