/** Who may call the server, decided once at start from where it listens (spec 07 §2.5). */
export interface AccessPolicy {
  /** Every `/api` and `/ws` request must carry the access token (the default when bound beyond loopback). */
  readonly requireToken: boolean;
  /**
   * Browser origins allowed besides the server's own: CORS answers them, and the same-origin check lets their
   * mutating requests through. Empty (the default) turns CORS off.
   */
  readonly allowedOrigins: readonly string[];
  /**
   * Host names the server answers to when it needs no token: a browser tricked by DNS rebinding sends the
   * attacker's name, which is refused. Empty when the token is required (the token is the guard then).
   */
  readonly allowedHostNames: readonly string[];
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** Whether `host` (an address or name to bind) is reachable only from this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.includes(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export interface AccessPolicyOptions {
  /** Override the token rule (default: required unless `host` is loopback). */
  readonly requireToken?: boolean;
  readonly allowedOrigins?: readonly string[];
}

/** The policy for a server bound to `host`. */
export function accessPolicyFor(host: string, options: AccessPolicyOptions = {}): AccessPolicy {
  const requireToken = options.requireToken ?? !isLoopbackHost(host);
  const bound = host.toLowerCase();
  return {
    requireToken,
    allowedOrigins: (options.allowedOrigins ?? []).map(normalisedOrigin),
    allowedHostNames: requireToken ? [] : [...new Set([...LOOPBACK_NAMES, bound])],
  };
}

/** `origin` as browsers send it in `Origin` (scheme, host, port; no path or trailing slash). */
export function normalisedOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}
