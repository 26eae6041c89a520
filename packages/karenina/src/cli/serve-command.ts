import { spawn } from "node:child_process";
import { setFlagsFromString } from "node:v8";
import { type Command, InvalidArgumentError } from "commander";
import { DEFAULT_QUEUE, isPostgresUrl } from "../distributed/index.js";
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type DistributedServing,
  type RunningServer,
  startServer,
} from "../server/start-server.js";
import { type CliIo, CliUsageError } from "./cli-io.js";

interface ServeOptions {
  db?: string;
  host: string;
  port: number;
  open?: boolean;
  dir?: string;
  allowOrigin: string[];
  distributed?: boolean;
  queue?: string;
  sharedCache?: boolean;
}

/**
 * `--distributed` and its options as the server's, refused (before anything starts) without a PostgreSQL
 * `--db` every worker reaches, or when given without `--distributed`.
 */
export function distributedServing(options: ServeOptions): DistributedServing | undefined {
  if (!options.distributed) {
    if (options.queue !== undefined) throw new CliUsageError("--queue goes with --distributed");
    if (options.sharedCache) throw new CliUsageError("--shared-cache goes with --distributed");
    return undefined;
  }
  if (options.db === undefined || !isPostgresUrl(options.db))
    throw new CliUsageError(
      `--distributed: needs --db postgres://user:pass@host:5432/db, the database the workers share${options.db === undefined ? "" : ` (found ${JSON.stringify(options.db)})`}`,
    );
  return {
    ...(options.queue === undefined ? {} : { queue: options.queue }),
    sharedCache: options.sharedCache === true,
  };
}

/** A `--port` value: 0 to 65535. */
export function portNumber(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError("a port number from 0 to 65535 (0 picks a free one)");
  }
  return port;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** What `serve` prints once listening: where, the token, and what the binding means. */
export function serveBanner(server: RunningServer): string {
  const page = `${server.url}/?token=${server.token}`;
  const lines = [
    `karenina serve: listening on ${server.url}`,
    `  open:          ${page}`,
    `  access token:  ${server.token}`,
    server.policy.requireToken
      ? "  the token is required on every /api and /ws request (send: Authorization: Bearer <token>)"
      : "  bound to this machine only: the token is required only to read raw API keys",
    `  database:      ${server.deps.storage.database}`,
    `  work folder:   ${server.deps.workDir}`,
    ...(server.deps.fleet == null
      ? []
      : [
          `  verification jobs run on the fleet: karenina worker --db ${server.deps.fleet.fleet.database}${server.deps.fleet.queue === DEFAULT_QUEUE ? "" : ` --queue ${server.deps.fleet.queue}`}`,
        ]),
    "Press Ctrl+C to stop (running jobs are waited for).",
  ];
  return `${lines.join("\n")}\n`;
}

/** Opens `url` in the default browser, best effort (a missing opener is not an error). */
export function openBrowser(url: string): void {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  const child = spawn(command, args as string[], { stdio: "ignore", detached: true });
  child.on("error", () => undefined);
  child.unref();
}

/** Resolves on the first SIGINT or SIGTERM. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** `karenina serve`: the REST + live-progress server and the web app (spec 07 §2). */
export function registerServeCommand(program: Command, io: CliIo, env: NodeJS.ProcessEnv): void {
  program
    .command("serve")
    .description("Serve the web app and its REST + live-progress API (127.0.0.1:8080 by default)")
    .option("--db <url>", "the database (SQLite file or postgres:// URL), as the other commands", undefined)
    .option(
      "--host <host>",
      "address to listen on; anything but loopback requires the token everywhere",
      DEFAULT_HOST,
    )
    .option("--port <port>", "port to listen on (0 picks a free one)", portNumber, DEFAULT_PORT)
    .option("--open", "open the web app in the default browser once listening")
    .option(
      "--dir <dir>",
      "work folder for presets, MCP presets, .env, defaults.json and uploads (default: here)",
    )
    .option(
      "--allow-origin <origin>",
      "a browser origin allowed to call the API (CORS and the same-origin check); repeatable",
      collect,
      [],
    )
    .option(
      "--distributed",
      "run verification jobs on karenina worker processes (any number of machines) sharing --db postgres://…",
    )
    .option("--queue <name>", "with --distributed: the queue the workers take jobs from (default: karenina)")
    .option("--shared-cache", "with --distributed: workers share LLM responses in a table of the database")
    .addHelpText(
      "after",
      `
Examples:
  karenina serve                              # http://127.0.0.1:8080, results in karenina.db
  karenina serve --db results.db --open
  karenina serve --host 0.0.0.0 --port 9000   # reachable from the network: every request needs the token
  karenina serve --db postgres://karenina:secret@db.lab/karenina --distributed   # jobs run by karenina worker

A random access token is printed at start. Mutating requests from browsers must come from the server's own
pages (Origin / Sec-Fetch-Site), unless --allow-origin names the page's origin. Stop with Ctrl+C: the server
stops accepting requests and waits for running jobs.`,
    )
    .action(async (options: ServeOptions) => {
      const distributed = distributedServing(options);
      keepHeapClose();
      const server = await startServer({
        ...(distributed === undefined ? {} : { distributed }),
        host: options.host,
        port: options.port,
        env,
        allowedOrigins: options.allowOrigin,
        ...(options.db === undefined ? {} : { storageUrl: options.db }),
        ...(options.dir === undefined ? {} : { workDir: options.dir }),
      });
      io.out(serveBanner(server));
      if (options.open) openBrowser(`${server.url}/?token=${server.token}`);
      const signal = await stopSignal();
      io.err(`${signal}: stopping (waiting for running jobs)…\n`);
      await server.close();
      io.err("stopped\n");
    });
}

/**
 * A long-lived server collects garbage sooner: V8 otherwise lets the heap grow to about four times its live data
 * before a full collection (a 2,000-task job peaked at 285 MB with 49 MB live; with 20 % growth, 184-191 MB for
 * about 6 % more job time; `npm run bench:server -- --built --results 0`). A soft GC heuristic, read at every
 * collection, so it cannot run the server out of memory; `--max-old-space-size` would be a hard cap.
 */
export function keepHeapClose(): void {
  setFlagsFromString("--heap-growing-percent=20");
}
