import { rm } from "node:fs/promises";
import { extname } from "node:path";
import type { Rubric } from "../model/index.js";
import { readRunLog } from "../pipeline/index.js";
import {
  isVerificationResult,
  jsonlToResultsJson,
  type ResultsExportMetadata,
  type VerificationResult,
  writeResultsCsv,
} from "../results/index.js";

/** Where `verify` writes: the JSONL run log it appends to as results finish, and the export made at the end. */
export interface RunOutput {
  /** The run log: `--output` itself for `.jsonl` (or any other extension), a sidecar for `.json` / `.csv`. */
  runLog: string;
  /** The export written when the run completes, or null when the run log is the output. */
  export: { path: string; format: "json" | "csv" } | null;
}

/**
 * The files of `--output FILE`: a `.json` (format v2.2) or `.csv` export is written when the run completes,
 * from the run log `FILE.results.jsonl` kept beside it while the run goes (and kept for `--resume` when the
 * run is interrupted, as the original's progressive save does); any other name is the JSONL run log itself.
 * @example
 * runOutput("run.json"); // { runLog: "run.json.results.jsonl", export: { path: "run.json", format: "json" } }
 * runOutput("run.jsonl"); // { runLog: "run.jsonl", export: null }
 */
export function runOutput(path: string): RunOutput {
  const extension = extname(path).toLowerCase();
  if (extension !== ".json" && extension !== ".csv") return { runLog: path, export: null };
  return {
    runLog: `${path}.results.jsonl`,
    export: { path, format: extension === ".json" ? "json" : "csv" },
  };
}

/** Writes the export of a completed run from its run log, then removes the run log. */
export async function writeRunExport(
  output: RunOutput,
  metadata: ResultsExportMetadata,
  globalRubric: Rubric | null,
): Promise<void> {
  if (output.export === null) return;
  if (output.export.format === "json") {
    await jsonlToResultsJson(output.runLog, output.export.path, metadata);
  } else {
    const { results } = await readRunLog<VerificationResult>(output.runLog, { accept: isVerificationResult });
    await writeResultsCsv(output.export.path, results, {
      metadata,
      ...(globalRubric === null ? {} : { globalRubric }),
    });
  }
  await rm(output.runLog, { force: true });
}
