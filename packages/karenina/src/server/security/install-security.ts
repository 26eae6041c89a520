import type { ServerApp } from "../core/index.js";
import type { AccessPolicy } from "./access-policy.js";
import { bodyLimitGuard } from "./body-limits.js";
import { corsPolicy } from "./cors-policy.js";
import { hostGuard } from "./host-guard.js";
import { originGuard } from "./origin-guard.js";
import { tokenGuard } from "./token-guard.js";

export interface SecurityOptions {
  readonly policy: AccessPolicy;
  readonly token: string;
  readonly maxBodyBytes: number;
}

/**
 * Mounts the guards, before any route: Host (DNS rebinding, loopback only) → CORS (configured origins only) →
 * same-origin check on mutations and WebSocket upgrades → token on `/api` and `/ws` when required → body limit.
 * Guards are mounted with the router's own patterns, so an encoded or odd path is judged as the router sees it.
 */
export function installSecurity(app: ServerApp, options: SecurityOptions): void {
  const { policy, token } = options;
  app.use("*", hostGuard(policy));
  const cors = corsPolicy(policy);
  if (cors !== undefined) app.use("*", cors);
  app.use("*", originGuard(policy, token));
  if (policy.requireToken) {
    app.use("/api/*", tokenGuard(token));
    app.use("/ws/*", tokenGuard(token));
  }
  app.use("/api/*", bodyLimitGuard(options.maxBodyBytes));
}
