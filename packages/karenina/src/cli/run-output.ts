import { rm, stat } from "node:fs/promises";
import { extname } from "node:path";
import type { Rubric } from "../model/index.js";
import { readRunLog, runStatePath } from "../pipeline/index.js";
import {
  isVerificationResult,
  jsonlToResultsJson,
  type ResultsExportMetadata,
  type VerificationResult,
  writeResultsCsv,
} from "../results/index.js";
import { CliUsageError } from "./cli-io.js";

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

/**
 * Refuses to start a new run on a run log that already holds something: a new run would be appended to it,
 * mixing two runs in one file. Continuing that run is `--resume`'s job (`canResume`: the command has it); an
 * empty or missing file is fine.
 * @throws {CliUsageError} saying how many results the file holds and what to do instead.
 */
export async function refuseToAppend(output: RunOutput, canResume = true): Promise<void> {
  const size = await stat(output.runLog).then(
    (info) => info.size,
    () => 0,
  );
  if (size === 0) return;
  const { results } = await readRunLog(output.runLog, { accept: isVerificationResult });
  const instead = "choose another --output file (or remove that one)";
  if (results.length === 0) {
    throw new CliUsageError(
      `${output.runLog} is not empty and holds no verification result; a run appends to its run log, so ${instead}`,
    );
  }
  const held = `${output.runLog} already holds ${results.length} result${results.length === 1 ? "" : "s"} of an earlier run`;
  throw new CliUsageError(
    canResume
      ? `${held}. Pass --resume to continue that run (the tasks it finished are skipped), or ${instead} to start a new one`
      : `${held}: ${instead}`,
  );
}

/**
 * Empties a run log for a new run, and removes its state file (`karenina demo` does this to its own log).
 * @returns how many results the log held.
 */
export async function clearRunLog(output: RunOutput): Promise<number> {
  const { results } = await readRunLog(output.runLog, { accept: isVerificationResult });
  await rm(output.runLog, { force: true });
  await rm(runStatePath(output.runLog), { force: true });
  return results.length;
}

/** Writes the export of a completed run from its run log, then removes the run log and its state file. */
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
  await rm(runStatePath(output.runLog), { force: true });
}
