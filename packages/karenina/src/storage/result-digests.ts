import { sql } from "kysely";
import { RESULT_DIGEST_VERSION, resultDigest, type VerificationResult } from "../results/index.js";
import type { StorageContext } from "./context.js";
import { resultOfRow } from "./result-rows.js";
import { filteredResults, type ResultQuery } from "./results.js";

// Summaries and comparisons of stored runs read each row's digest (results/result-digest.ts), written when the
// row was saved from a validated result: a few hundred bytes of JSON, parsed without validation. A row without
// a digest of the current version (written by an older karenina, or one that did not validate at upgrade) is
// read whole, validated, and digested here.

/** One page of digests and where the next page starts. */
export interface DigestPage {
  readonly digests: VerificationResult[];
  /** The row id to read after; null when this was the last page. */
  readonly after: number | null;
}

/**
 * The digests (`resultDigest`) of the stored results matching a query, in saving order: `query.limit` rows
 * after row id `after` (keyset paging, so a page costs the same at the end of a large run as at its start).
 * `query.offset` skips that many more (for callers paging by offset).
 */
export async function loadResultDigestPage(
  ctx: StorageContext,
  query: ResultQuery,
  after: number,
): Promise<DigestPage> {
  const limit = query.limit ?? Number.MAX_SAFE_INTEGER;
  const current = sql<boolean>`r.digest_version = ${RESULT_DIGEST_VERSION} AND r.digest_json IS NOT NULL`;
  let select = filteredResults(ctx, query)
    .where("r.id", ">", after)
    .select((eb) => [
      "r.id",
      eb.case().when(current).then(1).else(0).end().as("has_digest"),
      eb
        .case()
        .when(current)
        .then(eb.ref("r.digest_json"))
        .else(sql<string>`CAST(r.result_json AS TEXT)`)
        .end()
        .as("json"),
    ])
    .orderBy("r.id")
    .limit(limit);
  if (query.offset !== undefined) select = select.offset(query.offset);
  const rows = await select.execute();
  const digests = rows.map((row) =>
    Number(row.has_digest) === 1
      ? (JSON.parse(String(row.json)) as VerificationResult)
      : resultDigest(resultOfRow(String(row.json), `${ctx.database}: verification_results row ${row.id}`)),
  );
  const last = rows.at(-1);
  return { digests, after: rows.length < limit || last === undefined ? null : Number(last.id) };
}
