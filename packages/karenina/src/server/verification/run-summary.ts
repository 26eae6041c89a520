import { createSummaryAccumulator, type ResultSummary } from "../../results/index.js";
import type { ResultQuery, Storage } from "../../storage/index.js";

/** Rows per page: few enough that parsing and counting a page holds the event loop for milliseconds only. */
export const DIGEST_PAGE = 2_000;

/** Lets the event loop serve other requests between pages (a summary of 100,000 rows reads 50 pages). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A summary (`summarizeResults`) and the number of rows it summarises, as the summary route answers. */
export interface CountedSummary {
  readonly summary: ResultSummary;
  readonly result_count: number;
}

/**
 * The summary of the stored results of `queries` (each in saving order), read a page of digests at a time into
 * a summary accumulator with the event loop free between pages: the rows of one page are held at once.
 */
export async function summarizeQueries(
  storage: Storage,
  queries: readonly ResultQuery[],
): Promise<CountedSummary> {
  const summary = createSummaryAccumulator();
  for (const query of queries) {
    for await (const digests of storage.readResultDigests(query, DIGEST_PAGE)) {
      summary.add(digests);
      await yieldToEventLoop();
    }
  }
  await yieldToEventLoop();
  return { summary: summary.finish(), result_count: summary.count };
}

/**
 * The summary of one stored run: its stored summary while valid, else computed from its digests and, when the
 * run is finished, stored for the next time (a failure to store it does not fail the summary).
 */
export async function summarizeRun(storage: Storage, runId: string): Promise<CountedSummary> {
  const stored = await storage.loadRunSummary(runId);
  if (stored !== null) return { summary: stored.summary, result_count: stored.resultCount };
  const computed = await summarizeQueries(storage, [{ runId }]);
  await storage.saveRunSummary(runId, computed.summary, computed.result_count).catch(() => false);
  return computed;
}

/**
 * Computes and stores the summary of a run that just finished, in the background: the caller is not delayed,
 * and a failure (the server closing its database meanwhile) is only logged; the summary is then computed on
 * its first request instead.
 */
export function precomputeRunSummary(storage: Storage, runId: string): void {
  summarizeRun(storage, runId).catch((error: unknown) => {
    console.error(
      `karenina: could not store the summary of run ${runId} (it will be computed when asked for): ${error instanceof Error ? error.message : String(error)}`,
    );
  });
}
