/**
 * Emscripten's runtime implements a few C functions in JavaScript with Node's own modules, captured in
 * closures the realm lockdown cannot reach: `system()` spawns a shell through `child_process`, the socket
 * syscalls open real connections through `ws`, `dlopen` compiles WebAssembly from the virtual file system,
 * and `emscripten_run_script` evaluates JavaScript. Any C code path to them (for instance `os.system`, or a
 * `socket` type found through `object.__subclasses__()`) would leave the sandbox, so they are replaced in
 * the WebAssembly imports before Pyodide is instantiated: whatever calls them, from Python or C, is refused.
 *
 * Once the sandbox is locked down ({@link ImportGate.lock}), the gate also refuses, whoever calls them:
 * - every import through which Pyodide's C code reaches JavaScript objects for Python (the JsProxy and
 *   PyProxy machinery, conversions, `new_error`, ...), except the few the request handler's own path uses
 *   (JavaScript calls a Python function with a string and gets a string back). Even a JsProxy that Python
 *   obtained despite the Python lockdown could then do nothing: reading, calling or constructing anything
 *   through it ends the request as a crash, and the worker is replaced;
 * - every syscall that would change the virtual file system (open for writing, create, truncate, rename,
 *   unlink, mkdir, chmod, symlink, ...): it lives in the worker's JavaScript, outside the memory a reset
 *   restores, so a file one template wrote would be there for the next. Reading keeps working (the standard
 *   library is imported from it). Pipes are refused too: their buffers live outside the WebAssembly heap,
 *   beyond the memory limit.
 */

/** Emscripten's "operation not permitted" and "read-only file system" (its errno numbering, not Linux's). */
const EPERM = 63;
const EROFS = 69;

/** Flags of `open` that write: O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND (musl's values, as Emscripten's). */
const WRITING_OPEN_FLAGS = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000;

/** What a refused import does: returns a failure value for its caller, or throws. */
type Refusal = (name: string, args: readonly unknown[]) => unknown;

const returning =
  (value: number): Refusal =>
  () =>
    value;

/** Refused from the start: processes, sockets, dynamic loading, JavaScript evaluation. */
const ALWAYS_REFUSED: ReadonlyArray<readonly [RegExp, Refusal]> = [
  [
    /^__syscall_(socket|socketpair|connect|bind|listen|accept4|sendto|sendmsg|recvfrom|recvmsg|getpeername|getsockname|getsockopt|setsockopt|shutdown)$/,
    returning(-EPERM),
  ],
  [/^_emscripten_system$/, returning(-1)],
  [
    /^(_dlopen_js|_emscripten_dlopen_js|emscripten_run_script.*|emscripten_async_run_script|emscripten_async_wget.*|emscripten_websocket_.*|_maybe_(connect|recvfrom|sendto)_async|_try_shutdown)$/,
    returning(0),
  ],
];

/** Pyodide's imports that give C code (and so Python) JavaScript objects, or act on them. */
const BRIDGE =
  /^(_?Js|_?pyproxy|_?python2js|js2python|_?_?hiwire|_agen_|_JsArray|_JsObject|destroy_|create_(once_callable|promise_handles)|wrap_(async_)?generator|gc_register_proxies|proxy_cache_|new_error|raw_call_js|is_comlink_proxy|handle_next_result_js|get_length_|get_async_js_call_done_callback|my_dict_converter|array_to_js|[sg]et_suspender|syncifyHandler|saveState|restoreState|can_run_sync_js|set_pyodide_module|pyodide_js_init|jslib_|throw_no_gil|capture_stderr|restore_stderr|fail_test|ffi_)/;

/**
 * The bridge imports the request handler's path uses once locked: reading the request string out of the
 * call's arguments, converting it to Python, and the JSON answer back to JavaScript.
 */
const HANDLER_PATH = new Set([
  "JsvArray_Get",
  "JsvError_Check",
  "JsvNoValue_Check",
  "js2python_js",
  "js2python_immutable_js",
  "_python2js_ascii",
  "_python2js_ucs1",
  "_python2js_ucs2",
  "_python2js_ucs4",
]);

/** Bridge imports that must exist for the gate to be doing its job; their absence fails the lock. */
const EXPECTED_BRIDGE = [
  "JsException_new_helper",
  "JsvObject_New",
  "JsvFunction_Construct",
  "JsvFunction_CallBound",
  "JsProxy_GetAttr_js",
  "JsProxy_SetAttr_js",
  "pyproxy_new",
  "new_error",
];

