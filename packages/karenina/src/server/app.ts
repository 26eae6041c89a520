import { createNodeWebSocket, type NodeWebSocket } from "@hono/node-ws";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  ApiError,
  errorResponse,
  invalidRequest,
  type ServerDeps,
  type ServerEnv,
  type ServerHooks,
} from "./core/index.js";
import { ROUTE_GROUPS } from "./routes/index.js";
import {
  type AccessPolicy,
  accessPolicyFor,
  DEFAULT_MAX_BODY_BYTES,
  installSecurity,
} from "./security/index.js";
import { defaultWebDir, mountWebApp } from "./web-app/index.js";

/** How an error names the part of a request that failed its schema. */
const REQUEST_PART: Record<string, string> = {
  json: "body",
  form: "body",
  param: "path",
  query: "query",
  header: "header",
};

/** The part of the request a schema read, to show what was found in an error (already parsed by Hono). */
async function requestPart(c: Context, target: string): Promise<unknown> {
  if (target === "query") return c.req.query();
  if (target === "param") return c.req.param();
  if (target === "header") return c.req.header();
  if (target === "json") return c.req.json().catch(() => undefined);
  return undefined;
}

/** The path of the OpenAPI document. */
export const OPENAPI_PATH = "/api/openapi.json";

/** How the app guards itself and where its pages are (defaults: a loopback server's policy, the real web app). */
export interface AppOptions {
  /** Default: as bound to 127.0.0.1 (no token except where always required, Host must be a loopback name). */
  readonly policy?: AccessPolicy;
  /** Default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /** The built web app's folder (default `packages/web/dist`). */
  readonly webDir?: string;
}

/** The app and what the listening server must do with it. */
export interface BuiltServer {
  readonly app: OpenAPIHono<ServerEnv>;
  /** Attaches the `/ws/...` routes to the listening Node server. */
  readonly injectWebSocket: NodeWebSocket["injectWebSocket"];
  /** Runs the route groups' shutdown hooks (after the server stops accepting requests). */
  shutdown(): Promise<void>;
}

function newApp(): OpenAPIHono<ServerEnv> {
  return new OpenAPIHono<ServerEnv>({
    defaultHook: async (result, c) => {
      if (result.success) return;
      const where = REQUEST_PART[result.target] ?? result.target;
      return errorResponse(c, invalidRequest(where, result.error, await requestPart(c, result.target)));
    },
  });
}

/**
 * The server: security guards, every route group of `routes/`, the OpenAPI document at {@link OPENAPI_PATH},
 * the web app, the one error envelope. No listening here (see `startServer`).
 */
export function buildServer(deps: ServerDeps, options: AppOptions = {}): BuiltServer {
  const app = newApp();
  const policy = options.policy ?? accessPolicyFor("127.0.0.1");
  installSecurity(app, {
    policy,
    token: deps.token,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  });
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  const sockets = createNodeWebSocket({ app });
  const shutdownHooks: (() => Promise<void>)[] = [];
  const hooks: ServerHooks = {
    upgradeWebSocket: sockets.upgradeWebSocket,
    onShutdown: (hook) => {
      shutdownHooks.push(hook);
    },
  };
  for (const group of ROUTE_GROUPS) group(app, deps, hooks);
  app.openAPIRegistry.registerComponent("securitySchemes", "accessToken", {
    type: "http",
    scheme: "bearer",
    description: "The token `karenina serve` prints at start",
  });
  app.doc31(OPENAPI_PATH, { openapi: "3.1.0", info: { title: "karenina", version: "2" } });
  mountWebApp(app, {
    webDir: options.webDir ?? defaultWebDir(),
    token: deps.token,
    tokenForEveryPage: !policy.requireToken,
  });
  app.notFound((c) => errorResponse(c, ApiError.notFound(`${c.req.method} ${c.req.path}`)));
  app.onError((error, c) => errorResponse(c, apiErrorOf(error)));
  return {
    app,
    injectWebSocket: sockets.injectWebSocket,
    shutdown: async () => {
      for (const hook of shutdownHooks) await hook().catch(() => undefined);
      for (const client of sockets.wss.clients) client.close(1001, "server shutting down");
    },
  };
}

/**
 * The envelope's error for anything a route threw: an {@link ApiError} as it is; Hono's own `HTTPException`
 * (a malformed JSON body, thrown by the validator before the route runs) with its status (a client error, not a
 * 500); anything else 500.
 */
function apiErrorOf(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    const malformedJson = /malformed json/i.test(error.message);
    return new ApiError(
      error.status,
      malformedJson ? "malformed_json" : "bad_request",
      malformedJson
        ? "body: not valid JSON; send a JSON document (Content-Type: application/json)"
        : error.message,
    );
  }
  return new ApiError(500, "internal", error instanceof Error ? error.message : String(error));
}

/** The server's app alone (for `app.request()` in tests and tools); see {@link buildServer}. */
export function createServerApp(deps: ServerDeps, options: AppOptions = {}): OpenAPIHono<ServerEnv> {
  return buildServer(deps, options).app;
}
