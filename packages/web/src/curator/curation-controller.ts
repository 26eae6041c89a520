import type { Curation, CurationChanges, CurationSaved } from "../library-types/index.js";
import {
  beginSave,
  type CurationState,
  changesBody,
  hasChanges,
  loadedState,
  saveFailed,
  saveSucceeded,
} from "./curation-store.js";

/** How long after the last change the autosave waits (spec 07 §1.3.4 Fix: debounced ≈1 s). */
export const AUTOSAVE_DELAY_MS = 1000;
/** After a failed save, the next automatic attempt waits this long (Retry saves at once). */
export const RETRY_DELAY_MS = 10_000;

/** How the controller reaches the server (the hook passes `apiFetch` calls; tests a local server). */
export interface CurationTransport {
  load(): Promise<Curation>;
  save(changes: CurationChanges): Promise<CurationSaved>;
}

export type LoadState =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly message: string }
  | { readonly state: "loaded"; readonly curation: CurationState };

export interface ControllerOptions {
  readonly delayMs?: number;
  readonly retryDelayMs?: number;
  /** Templates as first loaded in this page, shared by the controllers of one benchmark. */
  readonly originals?: Record<string, string>;
  /** Told after each save (the screen announces "Saved 12:03"). */
  readonly onSaved?: (saved: CurationSaved) => void;
  readonly onSaveFailed?: (message: string) => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One benchmark's curation in the page: loads it, applies the screen's mutations and autosaves them (one save
 * at a time; changes made during a save wait for the next). A React hook subscribes to it.
 */
export class CurationController {
  private current: LoadState = { state: "loading" };
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly waiting = new Set<() => void>();
  private readonly delayMs: number;
  private readonly retryDelayMs: number;

  constructor(
    private readonly transport: CurationTransport,
    private readonly options: ControllerOptions = {},
  ) {
    this.delayMs = options.delayMs ?? AUTOSAVE_DELAY_MS;
    this.retryDelayMs = options.retryDelayMs ?? RETRY_DELAY_MS;
  }

  get state(): LoadState {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(next: LoadState): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }

  async load(): Promise<void> {
    this.set({ state: "loading" });
    try {
      const curation = await this.transport.load();
      const state = loadedState(curation, this.options.originals);
      if (this.options.originals !== undefined) Object.assign(this.options.originals, state.originals);
      this.set({ state: "loaded", curation: state });
    } catch (error) {
      this.set({ state: "failed", message: messageOf(error) });
    }
  }

  /** Applies a mutation of the loaded curation; queued changes are saved after the debounce. */
  apply(mutation: (state: CurationState) => CurationState, urgent = false): void {
    if (this.current.state !== "loaded") return;
    const next = mutation(this.current.curation);
    if (next === this.current.curation) return;
    this.set({ state: "loaded", curation: next });
    this.schedule(urgent ? 0 : this.delayMs);
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
  }

  /** Sends what is queued now (Save, Retry, leaving the screen); resolves when nothing is left to send. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    if (this.current.state !== "loaded") return;
    const curation = this.current.curation;
    if (curation.inFlight !== null) return new Promise((resolve) => this.waiting.add(resolve));
    if (!hasChanges(curation.pending)) return;
    const started = beginSave(curation);
    const body = changesBody(started, curation.pending);
    this.set({ state: "loaded", curation: started });
    let failed = false;
    try {
      const saved = await this.transport.save(body);
      this.update((state) => saveSucceeded(state, saved));
      this.options.onSaved?.(saved);
    } catch (error) {
      failed = true;
      const message = messageOf(error);
      this.update((state) => saveFailed(state, message));
      this.options.onSaveFailed?.(message);
    }
    const after = this.current.state === "loaded" ? this.current.curation : undefined;
    if (after !== undefined && hasChanges(after.pending)) {
      if (failed) this.schedule(this.retryDelayMs);
      else await this.flush();
    }
    for (const resolve of this.waiting) resolve();
    this.waiting.clear();
  }

  private update(mutation: (state: CurationState) => CurationState): void {
    if (this.current.state === "loaded")
      this.set({ state: "loaded", curation: mutation(this.current.curation) });
  }

  /** Whether edits are queued or being sent (the unload warning counts them). */
  get unsaved(): boolean {
    if (this.current.state !== "loaded") return false;
    return hasChanges(this.current.curation.pending) || this.current.curation.inFlight !== null;
  }

  /** Stops the timer and sends what is queued (leaving the screen must not lose a debounced edit). */
  close(): Promise<void> {
    clearTimeout(this.timer);
    return this.flush();
  }
}
