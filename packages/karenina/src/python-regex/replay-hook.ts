import type { RegexJob } from "./deadline-runner.js";

/**
 * What answers `runRegex` while synchronous work runs inside `withNonBlockingRegexes`: a result computed
 * earlier off the thread, or a throw that stops the pass (see non-blocking.ts). Null outside such work.
 * JavaScript runs one synchronous stretch at a time, so one slot for the whole thread is enough.
 */
export type RegexAnswerer = (job: RegexJob) => unknown;

let active: RegexAnswerer | null = null;

export function activeRegexAnswerer(): RegexAnswerer | null {
  return active;
}

/** Runs synchronous `work` with `answerer` answering its regex evaluations. */
export function withRegexAnswerer<T>(answerer: RegexAnswerer, work: () => T): T {
  const previous = active;
  active = answerer;
  try {
    return work();
  } finally {
    active = previous;
  }
}
