import type { MiddlewareHandler } from "hono";
import { ApiError, errorResponse } from "../core/index.js";
import type { AccessPolicy } from "./access-policy.js";
import { bearerToken, tokenMatches } from "./access-token.js";
import { requestedUrl } from "./request-origin.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a request changes something, or opens a WebSocket (which browsers open cross-site without CORS). */
function needsSameOrigin(method: string, upgrade: string | undefined): boolean {
  return !SAFE_METHODS.has(method) || upgrade?.toLowerCase() === "websocket";
}

/** Why a browser request comes from a foreign site, or undefined when it does not. */
function foreignOrigin(
  origin: string | undefined,
  fetchSite: string | undefined,
  ownOrigin: string,
  policy: AccessPolicy,
): string | undefined {
  if (origin !== undefined && origin !== ownOrigin && !policy.allowedOrigins.includes(origin)) {
    return `Origin "${origin}"`;
  }
  const crossSite = fetchSite === "cross-site" || fetchSite === "same-site";
  if (
    crossSite &&
    (origin === undefined || origin !== ownOrigin) &&
    !policy.allowedOrigins.includes(origin ?? "")
  ) {
    return `Sec-Fetch-Site "${fetchSite}"`;
  }
  return undefined;
}

/**
 * The same-origin check (spec 07 §2.5, instead of CSRF tokens): a mutating request or a WebSocket upgrade that
 * a browser sends from another site is refused with 403. Browsers always send `Origin` or `Sec-Fetch-Site` on
 * those, and a page cannot forge them. Clients with the bearer token are exempt (a foreign page cannot set the
 * header without CORS, which is off unless configured), and so are clients sending neither header (not browsers).
 */
export function originGuard(policy: AccessPolicy, token: string): MiddlewareHandler {
  return async (c, next) => {
    if (!needsSameOrigin(c.req.method, c.req.header("upgrade"))) return next();
    if (tokenMatches(bearerToken(c), token)) return next();
    const ownOrigin = requestedUrl(c)?.origin ?? "(unknown: malformed Host)";
    const foreign = foreignOrigin(c.req.header("origin"), c.req.header("sec-fetch-site"), ownOrigin, policy);
    if (foreign === undefined) return next();
    return errorResponse(
      c,
      new ApiError(
        403,
        "forbidden_origin",
        `${c.req.method} ${c.req.path} refused: the request comes from another site (${foreign}); only pages served by this server (${ownOrigin}) may change things. Allow an origin with --allow-origin, or send the access token`,
      ),
    );
  };
}
