import type { MiddlewareHandler } from "hono";
import { ApiError, errorResponse } from "../core/index.js";
import type { AccessPolicy } from "./access-policy.js";
import { requestedUrl } from "./request-origin.js";

/**
 * Refuses requests whose `Host` is not a name of this machine when the server runs without a token. A web page
 * on another site can make the browser resolve its own name to 127.0.0.1 (DNS rebinding) and then read our
 * answers as "same origin"; its requests still carry its own name in `Host`.
 */
export function hostGuard(policy: AccessPolicy): MiddlewareHandler {
  return async (c, next) => {
    if (policy.allowedHostNames.length === 0) return next();
    const host = requestedUrl(c)?.hostname ?? c.req.header("host") ?? "";
    if (policy.allowedHostNames.includes(host)) return next();
    return errorResponse(
      c,
      new ApiError(
        403,
        "forbidden_host",
        `this server answers only to localhost, 127.0.0.1 and [::1], not to Host "${host}"; open it as http://127.0.0.1:<port>/, or start it with --host to serve other names (the token is then required)`,
      ),
    );
  };
}
