import {
  type ModelComparison,
  ModelComparisonBuilder,
  type ModelComparisonOptions,
  type VerificationResult,
} from "../../results/index.js";
import type { Storage } from "../../storage/index.js";
import type { JobRunner } from "../jobs/index.js";
import {
  forEachDigestPage,
  queriesOf,
  type ResultReference,
  yieldToEventLoop,
} from "./results-by-reference.js";

/** Result ids per query when reading the full rows of the heatmap's cells. */
const IDS_PER_QUERY = 500;

/**
 * The model comparison (`ModelComparisonBuilder`, spec 07 §2.2) of the stored results of the references. Rows
 * are read as digests a page at a time; the heatmap's cells (one row per question, model and replicate) then
 * have their full rows read by result id, because digests lack `abstention_detected` and
 * `sufficiency_detected`. Memory: one digest per cell, and token counts per question and model.
 * @throws ApiError 404 for an unknown job or run name (before any row is read)
 * @throws ModelComparisonError when no row passes the filters or none belongs to the models
 */
export async function compareModelsByReference(
  storage: Storage,
  runner: JobRunner,
  refs: readonly ResultReference[],
  options: ModelComparisonOptions,
): Promise<{ comparison: ModelComparison; result_count: number }> {
  const builder = new ModelComparisonBuilder(options);
  const queries = (await queriesOf(storage, runner, refs)).flat();
  let count = 0;
  await forEachDigestPage(storage, queries, (digests) => {
    builder.add(digests);
    count += digests.length;
  });
  const ids = [...new Set(builder.keptRows().map((row) => row.metadata.result_id))];
  for (const query of queries) {
    for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
      const full: VerificationResult[] = await storage.loadResults({
        ...query,
        resultIds: ids.slice(start, start + IDS_PER_QUERY),
      });
      builder.useFullRows(full);
      await yieldToEventLoop();
    }
  }
  return { comparison: builder.finish(), result_count: count };
}
