import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { RESULT_DIGEST_VERSION, resultDigest, type VerificationResult } from "../results/index.js";
import { chunks, type StorageContext } from "./context.js";
import {
  DIGEST_READER_SOURCE,
  READER_CONTROL,
  type ReaderData,
  type ReaderMessage,
} from "./digest-reader-source.js";
import { resultOfRow } from "./result-rows.js";
import { filteredResults, type ResultQuery } from "./results.js";

// Summaries and comparisons of stored runs read each row's digest (results/result-digest.ts), written to the
// narrow result_digests table when the row was saved from a validated result: a few hundred bytes of JSON,
// parsed without validation. A row without a digest of the current version (written by an older karenina, or
// one that did not validate at upgrade) is read whole, validated, and digested here.

/** One page of digests and where the next page starts. */
export interface DigestPage {
  readonly digests: VerificationResult[];
  /** The row id to read after; null when this was the last page. */
  readonly after: number | null;
  /** The row id of the page's last result (null when the page is empty): where a reader polling for new rows goes on. */
  readonly last: number | null;
}

/** A row of the digest query: the results row's id and its digest, when it has one. */
interface DigestRow {
  readonly id: number;
  readonly digest_version: number | null;
  readonly digest_json: string | null;
}

/**
 * The digest rows of the results matching a query, in saving order. The page's row ids come first (a subquery
 * with a limit, which SQLite does not merge into the join), then their digests: a run name may match several
 * runs, and SQLite then sorts the matching rows by id; sorting ids from an index costs little, sorting every
 * digest did not.
 */
function digestRowsQuery(ctx: StorageContext, query: ResultQuery, after: number) {
  let ids = filteredResults(ctx, query)
    .where("r.id", ">", after)
    .select("r.id")
    .orderBy("r.id")
    .limit(query.limit ?? Number.MAX_SAFE_INTEGER);
  if (query.offset !== undefined) ids = ids.offset(query.offset);
  return ctx.db
    .selectFrom(ids.as("p"))
    .leftJoin("result_digests as d", "d.result_pk", "p.id")
    .select(["p.id", "d.digest_version", "d.digest_json"])
    .orderBy("p.id");
}

/** The whole stored results of rows by id (for the rows that have no current digest). */
async function resultJsonOf(ctx: StorageContext, ids: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const slice of chunks(ids)) {
    const rows = await ctx.db
      .selectFrom("verification_results")
      .select(["id", "result_json"])
      .where("id", "in", slice)
      .execute();
    for (const row of rows) out.set(Number(row.id), String(row.result_json));
  }
  return out;
}

/** The digests of digest rows: parsed when current, else computed from the validated whole row. */
async function digestsOf(ctx: StorageContext, rows: readonly DigestRow[]): Promise<VerificationResult[]> {
  const current = (row: DigestRow) =>
    row.digest_json !== null && Number(row.digest_version) === RESULT_DIGEST_VERSION;
  const missing = rows.filter((row) => !current(row)).map((row) => Number(row.id));
  const whole = missing.length === 0 ? new Map<number, string>() : await resultJsonOf(ctx, missing);
  return rows.map((row) =>
    current(row)
      ? (JSON.parse(String(row.digest_json)) as VerificationResult)
      : wholeRowDigest(ctx, whole, Number(row.id)),
  );
}

/** The digest of a row without a current one, from its validated whole result. */
function wholeRowDigest(
  ctx: StorageContext,
  whole: ReadonlyMap<number, string>,
  id: number,
): VerificationResult {
  return resultDigest(
    resultOfRow(whole.get(id) ?? "null", `${ctx.database}: verification_results row ${id}`),
  );
}

/**
 * The digests of a page the reader thread posted: its current digests, parsed as one JSON array, with the
 * digests of its stale rows (by index in the page) computed from their whole results.
 */
