import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { DEFAULT_QUEUE, type Fleet, openFleet } from "../distributed/index.js";
import { DEFAULT_DB_FILE, openStorage } from "../storage/index.js";
import { buildServer } from "./app.js";
import type { ServerDeps, ServerFleet } from "./core/index.js";
import { type AccessPolicy, accessPolicyFor, newAccessToken } from "./security/index.js";

/** Where `karenina serve` listens by default: this machine only (spec 07 §2.5). */
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_PORT = 8080;

export interface StartServerOptions {
  /** Default {@link DEFAULT_HOST}. Anything but a loopback address makes the token required everywhere. */
  readonly host?: string;
  /** Default {@link DEFAULT_PORT}; 0 picks a free port. */
  readonly port?: number;
  /** The database (URL or SQLite file), default `karenina.db` in the current directory, as the CLI. */
  readonly storageUrl?: string;
  /** The folder for presets, MCP presets, `.env` and uploads (default: the current one). */
  readonly workDir?: string;
  /** Where keys and defaults are read (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The access token (default: a new random one). */
  readonly token?: string;
  /** Override the token rule (default: required unless bound to loopback). */
  readonly requireToken?: boolean;
  /** Browser origins allowed besides the server's own (CORS off when empty, the default). */
  readonly allowedOrigins?: readonly string[];
  /** The built web app's folder (default `packages/web/dist`). */
  readonly webDir?: string;
  /** Largest request body read (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Run verification jobs on a fleet of `karenina worker`s sharing the database (`serve --distributed`), which
   * must be PostgreSQL; default: in this process.
   */
  readonly distributed?: DistributedServing;
}

/** How a `--distributed` server hands its verification jobs to the fleet. */
export interface DistributedServing {
  /** The queue the workers take jobs from (default `karenina`). */
  readonly queue?: string;
  /** Workers share LLM responses in a table of the database (default false). */
  readonly sharedCache?: boolean;
  /** Between two looks at a followed run's results (default 500 ms). */
  readonly pollMs?: number;
}

/** A listening server. */
export interface RunningServer {
  /** `http://<host>:<port>` as a browser opens it (IPv6 hosts in brackets). */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly token: string;
  readonly policy: AccessPolicy;
  readonly deps: ServerDeps;
  /**
   * Stops accepting requests, waits for what the route groups wait for at shutdown (running jobs), ends open
   * connections and closes the database. Safe to call twice.
   */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Opens the database, builds the app and listens; resolves once the port is bound. */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  const workDir = resolve(options.workDir ?? process.cwd());
  const storageUrl = options.storageUrl ?? DEFAULT_DB_FILE;
  // A fleet needs PostgreSQL: refused (FleetDatabaseError) before the database is opened.
  const fleet = options.distributed === undefined ? null : await openFleet(storageUrl);
  const storage = await openStorage(storageUrl).catch(async (error: unknown) => {
    await fleet?.close();
    throw error;
  });
  const token = options.token ?? newAccessToken();
  const policy = accessPolicyFor(host, {
    ...(options.requireToken === undefined ? {} : { requireToken: options.requireToken }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
  });
  const deps: ServerDeps = {
    storage,
    storageUrl,
    workDir,
    token,
    env: options.env ?? process.env,
    fleet: fleet === null ? null : serverFleet(fleet, options.distributed ?? {}),
  };
  const built = buildServer(deps, {
    policy,
    ...(options.webDir === undefined ? {} : { webDir: options.webDir }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
  });
  const { server, port } = await listen(built.app.fetch, host, options.port ?? DEFAULT_PORT).catch(
    async (error: unknown) => {
      await built.shutdown();
      await fleet?.close();
      await storage.close();
      throw error;
    },
  );
  built.injectWebSocket(server);
  let closing: Promise<void> | undefined;
  const close = async () => {
    server.close();
    server.closeIdleConnections();
    await built.shutdown();
    server.closeAllConnections();
    await fleet?.close();
    await storage.close();
  };
  return {
    url: `http://${urlHost(host)}:${port}`,
    host,
    port,
    token,
    policy,
    deps,
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}

function serverFleet(fleet: Fleet, options: DistributedServing): ServerFleet {
  return {
    fleet,
    queue: options.queue ?? DEFAULT_QUEUE,
    sharedCache: options.sharedCache === true,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  };
}

type NodeServer = ReturnType<typeof serve> & import("node:http").Server;

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  hostname: string,
  port: number,
): Promise<{ server: NodeServer; port: number }> {
  return new Promise((resolvePromise, reject) => {
    const server = serve({ fetch, hostname, port }, (info: AddressInfo) => {
      server.off("error", reject);
      resolvePromise({ server: server as NodeServer, port: info.port });
    });
    server.once("error", reject);
  });
}
