import type { Context } from "hono";

/**
 * The URL a request was sent to, as far as its `Host` header says: the scheme and host a browser saw. Read from
 * `Host` rather than `c.req.url` because WebSocket upgrades reach the app with a fixed `http://localhost` URL
 * (`@hono/node-ws`), which would let a foreign `Host` through and turn away the server's own pages. Undefined
 * when `Host` is malformed.
 */
export function requestedUrl(c: Context): URL | undefined {
  const url = new URL(c.req.url);
  const host = c.req.header("host") ?? url.host;
  if (/[/@?#\\\s]/.test(host)) return undefined;
  try {
    return new URL(`${url.protocol}//${host}`);
  } catch {
    return undefined;
  }
}
