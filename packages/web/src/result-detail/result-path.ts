import { queryString } from "../api/index.js";

/** The API path of one stored result: `GET /api/v2/results/{result_id}?db=<name>&run_id=<run>`. */
export function resultPath(db: string | null, resultId: string, runId?: string): string {
  return `/api/v2/results/${encodeURIComponent(resultId)}${queryString({ db, run_id: runId })}`;
}

/** The result a location hash links to: `#/benchmark?result=<id>&db=<name>&run_id=<run>`. */
export interface ResultLink {
  readonly resultId: string;
  readonly db: string | null;
  readonly runId?: string;
}

/**
 * The result named in the query part of a location hash, or null.
 * @example
 * resultLinkOf("#/benchmark?result=ccb35805790e357a&db=main"); // { resultId: "ccb35805790e357a", db: "main" }
 */
export function resultLinkOf(hash: string): ResultLink | null {
  const at = hash.indexOf("?");
  if (at < 0) return null;
  const params = new URLSearchParams(hash.slice(at + 1));
  const resultId = params.get("result");
  if (resultId === null || resultId === "") return null;
  const runId = params.get("run_id");
  return { resultId, db: params.get("db"), ...(runId === null || runId === "" ? {} : { runId }) };
}

/** The hash without its query part (what is left once the linked result is closed). */
export function hashWithoutResult(hash: string): string {
  const at = hash.indexOf("?");
  return at < 0 ? hash : hash.slice(0, at);
}

/** The hash of `base` (`#/benchmark`) linking to a result. */
export function resultLinkHash(base: string, link: ResultLink): string {
  return `${hashWithoutResult(base)}${queryString({ result: link.resultId, db: link.db, run_id: link.runId })}`;
}
