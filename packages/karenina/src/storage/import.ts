import { randomUUID } from "node:crypto";
import { describeValue } from "../errors/index.js";
import { questionIdFromText, questionUrn } from "../model/index.js";
import {
  parseVerificationResult,
  ResultsFileError,
  summarizeResults,
  type VerificationResult,
} from "../results/index.js";
import { benchmarkId } from "./benchmarks.js";
import { inTransaction, nowIso, type StorageContext } from "./context.js";
import { type ResultToStore, upsertResults } from "./results.js";
import { saveRunSummaryIn } from "./run-summaries.js";
import { jsonOrNull } from "./schema.js";

/** The results export versions {@link importVerificationResults} reads. */
export const IMPORT_FORMAT_VERSIONS = ["2.0", "2.1", "2.2"] as const;

/** Options of {@link importVerificationResults}. */
export interface ImportOptions {
  /** A benchmark already stored; results of questions it does not hold are skipped. */
  readonly benchmarkName: string;
  /** Defaults to `import_<first 8 characters of the new run id>`. */
  readonly runName?: string;
  /** The file the export came from: recorded, and named in errors. */
  readonly sourceFilename?: string;
}

/** What an import stored: a new completed run with `imported` results; `skipped` rows were not stored. */
export interface ImportOutcome {
  readonly runId: string;
  readonly runName: string;
  readonly imported: number;
  readonly skipped: number;
}

/** A results export, checked. */
interface ExportToImport {
  readonly formatVersion: string;
  readonly metadata: Record<string, unknown>;
  readonly rubricDefinition: unknown;
  readonly results: VerificationResult[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

function parseText(text: string, source: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new ResultsFileError(source, `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Checks an export's envelope (format 2.0 to 2.2, a non-empty `results` array) and validates every row.
 * @throws {ResultsFileError} naming the source and the JSON path at fault; `VerificationResultError` for a row.
 */
export function readExport(input: string | object, source: string): ExportToImport {
  const json = typeof input === "string" ? parseText(input, source) : input;
  if (!isObject(json)) {
    throw new ResultsFileError(source, `$: expected a results export object, found ${describeValue(json)}`);
  }
  const version = json.format_version;
  if (!(IMPORT_FORMAT_VERSIONS as readonly unknown[]).includes(version)) {
    const expected = IMPORT_FORMAT_VERSIONS.map((v) => `"${v}"`).join(", ");
    throw new ResultsFileError(
      source,
      `$.format_version: expected one of ${expected}, found ${describeValue(version)}`,
    );
  }
  const rows = json.results;
  if (!Array.isArray(rows) || rows.length === 0) {
    throw new ResultsFileError(
      source,
      `$.results: expected a non-empty array of results, found ${describeValue(rows)}`,
    );
  }
  const shared = isObject(json.shared_data) ? json.shared_data : {};
  return {
    formatVersion: version as string,
    metadata: isObject(json.metadata) ? json.metadata : {},
    rubricDefinition: shared.rubric_definition ?? null,
    results: rows.map((row, index) => parseVerificationResult(row, `${source}: $.results[${index}]`)),
  };
}

/** Ids a result's question may have in a benchmark: its own, with or without `urn:uuid:`, or from its text. */
function candidateIds(result: VerificationResult): string[] {
  const { question_id: id, question_text: text } = result.metadata;
  const bare = id.startsWith("urn:uuid:") ? id.slice("urn:uuid:".length) : id;
  return [id, `urn:uuid:${bare}`, bare, questionUrn(text), questionIdFromText(text)];
}

/** The rows to store (first of each `result_id`, matched to a benchmark question) and how many were not. */
export function matchResults(
  results: readonly VerificationResult[],
  benchmarkQuestions: ReadonlySet<string>,
): { toStore: ResultToStore[]; skipped: number } {
  const seen = new Set<string>();
  const toStore: ResultToStore[] = [];
  for (const result of results) {
    const questionId = candidateIds(result).find((id) => benchmarkQuestions.has(id));
    if (questionId === undefined || seen.has(result.metadata.result_id)) continue;
    seen.add(result.metadata.result_id);
    toStore.push({ result, questionId });
  }
  return { toStore, skipped: results.length - toStore.length };
}

/** An export's epoch-seconds time as ISO text, or null. */
function isoOfEpoch(value: unknown): string | null {
  return typeof value === "number" && Number.isFinite(value) ? new Date(value * 1000).toISOString() : null;
}

async function questionIdsOf(ctx: StorageContext, benchmark: number): Promise<Set<string>> {
  const rows = await ctx.db
    .selectFrom("benchmark_questions")
    .select("question_id")
    .where("benchmark_id", "=", benchmark)
    .execute();
  return new Set(rows.map((row) => row.question_id));
}

/**
 * Imports a JSON results export (format 2.0 to 2.2, spec 06 §4.4) into a new completed run of a stored
 * benchmark, marked imported (`RunInfo.isImported`), with an `import_metadata` record, in one transaction. Results whose question the benchmark does
 * not hold (matched by id, `urn:uuid:` id, or text) and repeated result ids are skipped; each stored result is
 * kept exactly as in the file.
 * @throws {ResultsFileError} for a file that is not such an export; `StorageNotFoundError` for an unknown benchmark.
 */
export async function importVerificationResults(
  ctx: StorageContext,
  input: string | object,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const source = options.sourceFilename ?? "<results export>";
  const file = readExport(input, source);
  const runId = randomUUID();
  const runName = options.runName ?? `import_${runId.slice(0, 8)}`;
  const now = nowIso();
  const summary = isObject(file.metadata.job_summary) ? file.metadata.job_summary : {};
  const outcome = await inTransaction(ctx, async (tx) => {
    const benchmark = await benchmarkId(tx, options.benchmarkName);
    const { toStore, skipped } = matchResults(file.results, await questionIdsOf(tx, benchmark));
    await tx.db
      .insertInto("verification_runs")
      .values({
        id: runId,
        benchmark_id: benchmark,
        run_name: runName,
        status: "completed",
        config: jsonOrNull(file.metadata.verification_config),
        total_questions: new Set(toStore.map((r) => r.questionId)).size,
        processed_count: 0,
        successful_count: 0,
        failed_count: 0,
        start_time: isoOfEpoch(summary.start_time) ?? now,
        end_time: isoOfEpoch(summary.end_time) ?? now,
        error_message: null,
        summary_stats: JSON.stringify(summary),
        created_at: now,
        updated_at: now,
        is_imported: tx.dialect.bool(true),
      })
      .execute();
    await tx.db
      .insertInto("import_metadata")
      .values({
        run_id: runId,
        import_source: "json_file",
        source_format_version: file.formatVersion,
        source_filename: options.sourceFilename ?? null,
        source_job_id: stringOrNull(file.metadata.job_id),
        source_export_timestamp: stringOrNull(file.metadata.export_timestamp),
        source_karenina_version: stringOrNull(file.metadata.karenina_version),
        results_count: toStore.length,
        shared_rubric_definition: jsonOrNull(file.rubricDefinition),
        created_at: now,
      })
      .execute();
    await upsertResults(tx, runId, toStore);
    // The run is complete as imported: its summary is stored with it (rows are saved in this order).
    const results = toStore.map((r) => r.result);
    await saveRunSummaryIn(tx, runId, summarizeResults(results), results.length);
    return { imported: toStore.length, skipped };
  });
  return { runId, runName, ...outcome };
}
