import { fileURLToPath } from "node:url";
import { bundledSource } from "../source-bundle.js";

/**
 * The module a QuickJS worker thread starts from. Built (`dist/`), it is `quickjs-worker.js` beside this
 * file. From source (Vitest, tsx) a worker thread would not get the caller's TypeScript loader, so
 * `quickjs-worker.ts` is bundled once per process into one ES module, given as a `data:` URL; the packages it
 * imports stay out of the bundle and are imported by the absolute URL of their file, as a `data:` module
 * cannot resolve a package name.
 */
export async function quickJsWorkerEntry(): Promise<URL> {
  if (!import.meta.url.endsWith(".ts")) return new URL("./quickjs-worker.js", import.meta.url);
  const entryPath = fileURLToPath(new URL("./quickjs-worker.ts", import.meta.url));
  const source = await bundledSource(entryPath, "by-file-url");
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}
