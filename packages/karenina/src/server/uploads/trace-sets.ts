import { readFile } from "node:fs/promises";
import { type ManualTraces, parseManualTraces } from "../../llm/index.js";
import type { UploadStore } from "./upload-store.js";

/**
 * The manual traces of an uploaded trace set (`POST /api/v2/traces`), for the job that names it: each job reads
 * its own set, there is no process-wide trace manager (spec 07 §2.5).
 * @throws {UploadNotFoundError} for an unknown or expired set.
 * @throws {ManualTraceError} when the stored file is no longer valid.
 */
export async function readTraceSet(store: UploadStore, id: string): Promise<ManualTraces> {
  const stored = await store.get(id, "manual_traces");
  return parseManualTraces(await readFile(stored.path, "utf8"), stored.info.filename);
}
