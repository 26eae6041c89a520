/**
 * Runs `work` with a signal that Ctrl-C (SIGINT) aborts, so a run stops cleanly and keeps what it finished; the
 * handler is removed when the work ends, whichever way.
 */
export async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off("SIGINT", onSigint);
  }
}
