import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import {
  DefaultsFile,
  DefaultsStatusSchema,
  EnvFile,
  EnvVariableSchema,
  ModelDefaultsSchema,
} from "../config/index.js";
import { ApiError, errorResponses, jsonContent, type RouteGroup, type ServerEnv } from "../core/index.js";
import { tokenGuard } from "../security/index.js";

const TAGS = ["config"];
const ENV_VARS = "/api/v2/config/env-vars";
const ENV_FILE = "/api/v2/config/env-file";
const DEFAULTS = "/api/v2/config/defaults";
/** Changes to `.env` reach the server at its next start (for every write route alike: spec 07 §1.8 fix). */
const RESTART_NOTE = "restart `karenina serve` for the server to use it";
/** Routes that reveal raw secrets: the token is required on them whatever the binding (spec 07 §2.5). */
const WITH_TOKEN = [{ accessToken: [] }];

const VariablesSchema = z
  .record(z.string(), z.string())
  .describe("Every variable of the work directory's .env (not the server's environment)")
  .meta({ id: "EnvVariables" });
const MessageSchema = z.object({ message: z.string() }).meta({ id: "Message" });
const BulkSchema = z.object({ variables: z.array(EnvVariableSchema).min(1).max(50) });
const BulkAnswerSchema = MessageSchema.extend({ updated: z.array(z.string()) });
const EnvFileSchema = z.object({ content: z.string().max(50_000) }).meta({ id: "EnvFileContent" });
const KeyParamsSchema = z.object({ key: EnvVariableSchema.shape.key });
const DefaultsAnswerSchema = MessageSchema.extend({ config: ModelDefaultsSchema });

const listMasked = createRoute({
  method: "get",
  path: ENV_VARS,
  tags: TAGS,
  summary:
    "The .env variables, secrets masked (…_API_KEY, …_TOKEN, …_SECRET, …_PASSWORD: all but the last 4 characters)",
  responses: { 200: jsonContent(VariablesSchema, "The variables, masked"), ...errorResponses(401, 403) },
});
const listUnmasked = createRoute({
  method: "get",
  path: `${ENV_VARS}/unmasked`,
  tags: TAGS,
  summary: "The .env variables as written (the access token is always required)",
  security: WITH_TOKEN,
  responses: { 200: jsonContent(VariablesSchema, "The variables, raw"), ...errorResponses(401, 403) },
});
const setOne = createRoute({
  method: "put",
  path: ENV_VARS,
  tags: TAGS,
  summary: "Set one .env variable (written 0600, previous file kept as .env.bak)",
  request: { body: jsonContent(EnvVariableSchema, "The variable") },
  responses: { 200: jsonContent(MessageSchema, "Written"), ...errorResponses(401, 403, 413, 422, 500) },
});
const setMany = createRoute({
  method: "put",
  path: `${ENV_VARS}/bulk`,
  tags: TAGS,
  summary: "Set up to 50 .env variables in one write: all of them or none",
  request: { body: jsonContent(BulkSchema, "The variables") },
  responses: { 200: jsonContent(BulkAnswerSchema, "Written"), ...errorResponses(401, 403, 413, 422, 500) },
});
const removeOne = createRoute({
  method: "delete",
  path: `${ENV_VARS}/{key}`,
  tags: TAGS,
  summary: "Remove a .env variable",
  request: { params: KeyParamsSchema },
  responses: { 200: jsonContent(MessageSchema, "Removed"), ...errorResponses(401, 403, 404, 422, 500) },
});
const readEnvFile = createRoute({
  method: "get",
  path: ENV_FILE,
  tags: TAGS,
  summary: "The raw .env text (the access token is always required: it holds the keys)",
  security: WITH_TOKEN,
  responses: { 200: jsonContent(EnvFileSchema, "The file"), ...errorResponses(401, 403) },
});
const writeEnvFile = createRoute({
  method: "put",
  path: ENV_FILE,
  tags: TAGS,
  summary: "Replace the .env text (written 0600, previous file kept as .env.bak)",
  request: { body: jsonContent(EnvFileSchema, "The new text, at most 50,000 characters") },
  responses: { 200: jsonContent(MessageSchema, "Written"), ...errorResponses(401, 403, 413, 422, 500) },
});
const readDefaults = createRoute({
  method: "get",
  path: DEFAULTS,
  tags: TAGS,
  summary: "The default model settings (defaults.json, or the fallback)",
  responses: { 200: jsonContent(ModelDefaultsSchema, "The defaults in use"), ...errorResponses(401) },
});
const writeDefaults = createRoute({
  method: "put",
  path: DEFAULTS,
  tags: TAGS,
  summary: "Save the default model settings (claude_* interfaces force provider anthropic)",
  request: { body: jsonContent(ModelDefaultsSchema, "The defaults") },
  responses: { 200: jsonContent(DefaultsAnswerSchema, "Saved"), ...errorResponses(401, 403, 422, 500) },
});
const defaultsStatus = createRoute({
  method: "get",
  path: `${DEFAULTS}/status`,
  tags: TAGS,
  summary: "Whether defaults.json exists and is valid",
  responses: { 200: jsonContent(DefaultsStatusSchema, "The file's status"), ...errorResponses(401) },
});
const resetDefaults = createRoute({
  method: "post",
  path: `${DEFAULTS}/reset`,
  tags: TAGS,
  summary: "Remove defaults.json (kept as defaults.json.bak), so the fallback applies",
  responses: { 200: jsonContent(MessageSchema, "Reset"), ...errorResponses(401, 403, 500) },
});