async function digestsOfPosted(
  ctx: StorageContext,
  page: { readonly ids: readonly number[]; readonly stale: readonly number[]; readonly digests: string },
): Promise<VerificationResult[]> {
  const current = JSON.parse(page.digests) as VerificationResult[];
  if (page.stale.length === 0) return current;
  const staleIds = page.stale.map((index) => page.ids[index] as number);
  const whole = await resultJsonOf(ctx, staleIds);
  const out: VerificationResult[] = [];
  let next = 0;
  for (const [at, index] of page.stale.entries()) {
    while (out.length < index) out.push(current[next++] as VerificationResult);
    out.push(wholeRowDigest(ctx, whole, staleIds[at] as number));
  }
  while (next < current.length) out.push(current[next++] as VerificationResult);
  return out;
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
  const rows = await digestRowsQuery(ctx, { ...query, limit }, after).execute();
  const digests = await digestsOf(ctx, rows);
  const last = rows.at(-1);
  const lastId = last === undefined ? null : Number(last.id);
  return { digests, after: rows.length < limit ? null : lastId, last: lastId };
}

/** Pages a reader thread may read ahead of the one being handled. */
const READ_AHEAD = 3;

/**
 * Every digest of the results matching a query (its `limit` and `offset` ignored), in saving order, `pageSize`
 * at a time. Reading overlaps the caller's work on the previous page: a SQLite file is read by a thread with
 * its own read-only connection (one statement, one snapshot), which posts the digests' text; PostgreSQL (and
 * an in-memory SQLite database) is read by keyset pages, the next one asked for before this one is handed over.
 * The event loop is free while the next page is awaited.
 */
export function readResultDigests(
  ctx: StorageContext,
  query: ResultQuery,
  pageSize: number,
): AsyncGenerator<VerificationResult[]> {
  const { limit: _limit, offset: _offset, ...all } = query;
  return ctx.sqliteFile === undefined
    ? prefetchedPages(ctx, all, pageSize)
    : threadPages(ctx, ctx.sqliteFile, all, pageSize);
}

async function* prefetchedPages(
  ctx: StorageContext,
  query: ResultQuery,
  pageSize: number,
): AsyncGenerator<VerificationResult[]> {
  const load = (after: number) => {
    const page = loadResultDigestPage(ctx, { ...query, limit: pageSize }, after);
    // Awaited below; a page asked for and then abandoned (the caller stopped) must not go unhandled.
    page.catch(() => {});
    return page;
  };
  let next = load(0);
  for (;;) {
    const page = await next;
    if (page.after !== null) next = load(page.after);
    if (page.digests.length > 0) yield page.digests;
    if (page.after === null) return;
  }
}

async function* threadPages(
  ctx: StorageContext,
  file: string,
  query: ResultQuery,
  pageSize: number,
): AsyncGenerator<VerificationResult[]> {
  const compiled = digestRowsQuery(ctx, query, 0).compile();
  const control = new Int32Array(new SharedArrayBuffer(READER_CONTROL.LENGTH * Int32Array.BYTES_PER_ELEMENT));
  const data: ReaderData = {
    driver: createRequire(import.meta.url).resolve("better-sqlite3"),
    file,
    sql: compiled.sql,
    parameters: compiled.parameters,
    version: RESULT_DIGEST_VERSION,
    pageSize,
    ahead: READ_AHEAD,
    control,
  };
  const worker = new Worker(DIGEST_READER_SOURCE, { eval: true, workerData: data, execArgv: [] });
  const inbox: ReaderMessage[] = [];
  let wake: (() => void) | null = null;
  const deliver = (message: ReaderMessage) => {
    inbox.push(message);
    wake?.();
  };
  worker.on("message", deliver);
  worker.on("error", (error) => deliver({ error: error.message }));
  worker.on("exit", () => deliver({ error: "the digest reader thread ended before its last page" }));
  try {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      const message = inbox.shift() as ReaderMessage;
      if ("done" in message) return;
      if ("error" in message) throw new Error(`reading result digests: ${message.error}`);
      yield await digestsOfPosted(ctx, message);
      Atomics.add(control, READER_CONTROL.CONSUMED, 1);
      Atomics.notify(control, READER_CONTROL.CONSUMED);
    }
  } finally {
    Atomics.store(control, READER_CONTROL.CANCELLED, 1);
    Atomics.notify(control, READER_CONTROL.CONSUMED);
    worker.removeAllListeners("exit");
    await worker.terminate();
  }
}
