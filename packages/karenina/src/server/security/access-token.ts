import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";

/** A new random access token (256 bits, URL-safe). */
export function newAccessToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether `presented` is `token`, compared in constant time (so timing does not leak the token). */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined || presented === "") return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** The token in `Authorization: Bearer <token>`, if any. */
export function bearerToken(c: Context): string | undefined {
  const header = c.req.header("authorization");
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The token a request presents: the bearer header, or `?token=` on a GET (browsers cannot set headers on a
 * WebSocket, an `EventSource` or a page load; mutations must use the header).
 */
export function presentedToken(c: Context): string | undefined {
  const bearer = bearerToken(c);
  if (bearer !== undefined) return bearer;
  return c.req.method === "GET" ? c.req.query("token") : undefined;
}