/** The token guard on GET only (the raw `.env` read; its PUT follows the server's policy). */
function onGet(guard: MiddlewareHandler): MiddlewareHandler {
  return async (c, next) => (c.req.method === "GET" ? guard(c, next) : next());
}

const envFileOf = (c: Context<ServerEnv>) => new EnvFile(c.get("deps").workDir);
const defaultsFileOf = (c: Context<ServerEnv>) => new DefaultsFile(c.get("deps").workDir);

/** `/api/v2/config/...`: `.env` variables and file, and `defaults.json` (spec 07 §2.2). */
export const configRoutes: RouteGroup = (app, deps) => {
  const guard = tokenGuard(deps.token);
  app.use(`${ENV_VARS}/unmasked`, guard);
  app.use(ENV_FILE, onGet(guard));

  app.openapi(listMasked, async (c) => c.json(await envFileOf(c).maskedVariables(), 200));
  app.openapi(listUnmasked, async (c) => c.json(await envFileOf(c).variables(), 200));
  app.openapi(setOne, async (c) => {
    const { key, value } = c.req.valid("json");
    await envFileOf(c).change(new Map([[key, value]]));
    return c.json({ message: `${key} written to .env; ${RESTART_NOTE}` }, 200);
  });
  app.openapi(setMany, async (c) => {
    const { variables } = c.req.valid("json");
    await envFileOf(c).change(new Map(variables.map(({ key, value }) => [key, value])));
    const updated = [...new Set(variables.map(({ key }) => key))];
    return c.json(
      { message: `${updated.length} variable(s) written to .env; ${RESTART_NOTE}`, updated },
      200,
    );
  });
  app.openapi(removeOne, async (c) => {
    const { key } = c.req.valid("param");
    const file = envFileOf(c);
    if (!Object.hasOwn(await file.variables(), key)) throw ApiError.notFound(`variable ${key} in .env`);
    await file.change(new Map([[key, null]]));
    return c.json({ message: `${key} removed from .env; ${RESTART_NOTE}` }, 200);
  });
  app.openapi(readEnvFile, async (c) => c.json({ content: await envFileOf(c).text() }, 200));
  app.openapi(writeEnvFile, async (c) => {
    await envFileOf(c).replace(c.req.valid("json").content);
    return c.json({ message: `.env replaced (previous kept as .env.bak); ${RESTART_NOTE}` }, 200);
  });
  app.openapi(readDefaults, async (c) => c.json(await defaultsFileOf(c).current(), 200));
  app.openapi(writeDefaults, async (c) => {
    const defaults = c.req.valid("json");
    await defaultsFileOf(c).write(defaults);
    return c.json({ message: "defaults.json saved", config: defaults }, 200);
  });
  app.openapi(defaultsStatus, async (c) => c.json(await defaultsFileOf(c).status(), 200));
  app.openapi(resetDefaults, async (c) => {
    await defaultsFileOf(c).reset();
    return c.json(
      { message: "defaults.json removed (kept as defaults.json.bak); the fallback defaults apply" },
      200,
    );
  });
};
