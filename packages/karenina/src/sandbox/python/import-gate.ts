/**
 * Emscripten's runtime implements a few C functions in JavaScript with Node's own modules, captured in
 * closures the realm lockdown cannot reach: `system()` spawns a shell through `child_process`, the socket
 * syscalls open real connections through `ws`, `dlopen` compiles WebAssembly from the virtual file system,
 * and `emscripten_run_script` evaluates JavaScript. Any C code path to them (for instance `os.system`, or a
 * `socket` type found through `object.__subclasses__()`) would leave the sandbox, so they are replaced in
 * the WebAssembly imports before Pyodide is instantiated: whatever calls them, from Python or C, is refused.
 */

/** Emscripten's "operation not permitted" (its errno numbering, not Linux's). */
const EPERM = 63;

/** Each refused import and the value it returns: a negative errno for syscalls, a failure value otherwise. */
const REFUSALS: ReadonlyArray<readonly [RegExp, number]> = [
  [
    /^__syscall_(socket|socketpair|connect|bind|listen|accept4|sendto|sendmsg|recvfrom|recvmsg|getpeername|getsockname|getsockopt|setsockopt|shutdown)$/,
    -EPERM,
  ],
  [/^_emscripten_system$/, -1],
  [
    /^(_dlopen_js|_emscripten_dlopen_js|emscripten_run_script.*|emscripten_async_run_script|emscripten_async_wget.*|emscripten_websocket_.*|_maybe_(connect|recvfrom|sendto)_async|_try_shutdown)$/,
    0,
  ],
];

type Imports = Record<string, Record<string, unknown>>;

interface WebAssemblyApi {
  instantiate(source: unknown, imports?: Imports): Promise<unknown>;
}

/**
 * Wraps `WebAssembly.instantiate` in the calling thread (the Pyodide worker) so that every module it
 * instantiates gets the refusing versions of the imports above. Call it before loading Pyodide.
 */
export function installImportGate(): void {
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
  const instantiate = wasm.instantiate;
  Object.defineProperty(wasm, "instantiate", {
    value: (source: unknown, imports?: Imports) => {
      for (const namespace of Object.values(imports ?? {})) refuseImports(namespace);
      return instantiate.call(wasm, source, imports);
    },
    writable: false,
    configurable: false,
  });
}

/** Replaces, in place, the functions of one import namespace that {@link REFUSALS} names. */
function refuseImports(namespace: Record<string, unknown>): void {
  for (const name of Object.keys(namespace)) {
    const refusal = REFUSALS.find(([pattern]) => pattern.test(name));
    const original = namespace[name];
    if (refusal && typeof original === "function") {
      const refused = refusal[1];
      namespace[name] = Object.assign(() => refused, original);
    }
  }
}
