import { fileURLToPath } from "node:url";

/**
 * Where the built web app is: `packages/web/dist` beside this package in the repository (from `src/server/web-app`
 * or `dist/server/web-app` alike). It is shipped prebuilt and never built at start (spec 07 §2.5).
 */
export function defaultWebDir(): string {
  return fileURLToPath(new URL("../../../../web/dist/", import.meta.url));
}
