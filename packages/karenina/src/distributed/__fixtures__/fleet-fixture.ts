/**
 * A fleet for tests: `karenina worker` processes started as a user starts them (node + tsx, the CLI's main), their
 * output kept line by line, and the scripted OpenAI-compatible server's models answering the drug benchmark
 * (hand-written test data, slowed down so that tasks are in flight when a test acts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { ScriptRule } from "../../test-support/openai-server/index.js";

const MAIN = fileURLToPath(new URL("../../cli/main.ts", import.meta.url));

/** A child process's stderr, kept line by line. */
export interface WatchedLines {
  readonly lines: string[];
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /**
   * Resolves with the first line (printed so far or later) matching `pattern`; rejects when the process ends
   * first or after `timeoutMs`.
   */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** Keeps what `child` prints on stderr, line by line (`name` names it in errors). */
export function watchLines(child: ChildProcess, name: string): WatchedLines {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on("line", (line) => {
    lines.push(line);
    for (const waiter of [...waiters])
      if (waiter.pattern.test(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
  });
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal)),
  );
  return {
    lines,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const fail = (why: string) => reject(new Error(`${name} ${why} ${pattern}:\n${lines.join("\n")}`));
        const timer = setTimeout(() => fail("printed no line matching"), timeoutMs);
        void exited.then((code) => {
          clearTimeout(timer);
          fail(`exited (${String(code)}) before printing`);
        });
        waiters.push({
          pattern,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}

/** A worker process and what it printed. */
export interface WorkerProcess extends WatchedLines {
  readonly name: string;
  readonly child: ChildProcess;
}

/** Starts `karenina worker --db URL --name NAME ...extra`. */
export function startWorker(url: string, name: string, ...extra: string[]): WorkerProcess {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", MAIN, "worker", "--db", url, "--name", name, ...extra],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
  );
  return { name, child, ...watchLines(child, `worker ${name}`) };
}

/** Stops workers (SIGTERM: they finish the jobs in hand) and waits for them to exit. */
export async function stopWorkers(workers: readonly WorkerProcess[]): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill("SIGTERM");
  await Promise.all(
    workers.map((worker) =>
      Promise.race([worker.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]).then(() => {
        if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
      }),
    ),
  );
}

/**
 * Hand-written test data: "answerer" answers "Venetoclax." after `answerMs`, "judge" and "judge2" parse it as
 * venetoclax after `judgeMs` and `judge2Ms`.
 */
export function slowDrugReplies(answerMs: number, judgeMs = 50, judge2Ms = judgeMs): ScriptRule[] {
  return [
    { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: answerMs }, repeat: true },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" }, delayMs: judgeMs }, repeat: true },
    { match: { model: "judge2" }, reply: { json: { drug: "venetoclax" }, delayMs: judge2Ms }, repeat: true },
  ];
}

/** `verify FILE --distributed` with "answerer" and the judges "judge" and "judge2" at `baseURL`. */
export function distributedVerifyArgs(baseURL: string, file: string, url: string, ...extra: string[]): string[] {
  return [
    "verify",
    file,
    "-a",
    `openai_endpoint:answerer@${baseURL}`,
    "-p",
    `openai_endpoint:judge@${baseURL}`,
    "-p",
    `openai_endpoint:judge2@${baseURL}`,
    "--distributed",
    "--db",
    url,
    "--no-progress",
    ...extra,
  ];
}
