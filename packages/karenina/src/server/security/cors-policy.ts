import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AccessPolicy } from "./access-policy.js";

/**
 * CORS for the configured origins only; none configured (the default) means no CORS headers at all, so other
 * sites' pages can neither read answers nor send the token header.
 */
export function corsPolicy(policy: AccessPolicy): MiddlewareHandler | undefined {
  if (policy.allowedOrigins.length === 0) return undefined;
  const allowed = policy.allowedOrigins;
  return cors({
    origin: (origin) => (allowed.includes(origin) ? origin : null),
    allowHeaders: ["authorization", "content-type"],
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    maxAge: 600,
  });
}
