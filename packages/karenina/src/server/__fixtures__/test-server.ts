/**
 * The real server on 127.0.0.1 for tests: a temporary work directory, a SQLite file in it (or the database a
 * test names), a random port. Every server test talks to it over HTTP (and WebSocket) as a client would.
 * @example
 * const server = await startTestServer();
 * const res = await fetch(`${server.url}/api/health`);
 * await server.close();
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerDeps } from "../core/index.js";
import { type DistributedServing, startServer } from "../start-server.js";

export interface TestServerOptions {
  /** The environment the server reads keys and defaults from (default: none, so tests never see real keys). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The database (default: `karenina.db` in the work directory). */
  readonly storageUrl?: string;
  /** The work directory (default: a new temporary one). */
  readonly workDir?: string;
  /** Require the token on every `/api` and `/ws` route, as when bound beyond loopback (default false). */
  readonly requireToken?: boolean;
  /** Browser origins allowed besides the server's own (CORS and the same-origin check). */
  readonly allowedOrigins?: readonly string[];
  /** The built web app's folder (default: the real `packages/web/dist`, usually absent in tests). */
  readonly webDir?: string;
  /** Largest request body read (default 16 MiB). */
  readonly maxBodyBytes?: number;
  /** The port (default 0: a free one); a restarted server takes its predecessor's, so pages keep their origin. */
  readonly port?: number;
  /** Run verification jobs on a fleet of workers (`serve --distributed`; `storageUrl` must be PostgreSQL). */
  readonly distributed?: DistributedServing;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** The access token: send it as `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly deps: ServerDeps;
  /** Stops listening (waiting for running jobs) and closes the database. */
  close(): Promise<void>;
}

/** Starts the real server on 127.0.0.1, port 0. Close it in `afterAll`/`afterEach`. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const workDir = options.workDir ?? (await mkdtemp(join(tmpdir(), "karenina-server-")));
  const server = await startServer({
    host: "127.0.0.1",
    port: options.port ?? 0,
    workDir,
    storageUrl: options.storageUrl ?? join(workDir, "karenina.db"),
    env: options.env ?? {},
    ...(options.requireToken === undefined ? {} : { requireToken: options.requireToken }),
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    ...(options.webDir === undefined ? {} : { webDir: options.webDir }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.distributed === undefined ? {} : { distributed: options.distributed }),
  });
  return { url: server.url, token: server.token, deps: server.deps, close: () => server.close() };
}

/** Headers carrying the token (and JSON content type when `json` is set). */
export function authHeaders(token: string, json = false): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...(json ? { "content-type": "application/json" } : {}) };
}
