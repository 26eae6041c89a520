import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

let entry: Promise<URL> | null = null;

/**
 * The module a QuickJS worker thread starts from. Built (`dist/`), it is `quickjs-worker.js` beside this
 * file. From source (Vitest, tsx) a worker thread would not get the caller's TypeScript loader, so
 * `quickjs-worker.ts` is bundled once per process by tsx's esbuild into one ES module, given as a `data:`
 * URL; the packages it imports stay out of the bundle and are imported by the absolute URL of their file,
 * as a `data:` module cannot resolve a package name.
 */
export function quickJsWorkerEntry(): Promise<URL> {
  if (entry === null) {
    const built = new URL("./quickjs-worker.js", import.meta.url);
    const pending = import.meta.url.endsWith(".ts")
      ? bundle(fileURLToPath(new URL("./quickjs-worker.ts", import.meta.url)))
      : Promise.resolve(built);
    entry = pending;
    pending.catch(() => {
      if (entry === pending) entry = null;
    });
  }
  return entry;
}

/** The part of esbuild's API used here. */
interface Esbuild {
  build(options: object): Promise<{ outputFiles: readonly { readonly text: string }[] }>;
}

interface ResolveArgs {
  path: string;
  kind: string;
  resolveDir: string;
  pluginData?: unknown;
}

interface PluginBuild {
  onResolve(options: { filter: RegExp }, callback: (args: ResolveArgs) => Promise<object | undefined>): void;
  resolve(
    path: string,
    options: { kind: string; resolveDir: string; pluginData: unknown },
  ): Promise<{ path: string; external: boolean; errors: readonly object[] }>;
}

const RESOLVING = Symbol("resolving");

/** Keeps packages out of the bundle, imported by the `file:` URL their `import` condition resolves to. */
const packagesByUrl = {
  name: "packages-by-url",
  setup(build: PluginBuild) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === RESOLVING) return undefined;
      const { kind, resolveDir } = args;
      const resolved = await build.resolve(args.path, { kind, resolveDir, pluginData: RESOLVING });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external) return { path: resolved.path, external: true };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};

async function bundle(entryPath: string): Promise<URL> {
  const esbuild = tsxRequire()("esbuild") as Esbuild;
  const result = await esbuild.build({
    entryPoints: [entryPath],
    bundle: true,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node}`,
    plugins: [packagesByUrl],
    write: false,
    logLevel: "silent",
  });
  const source = result.outputFiles.map((file) => file.text).join("\n");
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

/** `require` relative to tsx (a dev dependency of the workspace), which brings its own esbuild. */
function tsxRequire(): NodeJS.Require {
  return createRequire(createRequire(import.meta.url).resolve("tsx/package.json"));
}
