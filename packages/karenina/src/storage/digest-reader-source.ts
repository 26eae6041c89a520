/**
 * The digest reader thread: plain JavaScript run with `new Worker(source, { eval: true })`, so the same text
 * works from compiled code and from TypeScript sources under Vitest. It opens the SQLite file read-only with
 * its own connection, runs the one query it is given (compiled by the host) and posts its rows a page at a
 * time: `{ ids, stale, digests }`, then `{ done: true }`, or `{ error }`. `digests` is the JSON array of the
 * page's current digests (of version `version`), joined here so that the host copies one string and parses it
 * with one `JSON.parse`; `stale` lists the indexes in the page of the rows without a current digest. One
 * statement reads the whole run from one snapshot, in saving order.
 *
 * Flow control: `control[CONSUMED]` is the number of pages the host has handled; the thread posts at most
 * `ahead` pages beyond it, sleeping in `Atomics.wait` meanwhile, and stops when `control[CANCELLED]` is set.
 */

/** Slots of the shared `Int32Array`. */
export const READER_CONTROL = { CONSUMED: 0, CANCELLED: 1, LENGTH: 2 } as const;

/** What the host gives the thread (as `workerData`). */
export interface ReaderData {
  /** The resolved path of the better-sqlite3 module. */
  readonly driver: string;
  readonly file: string;
  readonly sql: string;
  /** `RESULT_DIGEST_VERSION`: a digest of another version is stale. */
  readonly version: number;
  readonly parameters: readonly unknown[];
  readonly pageSize: number;
  readonly ahead: number;
  readonly control: Int32Array;
}

/** A message of the thread. */
export type ReaderMessage =
  | { readonly ids: number[]; readonly stale: number[]; readonly digests: string }
  | { readonly done: true }
  | { readonly error: string };

export const DIGEST_READER_SOURCE = `
"use strict";
const { workerData, parentPort } = require("node:worker_threads");
const { driver, file, sql, parameters, version, pageSize, ahead, control } = workerData;
const CONSUMED = ${READER_CONTROL.CONSUMED};
const CANCELLED = ${READER_CONTROL.CANCELLED};
let db;
try {
  const Database = require(driver);
  db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 30000");
  const statement = db.prepare(sql).raw(true);
  let sent = 0;
  let ids = [];
  let stale = [];
  let texts = [];
  const post = () => {
    parentPort.postMessage({ ids, stale, digests: "[" + texts.join(",") + "]" });
    sent++;
    ids = [];
    stale = [];
    texts = [];
    for (;;) {
      if (Atomics.load(control, CANCELLED) === 1) return false;
      const consumed = Atomics.load(control, CONSUMED);
      if (sent - consumed < ahead) return true;
      Atomics.wait(control, CONSUMED, consumed, 1000);
    }
  };
  let going = true;
  for (const row of statement.iterate(...parameters)) {
    if (row[2] !== null && Number(row[1]) === version) texts.push(row[2]);
    else stale.push(ids.length);
    ids.push(Number(row[0]));
    if (ids.length === pageSize && !(going = post())) break;
  }
  if (going && ids.length > 0) going = post();
  if (going) parentPort.postMessage({ done: true });
} catch (error) {
  parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
} finally {
  if (db) db.close();
}
`;
