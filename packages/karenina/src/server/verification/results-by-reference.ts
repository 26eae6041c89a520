import {
  ComparisonSide,
  compareSides,
  type RunComparison,
  type VerificationResult,
} from "../../results/index.js";
import type { ResultQuery, Storage } from "../../storage/index.js";
import { ApiError } from "../core/index.js";
import { type JobRunner, jobNotFound } from "../jobs/index.js";
import {
  type CountedSummary,
  DIGEST_PAGE,
  summarizeQueries,
  summarizeRun,
  yieldToEventLoop,
} from "./run-summary.js";
import { VERIFICATION_JOB } from "./verification-job.js";

/** Stored results named by reference (spec 07 §2.4): by verification job, by stored run name, or by stored run id. */
export interface ResultReference {
  readonly job_id?: string;
  readonly run_name?: string;
  readonly run_id?: string;
}

/**
 * The references of a summary or comparison request: exactly one of `job_ids`, `run_names` and `run_ids`.
 * @throws ApiError 422 when the body gives more than one or none
 */
export function referencesOf(body: {
  job_ids?: readonly string[] | undefined;
  run_names?: readonly string[] | undefined;
  run_ids?: readonly string[] | undefined;
}): ResultReference[] {
  const given = [body.job_ids, body.run_names, body.run_ids].filter((refs) => refs !== undefined);
  if (given.length !== 1)
    throw new ApiError(422, "invalid_request", "body: give exactly one of job_ids, run_names or run_ids");
  if (body.job_ids !== undefined) return body.job_ids.map((job_id) => ({ job_id }));
  if (body.run_ids !== undefined) return body.run_ids.map((run_id) => ({ run_id }));
  return (body.run_names ?? []).map((run_name) => ({ run_name }));
}

export { yieldToEventLoop } from "./run-summary.js";

/**
 * The queries that read a reference's rows. A job's rows are its stored run's (none before it has started);
 * a run name matches every stored run of that name. @throws ApiError 404 for an unknown job, run name or run id
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
  if (ref.run_id !== undefined) {
    if ((await storage.getRun(ref.run_id)) === null)
      throw new ApiError(
        404,
        "run_not_found",
        `no stored run has the id ${JSON.stringify(ref.run_id)}; list the stored runs to find its id`,
      );
    return { runId: ref.run_id };
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
    for await (const digests of storage.readResultDigests(query, DIGEST_PAGE)) {
      onPage(digests);
      await yieldToEventLoop();
    }
  }
}

/**
 * The stored run a summary request names alone: its only reference is a job with a run, or a run name that
 * one stored run has; else null (several runs are summarised from their rows: summaries do not merge).
 */
async function singleRunOf(storage: Storage, queries: readonly ResultQuery[][]): Promise<string | null> {
  const [only, ...others] = queries;
  if (only?.length !== 1 || others.length > 0) return null;
  const [query] = only;
  if (query?.runId !== undefined) return query.runId;
  if (query?.runName === undefined) return null;
  const runs = await storage.listRuns({ runName: query.runName, limit: 2 });
  return runs.length === 1 ? (runs[0]?.id ?? null) : null;
}

/**
 * The summary (`summarizeResults`) of the stored results of the references. One finished run's summary is
 * stored (`Storage.loadRunSummary`) and read back while valid; otherwise the rows are read a page at a time
 * into a summary accumulator (the rows of one page held at once, never the run), and a finished run's summary
 * stored for the next request.
 * @throws ApiError 404 for an unknown job or run name (before any row is read)
 */
export async function summarizeByReference(
  storage: Storage,
  runner: JobRunner,
  refs: readonly ResultReference[],
): Promise<CountedSummary> {
  const queries = await queriesOf(storage, runner, refs);
  const runId = await singleRunOf(storage, queries);
  if (runId !== null) return summarizeRun(storage, runId);
  return summarizeQueries(storage, queries.flat());
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