/** Refused once locked: whatever would change the virtual file system, and pipes. */
const REFUSED_ONCE_LOCKED: ReadonlyArray<readonly [RegExp, Refusal]> = [
  [
    /^__syscall_openat$/,
    (_, [, , flags]) => ((Number(flags) & WRITING_OPEN_FLAGS) === 0 ? undefined : -EROFS),
  ],
  [
    /^__syscall_(unlinkat|rmdir|renameat|mkdirat|mknodat|symlinkat|chmod|fchmod|fchmodat2|fchown32|fchownat|truncate64|ftruncate64|utimensat|fallocate)$/,
    returning(-EROFS),
  ],
  // A shared writable mapping is written back to its file on msync and munmap.
  [/^_msync_js$/, returning(-EROFS)],
  [/^_munmap_js$/, returning(0)],
  [/^__syscall_pipe$/, returning(-EPERM)],
];

/**
 * A bridge import called after the lockdown: Python got hold of a JavaScript object after all. Throwing
 * unwinds the whole call (Pyodide reports a fatal error, the request ends as a crash and the host replaces
 * the worker), where returning would let Python go on with whatever it holds.
 */
const refuseBridge: Refusal = (name) => {
  throw new Error(`the Python sandbox refused ${name}: no JavaScript object is reachable from Python`);
};

type Imports = Record<string, Record<string, unknown>>;

interface WebAssemblyApi {
  instantiate(source: unknown, imports?: Imports): Promise<unknown>;
}

/** The import gate of one thread; see the module's description. */
export interface ImportGate {
  /**
   * Turns on the refusals that apply after the lockdown. Irreversible. Throws if the gate did not see the
   * bridge imports it expects (another Pyodide build): the sandbox must not start unguarded.
   */
  lock(): void;
  /** The imports guarded so far, by name, for checks and diagnostics. */
  readonly guarded: ReadonlySet<string>;
}

/**
 * Wraps `WebAssembly.instantiate` in the calling thread (the Pyodide worker) so that every module it
 * instantiates gets the refusing versions of the imports above. Call it before loading Pyodide.
 */
export function installImportGate(): ImportGate {
  const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
  const instantiate = wasm.instantiate;
  let locked = false;
  const guarded = new Set<string>();
  const guard = (namespace: Record<string, unknown>): void => {
    for (const name of Object.keys(namespace)) {
      const original = namespace[name];
      if (typeof original !== "function") continue;
      const always = ALWAYS_REFUSED.find(([pattern]) => pattern.test(name));
      const onceLocked = refusalsOnceLocked(name);
      if (always) {
        namespace[name] = Object.assign(() => always[1](name, []), original);
      } else if (onceLocked.length > 0) {
        namespace[name] = lockable(
          name,
          original as (...args: unknown[]) => unknown,
          onceLocked,
          () => locked,
        );
      } else {
        continue;
      }
      guarded.add(name);
    }
  };
  Object.defineProperty(wasm, "instantiate", {
    value: (source: unknown, imports?: Imports) => {
      for (const namespace of Object.values(imports ?? {})) guard(namespace);
      return instantiate.call(wasm, source, imports);
    },
    writable: false,
    configurable: false,
  });
  return {
    guarded,
    lock() {
      const missing = EXPECTED_BRIDGE.filter((name) => !guarded.has(name));
      if (missing.length > 0) {
        throw new Error(`the Python sandbox's import gate found no ${missing.join(", ")} to refuse`);
      }
      locked = true;
    },
  };
}

function refusalsOnceLocked(name: string): Refusal[] {
  const refusals = REFUSED_ONCE_LOCKED.filter(([pattern]) => pattern.test(name)).map(
    ([, refusal]) => refusal,
  );
  if (BRIDGE.test(name) && !HANDLER_PATH.has(name)) refusals.push(refuseBridge);
  return refusals;
}

/**
 * `original` (and its properties, such as Emscripten's `sig`), except that once `isLocked()` the first
 * refusal that answers (returns a value other than `undefined`, or throws) decides the call.
 */
function lockable(
  name: string,
  original: (...args: unknown[]) => unknown,
  refusals: readonly Refusal[],
  isLocked: () => boolean,
): (...args: unknown[]) => unknown {
  const gated = (...args: unknown[]): unknown => {
    if (isLocked()) {
      for (const refusal of refusals) {
        const answer = refusal(name, args);
        if (answer !== undefined) return answer;
      }
    }
    return original(...args);
  };
  return Object.assign(gated, original);
}
