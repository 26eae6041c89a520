import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError, errorResponse } from "../core/index.js";

/** The largest request body the server reads by default: 16 MiB (a large checkpoint fits; a flood does not). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Routes that stream their body to disk with their own cap (file upload: 50 MB, 413 beyond), so the general
 * limit, which buffers a chunked body in memory to count it, stays out of their way.
 */
export const STREAMED_BODY_PATHS: readonly string[] = ["/api/v2/files", "/api/v2/traces"];

function mebibytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

/** Refuses request bodies over `maxBytes` with 413 in the one envelope (by `Content-Length`, or while reading). */
export function bodyLimitGuard(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      errorResponse(
        c,
        new ApiError(
          413,
          "payload_too_large",
          `the request body is over ${mebibytes(maxBytes)}; send less (e.g. store the benchmark with the database routes and refer to it by name, or upload files with POST /api/v2/files)`,
        ),
      ),
  });
  return async (c, next) => {
    if (c.req.method === "POST" && STREAMED_BODY_PATHS.includes(c.req.path)) return next();
    return limit(c, next);
  };
}
