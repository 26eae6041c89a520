import type { SharedAnswer } from "../answer-share.js";

/** What {@link ScenarioAnswerCache.reserve} found for a key. */
export type CacheSlot =
  /** Another turn generated this answer for the same history: reuse it. */
  | { readonly hit: SharedAnswer }
  /** Generate live, then hand the answer (or null when there is none) to `complete`. */
  | { readonly hit: null; complete(answer: SharedAnswer | null): void };

interface Entry {
  answer: Promise<SharedAnswer | null>;
  settle(answer: SharedAnswer | null): void;
}

/**
 * The node-level answer cache of a scenario batch (spec 08 §5.5): turns of the same scenario, node, answering
 * model, replicate and conversation history share one generated answer, so executions that differ only by
 * their parsing model pay for each answer once while their paths coincide. The first turn of a key reserves
 * it and generates; later ones wait for it (up to `waitMs`, then generate on their own). A failed generation
 * (null) is not shared: the next turn of the key reserves it again.
 */
export class ScenarioAnswerCache {
  readonly #entries = new Map<string, Entry>();

  constructor(readonly waitMs: number) {}

  async reserve(key: string): Promise<CacheSlot> {
    const existing = this.#entries.get(key);
    if (existing !== undefined) {
      const answer = await waitFor(existing.answer, this.waitMs);
      if (answer !== null && answer !== TIMED_OUT) return { hit: answer };
      // Timed out: generate live and still complete the key afterwards (the original's rule).
      if (answer === TIMED_OUT) return { hit: null, complete: (value) => this.#store(key, value) };
    }
    const entry = deferred();
    this.#entries.set(key, entry);
    return { hit: null, complete: (value) => entry.settle(value) };
  }

  /** Keys held (for tests). */
  get size(): number {
    return this.#entries.size;
  }

  #store(key: string, answer: SharedAnswer | null): void {
    if (answer === null) return;
    const entry = deferred();
    entry.settle(answer);
    this.#entries.set(key, entry);
  }
}

const TIMED_OUT = Symbol("timed out");

async function waitFor<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function deferred(): Entry {
  let settle!: (answer: SharedAnswer | null) => void;
  const answer = new Promise<SharedAnswer | null>((resolve) => {
    settle = resolve;
  });
  return { answer, settle };
}
