/**
 * Runs `work`, counting the host's timer ticks (every 10 ms) while it runs: a call that blocks the host's
 * event loop counts none. Its outcome is its value, or the error it failed with.
 */
export async function whileTicking(
  work: () => Promise<unknown>,
): Promise<{ outcome: unknown; ms: number; ticks: number }> {
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 10);
  const started = performance.now();
  try {
    const outcome = await work().catch((error: unknown) => error);
    return { outcome, ms: performance.now() - started, ticks };
  } finally {
    clearInterval(ticker);
  }
}
