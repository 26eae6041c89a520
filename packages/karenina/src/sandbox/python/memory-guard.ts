const WASM_PAGE_BYTES = 65_536;

/** The part of `WebAssembly.Memory` used here (the project's `lib` settings do not declare WebAssembly). */
interface GrowableMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

/** Caps the growth of every WebAssembly memory in this thread; see {@link installMemoryGuard}. */
export interface MemoryGuard {
  /** Sets the size in bytes no memory may grow beyond (`Infinity` until first set). */
  setCeiling(bytes: number): void;
  /** Whether a growth was refused since the last call, and resets that flag. */
  takeRefused(): boolean;
}

/**
 * Replaces `WebAssembly.Memory.prototype.grow` in the calling thread (the Pyodide worker, never the host) by a
 * version that refuses to grow past a ceiling. Emscripten's `sbrk` grows the heap through this method and
 * treats a refusal as an out-of-memory condition, so `malloc` fails and Python raises `MemoryError`.
 */
export function installMemoryGuard(): MemoryGuard {
  const prototype = (globalThis as unknown as { WebAssembly: { Memory: { prototype: GrowableMemory } } })
    .WebAssembly.Memory.prototype;
  const grow = prototype.grow;
  let ceiling = Number.POSITIVE_INFINITY;
  let refused = false;
  Object.defineProperty(prototype, "grow", {
    value: function guardedGrow(this: GrowableMemory, deltaPages: number): number {
      if (this.buffer.byteLength + deltaPages * WASM_PAGE_BYTES > ceiling) {
        refused = true;
        throw new RangeError("the sandbox memory limit refused to grow the heap");
      }
      return grow.call(this, deltaPages);
    },
    writable: false,
    configurable: false,
  });
  return {
    setCeiling(bytes) {
      ceiling = bytes;
    },
    takeRefused() {
      const was = refused;
      refused = false;
      return was;
    },
  };
}
