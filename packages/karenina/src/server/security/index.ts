export {
  type AccessPolicy,
  type AccessPolicyOptions,
  accessPolicyFor,
  isLoopbackHost,
  normalisedOrigin,
} from "./access-policy.js";
export { newAccessToken, presentedToken, tokenMatches } from "./access-token.js";
export { DEFAULT_MAX_BODY_BYTES, STREAMED_BODY_PATHS } from "./body-limits.js";
export { installSecurity, type SecurityOptions } from "./install-security.js";
export { isServerPath, tokenGuard } from "./token-guard.js";
