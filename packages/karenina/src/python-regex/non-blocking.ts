import { runJobAsync } from "./async-runner.js";
import type { RegexJob } from "./deadline-runner.js";
import { RegexEngineError } from "./errors.js";
import { withRegexAnswerer } from "./replay-hook.js";

/**
 * Passes of the work, each learning one more regex result; past them the remaining evaluations are refused
 * with a RegexEngineError, so a pathological piece of work with thousands of regexes can neither make the
 * passes quadratic nor fall back to holding the thread.
 */
const MAX_PASSES = 256;

/** Thrown through the work to end a pass at a regex whose result is not known yet; never seen outside. */
class RegexPending {
  constructor(readonly job: RegexJob) {}
}

/**
 * Runs synchronous, side-effect-free `work` (a declarative template's checks, a rubric's regex traits)
 * without holding the calling thread while its regexes run. Each `runRegex` inside `work` is answered from
 * results computed so far; the first unknown one ends the pass, is run with `runRegexAsync` (the event loop
 * serves others meanwhile), and `work` runs again from the start. A pass that met no unknown regex is the
 * result (its value, or its throw). `work` must give the same evaluations in the same order each time and
 * change nothing outside itself; whatever it does with the signal that ends a pass (even catching it) is
 * thrown away with that pass.
 * @example
 * await withNonBlockingRegexes(() => pythonSearch("(a+)+$", "aaaa")); // true
 */
export async function withNonBlockingRegexes<T>(work: () => T): Promise<T> {
  const known = new Map<string, { value: unknown } | { error: unknown }>();
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const seen: { pending: RegexJob | null } = { pending: null };
    const answer = (job: RegexJob): unknown => {
      const result = known.get(jobKey(job));
      if (result === undefined) {
        seen.pending ??= job;
        throw new RegexPending(job);
      }
      if ("error" in result) throw result.error;
      return result.value;
    };
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: withRegexAnswerer(answer, work) };
    } catch (error) {
      outcome = { error };
    }
    const missing = seen.pending;
    if (missing === null) {
      if ("error" in outcome) throw outcome.error;
      return outcome.value;
    }
    known.set(jobKey(missing), await settled(runJobAsync(missing)));
  }
  // Past the pass limit the rest are refused, not run here: run synchronously, a checkpoint's 257th and later
  // catastrophic patterns would each hold the event loop to their deadline.
  return withRegexAnswerer((job) => {
    const result = known.get(jobKey(job));
    if (result === undefined)
      throw new RegexEngineError(
        job.subject,
        `one check asked for more than ${MAX_PASSES} distinct regex evaluations; the rest are not run`,
      );
    if ("error" in result) throw result.error;
    return result.value;
  }, work);
}

async function settled(promise: Promise<unknown>): Promise<{ value: unknown } | { error: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

function jobKey({ request, timeoutMs, subject }: RegexJob): string {
  return JSON.stringify([request.op, request.source, request.flags, timeoutMs, subject, request.text]);
}
