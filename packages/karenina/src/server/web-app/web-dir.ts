import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The folders that may hold the built web app, seen from this module (`src/server/web-app` or
 * `dist/server/web-app`), in the order they are tried: the copy shipped in the package (`dist/web`, made by
 * the build), then the repository's `packages/web/dist`.
 */
export function webDirCandidates(moduleUrl: string | URL = import.meta.url): string[] {
  return [
    fileURLToPath(new URL("../../web/", moduleUrl)),
    fileURLToPath(new URL("../../../../web/dist/", moduleUrl)),
  ];
}

/**
 * Where the built web app is: the first candidate holding an `index.html` (see {@link webDirCandidates}), else
 * the repository's folder (whose absence the server answers with a page saying the app is not built). It is
 * shipped prebuilt and never built at start (spec 07 §2.5).
 */
export function defaultWebDir(moduleUrl: string | URL = import.meta.url): string {
  const candidates = webDirCandidates(moduleUrl);
  return candidates.find((dir) => existsSync(`${dir}index.html`)) ?? (candidates.at(-1) as string);
}
