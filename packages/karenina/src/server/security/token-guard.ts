import type { Context, MiddlewareHandler } from "hono";
import { ApiError, errorResponse } from "../core/index.js";
import { presentedToken, tokenMatches } from "./access-token.js";

/** The 401 a request without the right token gets. */
function missingToken(c: Context): Response {
  const presented = presentedToken(c) !== undefined;
  return errorResponse(
    c,
    new ApiError(
      401,
      "unauthorized",
      `${c.req.method} ${c.req.path} needs the access token ${presented ? "(the one sent is wrong)" : "(none was sent)"}: send "Authorization: Bearer <token>" with the token \`karenina serve\` printed at start`,
    ),
  );
}

/** Requires the token on every request it guards (mount on `/api/*` and `/ws/*` when bound beyond loopback). */
export function tokenGuard(token: string): MiddlewareHandler {
  return async (c, next) => (tokenMatches(presentedToken(c), token) ? next() : missingToken(c));
}

/** Path prefixes the token guards when it is required. */
export const TOKEN_GUARDED_PATHS = ["/api", "/ws"] as const;

/** Whether `path` is under `/api` or `/ws` (never answered by the web app). */
export function isServerPath(path: string): boolean {
  return TOKEN_GUARDED_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
