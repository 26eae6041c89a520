/**
 * The browser session kept across reloads (spec 07 §0, "restore previous session"): named slices of UI state,
 * each saved to a key-value backend (IndexedDB in the app) shortly after it changes and read back once at start.
 * Screens add their own slice with {@link defineSlice}; a stored value that no longer parses (an older app, a
 * hand-edited store) falls back to the slice's initial value instead of breaking the page.
 */

/** Where slices are stored: IndexedDB in the app (see `idb-backend.ts`), a map in tests. */
export interface SessionBackend {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

/** One piece of remembered state. */
export interface SessionSlice<T> {
  /** Its storage key, unique in the app. */
  readonly key: string;
  /** Bump it when the shape changes: a stored value of another version is dropped. */
  readonly version: number;
  readonly initial: T;
  /** The value from what was stored, or undefined when it is not one (then `initial` is used). */
  readonly parse: (stored: unknown) => T | undefined;
}

/** Declares a slice (a typed, versioned key with its parser). */
export function defineSlice<T>(slice: SessionSlice<T>): SessionSlice<T> {
  return slice;
}

interface StoredSlice {
  readonly version: number;
  readonly value: unknown;
}

function isStoredSlice(stored: unknown): stored is StoredSlice {
  return typeof stored === "object" && stored !== null && "version" in stored && "value" in stored;
}

/**
 * A synchronous store for what is still unsaved when the page goes away (`sessionStorage` in the app): a
 * write to IndexedDB started while the page unloads is dropped by the browser, so a reload right after an
 * edit would lose it.
 */
export type UnloadBackend = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The prefix of a slice's key in the {@link UnloadBackend}. */
export const UNLOAD_KEY_PREFIX = "karenina-session-unsaved:";

export interface SessionStoreOptions {
  /** How long after the last change a slice is written (default 150 ms): typing does not write every key. */
  readonly saveDelayMs?: number;
  /** Where {@link SessionStore.saveBeforeUnload} keeps unsaved slices for the next start (none by default). */
  readonly unloadBackend?: UnloadBackend;
}

/** A slice that could not be read or written (the state stays in memory; only the memory of it is lost). */
export interface SessionFailure {
  readonly key: string;
  readonly action: "restore" | "save";
  readonly error: unknown;
}

export type SessionUpdate<T> = T | ((current: T) => T);

/** The session's slices in memory, saved to the backend after each change. */
export class SessionStore {
  private readonly values = new Map<string, unknown>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly pending = new Map<
    string,
    { readonly slice: SessionSlice<unknown>; readonly timer: ReturnType<typeof setTimeout> }
  >();
  private readonly writes = new Set<Promise<void>>();
  private readonly saveDelayMs: number;
  private readonly unloadBackend: UnloadBackend | undefined;
  private readonly unreported: SessionFailure[] = [];
  private failureListener: ((failure: SessionFailure) => void) | undefined;

  constructor(
    private readonly backend: SessionBackend,
    options: SessionStoreOptions = {},
  ) {
    this.saveDelayMs = options.saveDelayMs ?? 150;
    this.unloadBackend = options.unloadBackend;
  }

  /**
   * Hands each failure to `listener` (the app shows a toast), those that happened before it was set first.
   * Returns the function that removes it.
   */
  onFailure(listener: (failure: SessionFailure) => void): () => void {
    this.failureListener = listener;
    for (const failure of this.unreported.splice(0)) listener(failure);
    return () => {
      if (this.failureListener === listener) this.failureListener = undefined;
    };
  }

  private fail(failure: SessionFailure): void {
    if (this.failureListener) this.failureListener(failure);
    else this.unreported.push(failure);
  }

  /** Reads the stored value of each slice (call once before the first render). */
  async restore(slices: readonly SessionSlice<unknown>[]): Promise<void> {
    await Promise.all(slices.map((slice) => this.restoreSlice(slice)));
  }

  private async restoreSlice(slice: SessionSlice<unknown>): Promise<void> {
    if (this.restoreUnsaved(slice)) return;
    try {
      const stored = await this.backend.get(slice.key);
      if (!isStoredSlice(stored) || stored.version !== slice.version) return;
      const value = slice.parse(stored.value);
      if (value !== undefined && !this.values.has(slice.key)) this.values.set(slice.key, value);
    } catch (error) {
      this.fail({ key: slice.key, action: "restore", error });
    }
  }

  /**
   * Takes the slice's value kept at the last unload, newer than the backend's, and schedules its save there.
   * True when there was one that parses.
   */
  private restoreUnsaved(slice: SessionSlice<unknown>): boolean {
    const key = UNLOAD_KEY_PREFIX + slice.key;
    let stored: unknown;
    try {
      const text = this.unloadBackend?.getItem(key);
      if (text === null || text === undefined) return false;
      this.unloadBackend?.removeItem(key);
      stored = JSON.parse(text);
    } catch {
      return false;
    }
    if (!isStoredSlice(stored) || stored.version !== slice.version) return false;
    const value = slice.parse(stored.value);
    if (value === undefined || this.values.has(slice.key)) return false;
    this.values.set(slice.key, value);
    this.scheduleSave(slice);
    return true;
  }

  /** The slice's current value (its initial value until set or restored). */
  get<T>(slice: SessionSlice<T>): T {
    return this.values.has(slice.key) ? (this.values.get(slice.key) as T) : slice.initial;
  }

  /** Changes the slice, tells its subscribers and schedules its save. */
  set<T>(slice: SessionSlice<T>, update: SessionUpdate<T>): void {
    const current = this.get(slice);
    const next = typeof update === "function" ? (update as (current: T) => T)(current) : update;
    if (Object.is(next, current)) return;
    this.values.set(slice.key, next);
    for (const listener of this.listeners.get(slice.key) ?? []) listener();
    this.scheduleSave(slice);
  }

  /** Calls `listener` after each change of the slice; returns the unsubscribe function. */
  subscribe(slice: SessionSlice<unknown>, listener: () => void): () => void {
    let set = this.listeners.get(slice.key);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(slice.key, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Writes every slice waiting for its save now, and resolves when all writes are done. */
  async flush(): Promise<void> {
    for (const { slice, timer } of this.pending.values()) {
      clearTimeout(timer);
      this.write(slice);
    }
    await Promise.all([...this.writes]);
  }

  /**
   * Called as the page goes away (`pagehide`): keeps each slice still waiting for its save in the unload
   * backend, synchronously, for the next start, and starts its ordinary save too.
   */
  saveBeforeUnload(): void {
    for (const { slice } of this.pending.values()) {
      const stored: StoredSlice = { version: slice.version, value: this.get(slice) };
      try {
        this.unloadBackend?.setItem(UNLOAD_KEY_PREFIX + slice.key, JSON.stringify(stored));
      } catch (error) {
        this.fail({ key: slice.key, action: "save", error });
      }
    }
    void this.flush();
  }

  private scheduleSave<T>(slice: SessionSlice<T>): void {
    clearTimeout(this.pending.get(slice.key)?.timer);
    const timer = setTimeout(() => this.write(slice), this.saveDelayMs);
    this.pending.set(slice.key, { slice: slice as SessionSlice<unknown>, timer });
  }

  private write(slice: SessionSlice<unknown>): void {
    this.pending.delete(slice.key);
    const stored: StoredSlice = { version: slice.version, value: this.get(slice) };
    const write: Promise<void> = this.backend
      .set(slice.key, stored)
      .catch((error: unknown) => this.fail({ key: slice.key, action: "save", error }))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }
}
