import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** The part of `WebAssembly` used here (the project's `lib` settings do not declare WebAssembly). */
const { compile } = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }
).WebAssembly;

let compiled: Promise<object> | null = null;

/**
 * QuickJS's WebAssembly build (the release, synchronous variant `quickjs-emscripten` uses), compiled once
 * per process. Every worker thread instantiates this one `WebAssembly.Module`, so a new thread skips the
 * compilation and runs the code V8 has already optimised in earlier threads, instead of starting cold.
 */
export function compiledQuickJs(): Promise<object> {
  if (compiled === null) {
    const fromQuickJs = createRequire(createRequire(import.meta.url).resolve("quickjs-emscripten"));
    const pending = readFile(fromQuickJs.resolve("@jitl/quickjs-wasmfile-release-sync/wasm")).then(compile);
    compiled = pending;
    pending.catch(() => {
      if (compiled === pending) compiled = null;
    });
  }
  return compiled;
}
