import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

/**
 * How a bundle leaves out the packages its entry imports: `"by-name"` keeps the import as written (the entry
 * imports packages by the absolute URL of their file itself); `"by-file-url"` rewrites it to the `file:` URL
 * its `import` condition resolves to, for a module that cannot resolve package names (a `data:` URL).
 */
export type PackageImports = "by-name" | "by-file-url";

/** Bundles of `.ts` entries, made once per process. */
const bundles = new Map<string, Promise<string>>();

/**
 * One ES module holding a `.ts` entry and its own modules, bundled by tsx's esbuild once per process, for code
 * that runs from source (Vitest, tsx) where the caller's TypeScript loader cannot follow: in a worker thread or
 * a child process. Node's modules and packages stay imports (see {@link PackageImports}). A failed bundle is
 * not kept, so the next call tries again.
 */
export function bundledSource(entryPath: string, packages: PackageImports): Promise<string> {
  const key = `${packages}\u0000${entryPath}`;
  let source = bundles.get(key);
  if (!source) {
    source = bundle(entryPath, packages);
    bundles.set(key, source);
    source.catch(() => bundles.delete(key));
  }
  return source;
}

/** The part of esbuild's API used here. */
interface Esbuild {
  build(options: object): Promise<{ outputFiles: readonly { readonly text: string }[] }>;
}

async function bundle(entryPath: string, packages: PackageImports): Promise<string> {
  const esbuild = tsxRequire()("esbuild") as Esbuild;
  const result = await esbuild.build({
    entryPoints: [entryPath],
    bundle: true,
    format: "esm",
    platform: "node",
    ...(packages === "by-name" ? { packages: "external" } : { plugins: [packagesByFileUrl] }),
    target: `node${process.versions.node}`,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles.map((file) => file.text).join("\n");
}

/** `require` relative to tsx (a dev dependency of the workspace), which brings its own esbuild. */
function tsxRequire(): NodeJS.Require {
  return createRequire(createRequire(import.meta.url).resolve("tsx/package.json"));
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
const packagesByFileUrl = {
  name: "packages-by-file-url",
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
