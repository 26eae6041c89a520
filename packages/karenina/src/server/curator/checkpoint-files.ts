import type { z } from "zod";
import { type Benchmark, readAnyCheckpoint } from "../../benchmark/index.js";
import type { Storage } from "../../storage/index.js";
import type { CheckpointImported } from "../api-types/curator.js";
import { ApiError } from "../core/index.js";
import { libraryCall } from "../databases/index.js";
import type { CheckpointImportSchema } from "./schemas.js";

/** A downloadable checkpoint: its file name and text. */
export interface CheckpointDownload {
  readonly fileName: string;
  readonly text: string;
}

/** `karenina_checkpoint_<YYYYMMDD_HHMMSS>.jsonld` (UTC), the original GUI's download name. */
export function checkpointFileName(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
  return `karenina_checkpoint_${stamp}.jsonld`;
}

/**
 * The stored benchmark as the library's own serializer writes it (deep-judgment settings kept, so the download
 * loads back into an equal benchmark with every setting the database holds).
 */
export async function checkpointDownload(storage: Storage, name: string): Promise<CheckpointDownload> {
  const bench = await libraryCall(() => storage.loadBenchmark(name));
  return { fileName: checkpointFileName(), text: bench.serialize({ saveDeepJudgmentConfig: true }) };
}

/**
 * Stores an uploaded checkpoint (JSON-LD, or the original GUI's legacy v2.0 file converted by the library),
 * read with a checkpoint file's limits. Under `request.name` when given, else the file's own name.
 * @throws {ApiError} 422 naming the file and the JSON path of the problem; 409 `benchmark_exists` unless replace.
 */
export async function importCheckpoint(
  storage: Storage,
  request: z.infer<typeof CheckpointImportSchema>,
): Promise<CheckpointImported> {
  const { benchmark, format } = await libraryCall(async () =>
    readAnyCheckpoint(request.content, { file: request.file_name || "upload" }),
  );
  if (request.name !== undefined) benchmark.name = request.name;
  const stored = await libraryCall(() => storage.listBenchmarks());
  if (!request.replace && stored.some((b) => b.name === benchmark.name)) {
    throw new ApiError(
      409,
      "benchmark_exists",
      `benchmark ${JSON.stringify(benchmark.name)} exists; send replace: true to overwrite it, or another name`,
      { name: benchmark.name },
    );
  }
  await libraryCall(() => storage.saveBenchmark(benchmark));
  return importedSummary(benchmark, format);
}

function importedSummary(bench: Benchmark, format: CheckpointImported["format"]): CheckpointImported {
  return {
    name: bench.name,
    format,
    question_count: bench.questionCount,
    finished_count: bench.finishedCount,
    with_template_count: bench.getQuestionIds().filter((id) => bench.hasTemplate(id)).length,
    has_global_rubric: bench.getGlobalRubric() !== null,
  };
}
