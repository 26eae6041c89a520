import type { NodeWebSocket } from "@hono/node-ws";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Fleet } from "../../distributed/index.js";
import type { Storage } from "../../storage/index.js";

/** Where a `--distributed` server's verification jobs run: a fleet of `karenina worker`s on its PostgreSQL. */
export interface ServerFleet {
  readonly fleet: Fleet;
  /** The queue the jobs' answer groups are enqueued on. */
  readonly queue: string;
  /** Workers share LLM responses in a table of the database (`--shared-cache`). */
  readonly sharedCache: boolean;
  /** Between two looks at a followed run's results (default 500 ms). */
  readonly pollMs?: number;
}

/**
 * What the routes work on, made once by `startServer` and handed to every route group. Routes stay thin: they
 * validate, call the library (`benchmark/`, `pipeline/`, `storage/`, `authoring/`) and shape the answer.
 */
export interface ServerDeps {
  /** The database every route uses unless a request names another (`karenina serve --db`). */
  readonly storage: Storage;
  readonly storageUrl: string;
  /** The folder the server works in (`--dir`, default the current one): presets, MCP presets, `.env`, uploads. */
  readonly workDir: string;
  /** The access token printed at start (spec 07 §2.5). */
  readonly token: string;
  /** The environment the server reads keys and defaults from (never the process's directly, so tests can pass one). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Set when verification jobs run on a fleet of workers instead of in this process (`--distributed`). */
  readonly fleet?: ServerFleet | null;
}

/** Hono's environment for the server's app. */
export interface ServerEnv {
  Variables: {
    deps: ServerDeps;
  };
}

/** The app every route group registers on. */
export type ServerApp = OpenAPIHono<ServerEnv>;

/** What the running server offers a route group besides the app: WebSockets and the shutdown sequence. */
export interface ServerHooks {
  /** `@hono/node-ws`'s upgrade middleware for `/ws/...` routes (attached to the listening server by `startServer`). */
  readonly upgradeWebSocket: NodeWebSocket["upgradeWebSocket"];
  /**
   * Runs `hook` at shutdown, after the server stops accepting requests and before the database closes (e.g. wait
   * for running jobs, or mark them interrupted). Hooks run in registration order; one failing does not stop the others.
   */
  onShutdown(hook: () => Promise<void>): void;
}

/** A route group: registers its routes on the app. One module per group under `server/routes/`. */
export type RouteGroup = (app: ServerApp, deps: ServerDeps, hooks: ServerHooks) => void;
