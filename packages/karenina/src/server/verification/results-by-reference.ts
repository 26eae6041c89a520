import {
  ComparisonSide,
  compareSides,
  createSummaryAccumulator,
  type ResultSummary,
  type RunComparison,
  type VerificationResult,
} from "../../results/index.js";
import type { ResultQuery, Storage } from "../../storage/index.js";
import { ApiError } from "../core/index.js";
import { type JobRunner, jobNotFound } from "../jobs/index.js";
import { VERIFICATION_JOB } from "./verification-job.js";

/** Stored results named by reference (spec 07 §2.4): by verification job, or by stored run name. */
export interface ResultReference {
  readonly job_id?: string;
  readonly run_name?: string;
}

/**
 * The references of a summary or comparison request: exactly one of `job_ids` and `run_names`.
 * @throws ApiError 422 when the body gives both or neither
 */
export function referencesOf(body: {
  job_ids?: readonly string[] | undefined;
  run_names?: readonly string[] | undefined;
}): ResultReference[] {
  if ((body.job_ids === undefined) === (body.run_names === undefined))
    throw new ApiError(422, "invalid_request", "body: give exactly one of job_ids or run_names");
  return body.job_ids !== undefined
    ? body.job_ids.map((job_id) => ({ job_id }))
    : (body.run_names ?? []).map((run_name) => ({ run_name }));
}

/** Rows read per query: few enough that reading, parsing and counting a page holds the event loop for milliseconds only. */
const PAGE = 2_000;

/** Lets the event loop serve other requests between pages (a summary of 100,000 rows reads 50 pages). */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The queries that read a reference's rows. A job's rows are its stored run's (none before it has started);
 * a run name matches every stored run of that name. @throws ApiError 404 for an unknown job or run name
 */
async function queryOf(
  storage: Storage,
  runner: JobRunner,
  ref: ResultReference,
): Promise<ResultQuery | null> {
  if (ref.job_id !== undefined) {
    const job = await runner.get(ref.job_id);
    if (job === null || job.kind !== VERIFICATION_JOB) throw jobNotFound(ref.job_id);
    return job.run_id === null ? null : { runId: job.run_id };
  }
  const name = ref.run_name ?? "";
  const [run] = await storage.listRuns({ runName: name, limit: 1 });
  if (run === undefined)
    throw new ApiError(
      404,
      "run_not_found",
      `no stored run is named ${JSON.stringify(name)}; list the stored runs to find its name`,
    );
  return { runName: name };
}

/** The queries of the references, resolved before any row is read (so an unknown one fails at once). */
export async function queriesOf(
  storage: Storage,
  runner: JobRunner,
  refs: readonly ResultReference[],
  answeringModels?: readonly string[],
): Promise<ResultQuery[][]> {
  const out: ResultQuery[][] = [];
  for (const ref of refs) {
    const query = await queryOf(storage, runner, ref);
    out.push(
      query === null
        ? []
        : answeringModels === undefined
          ? [query]
          : answeringModels.map((model) => ({ ...query, answeringModel: model })),
    );
  }
  return out;
}

/**
 * Hands the digests (`resultDigest`) of the stored results of `queries` to `onPage` a page at a time, with the
 * event loop free between pages; each page may be dropped once handled.
 */
export async function forEachDigestPage(
  storage: Storage,
  queries: readonly ResultQuery[],
  onPage: (digests: VerificationResult[]) => void,
): Promise<void> {
  for (const query of queries) {
    for (let after: number | null = 0; after !== null; ) {
      const page = await storage.loadResultDigestPage({ ...query, limit: PAGE }, after);
      onPage(page.digests);
      after = page.after;
      await yieldToEventLoop();
    }
  }
}

/**
 * The summary (`summarizeResults`) of the stored results of the references, read a page at a time into a
 * summary accumulator: the rows of one page are held at once, never the run.
 * @throws ApiError 404 for an unknown job or run name (before any row is read)
 */
export async function summarizeByReference(
  storage: Storage,
  runner: JobRunner,
  refs: readonly ResultReference[],
): Promise<{ summary: ResultSummary; result_count: number }> {
  const summary = createSummaryAccumulator();
  for (const queries of await queriesOf(storage, runner, refs))
    await forEachDigestPage(storage, queries, (digests) => summary.add(digests));
  await yieldToEventLoop();
  return { summary: summary.finish(), result_count: summary.count };
}

/**
 * The comparison (`compareRuns`) of the stored results of two references, optionally only those whose
 * answering model's `model_name` is one of `answeringModels`. Each side is read a page at a time and keeps,
 * per row key, only what the comparison reports.
 * @throws ApiError 404 for an unknown job or run name (before any row is read)
 */
export async function compareByReference(
  storage: Storage,
  runner: JobRunner,
  before: ResultReference,
  after: ResultReference,
  answeringModels?: readonly string[],
): Promise<{ comparison: RunComparison; before_count: number; after_count: number }> {
  const [beforeQueries = [], afterQueries = []] = await queriesOf(
    storage,
    runner,
    [before, after],
    answeringModels,
  );
  const sides = [new ComparisonSide(), new ComparisonSide()] as const;
  const counts = [0, 0];
  for (const [index, queries] of [beforeQueries, afterQueries].entries()) {
    await forEachDigestPage(storage, queries, (digests) => {
      sides[index]?.add(digests);
      counts[index] = (counts[index] ?? 0) + digests.length;
    });
  }
  await yieldToEventLoop();
  return {
    comparison: compareSides(sides[0], sides[1]),
    before_count: counts[0] ?? 0,
    after_count: counts[1] ?? 0,
  };
}
