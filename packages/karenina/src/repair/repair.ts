/**
 * `karenina repair` (spec 06 §5.4): re-runs only the selected rows of a results file — from their saved answers
 * (replay mode: no answering call) or live — and splices the new rows in place of the old ones.
 */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { captureReplayStore } from "../agentic/index.js";
import type { Benchmark, BenchmarkRunOptions } from "../benchmark/index.js";
import { writeFileAtomic } from "../checkpoint/index.js";
import { ReplayStore } from "../llm/index.js";
import { modelIdentity, taskKey, type VerificationConfig } from "../pipeline/index.js";
import { canonicalKey, type VerificationResult, writeResultsJson } from "../results/index.js";
import { RepairError } from "./errors.js";
import {
  hasSelection,
  type RepairFiltersInput,
  RepairFiltersSchema,
  repairKey,
  selectRepairRows,
} from "./selection.js";

/** What to repair, and how. */
export interface RepairRequest {
  /** The results file the rows come from (named in the provenance; the default output). */
  readonly source: string;
  /** The source's rows, in file order. */
  readonly rows: readonly VerificationResult[];
  readonly benchmark: Benchmark;
  /** The run config (the preset): its models must include every selected row's answering and parsing model. */
  readonly config: VerificationConfig;
  /** `replay` (default): answers come from the selected rows' saved traces, only the judge runs; `live`: asked again. */
  readonly mode?: "replay" | "live";
  readonly filters: RepairFiltersInput;
  /** Where to write; default the source itself (a backup copy is made first). */
  readonly output?: string;
  /** Report what would be re-run; write nothing, call nothing. */
  readonly dryRun?: boolean;
  /** The clock of the backup and provenance stamps. */
  readonly now?: Date;
  /** Passed to the run (progress, concurrency caps, cache...). */
  readonly runOptions?: Omit<
    BenchmarkRunOptions,
    "replay" | "questionIds" | "questions" | "skipKeys" | "runName"
  >;
}

/** What a repair did (the original's outcome, camel-cased keys kept snake_case as it prints them). */
export interface RepairOutcome {
  source_path: string;
  output_path: string;
  backup_path: string | null;
  provenance_path: string | null;
  selected_count: number;
  replaced_count: number;
  mode: "replay" | "live";
  dry_run: boolean;
  /** `qid|ansKey|parseKey|replicate-or-none|run_name` of each selected row, in file order. */
  selected_keys: string[];
  /** Things the caller should know (e.g. a replayed row that has no saved answer). */
  warnings: string[];
}

/** The run name rows of a repair get when the selected rows have none (the original's). */
export const REPAIRED_RUN_NAME = "repaired_run";

/** `YYYYMMDDTHHMMSSZ` in UTC. */
export function repairStamp(now: Date): string {
  return `${now.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
}

const rowTaskKey = (row: VerificationResult) =>
  taskKey(
    row.metadata.question_id,
    canonicalKey(row.metadata.answering),
    canonicalKey(row.metadata.parsing),
    row.metadata.replicate,
  );

function sharedRunName(selected: readonly VerificationResult[]): string {
  const names = [...new Set(selected.map((row) => row.metadata.run_name))];
  if (names.length > 1)
    throw new RepairError(
      `the selected rows come from ${names.length} runs (${names.map((n) => n ?? "none").join(", ")}); repair one run at a time (narrow the filters)`,
    );
  return names[0] ?? REPAIRED_RUN_NAME;
}

/** The config's task keys for the selected questions; fails when a selected row's models or replicate are not in it. */
function plannedKeys(config: VerificationConfig, selected: readonly VerificationResult[]): Set<string> {
  const answerers = config.answering_models.map((m) => canonicalKey(modelIdentity(m, "answering")));
  const parsers = config.parsing_models.map((m) => canonicalKey(modelIdentity(m, "parsing")));
  const replicates: (number | null)[] =
    config.replicate_count <= 1 ? [null] : Array.from({ length: config.replicate_count }, (_, i) => i + 1);
  for (const row of selected) {
    const answering = canonicalKey(row.metadata.answering);
    const parsing = canonicalKey(row.metadata.parsing);
    if (!answerers.includes(answering))
      throw new RepairError(
        `the preset has no answering model ${answering} (of row ${repairKey(row)}); its answering models: ${answerers.join(", ")}`,
      );
    if (!parsers.includes(parsing))
      throw new RepairError(
        `the preset has no parsing model ${parsing} (of row ${repairKey(row)}); its parsing models: ${parsers.join(", ")}`,
      );
    if (!replicates.includes(row.metadata.replicate))
      throw new RepairError(
        `row ${repairKey(row)} has replicate ${row.metadata.replicate ?? "none"}, which a run with the preset's replicate_count ${config.replicate_count} does not make; use a preset with the source run's replicate count`,
      );
  }
  const keys = new Set<string>();
  for (const question of new Set(selected.map((row) => row.metadata.question_id)))
    for (const a of answerers)
      for (const p of parsers) for (const r of replicates) keys.add(taskKey(question, a, p, r));
  return keys;
}

/**
 * The answers of the selected rows as a strict replay store: the saved traces only — no parsed fields, no
 * verdict — so the judge parses and verifies each answer again, and a task whose answer was not saved fails
 * with a replay miss instead of calling the answering model.
 */
function tracesOnlyStore(selected: readonly VerificationResult[]): ReplayStore {
  const captured = captureReplayStore(selected, {
    includeParsed: false,
    includeAgentTraces: true,
    onlySuccessful: false,
  });
  const store = new ReplayStore({ missPolicy: "strict" });
  for (const { key, entry } of captured.entries())
    store.register(key, { ...entry, parsed_answer_fields: null, verify_result: null });
  return store;
}

function emptyAnswerWarnings(selected: readonly VerificationResult[]): string[] {
  return selected
    .filter((row) => (row.template?.raw_llm_response ?? "") === "")
    .map(
      (row) =>
        `${repairKey(row)} has no saved answer (its failure came before an answer was kept): replay judges an empty answer; repair it with --mode live`,
    );
}

async function sha256Of(path: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(path))
    .digest("hex");
}

/**
 * Re-runs the selected rows of a results file and writes the file with each of them replaced (spec 06 §5.4).
 * In place, the source is first copied to `<source>.backup_<stamp>`; a provenance sidecar
 * `<output>.repair_<stamp>.json` is always written. Unselected rows are written back unchanged.
 * @throws {RepairError} for duplicate rows, an empty selection, several runs, models or replicates the preset
 * lacks, or a rerun that does not give exactly one row per selected row (nothing is written then).
 */
export async function repairResults(request: RepairRequest): Promise<RepairOutcome> {
  const mode = request.mode ?? "replay";
  const filters = RepairFiltersSchema.parse(request.filters);
  if (!hasSelection(filters))
    throw new RepairError("give at least one filter (question id, model key, replicate, failure) or all");
  const indexes = selectRepairRows(request.rows, filters);
  const selected = indexes.map((index) => request.rows[index] as VerificationResult);
  const source = resolve(request.source);
  const output = resolve(request.output ?? request.source);
  const outcome: RepairOutcome = {
    source_path: source,
    output_path: output,
    backup_path: null,
    provenance_path: null,
    selected_count: selected.length,
    replaced_count: 0,
    mode,
    dry_run: request.dryRun ?? false,
    selected_keys: selected.map(repairKey),
    warnings: mode === "replay" ? emptyAnswerWarnings(selected) : [],
  };
  if (outcome.dry_run) return outcome;
  const runName = sharedRunName(selected);
  const wanted = new Map(selected.map((row, at) => [rowTaskKey(row), indexes[at] as number]));
  const skipKeys = plannedKeys(request.config, selected);
  for (const key of wanted.keys()) skipKeys.delete(key);
  const run = await request.benchmark.runVerification(request.config, {
    ...request.runOptions,
    questionIds: [...new Set(selected.map((row) => row.metadata.question_id))],
    skipKeys,
    runName,
    replay: mode === "replay" ? tracesOnlyStore(selected) : null,
  });
  const rows = [...request.rows];
  const replaced = new Set<string>();
  for (const row of run.results) {
    const key = rowTaskKey(row);
    const index = wanted.get(key);
    if (index === undefined || replaced.has(key))
      throw new RepairError(
        `the rerun gave a result no selected row asked for (${repairKey(row)}); nothing was written`,
      );
    replaced.add(key);
    rows[index] = row;
  }
  const missing = [...wanted.keys()].filter((key) => !replaced.has(key));
  if (missing.length > 0) {
    const reasons = run.failures
      .map(({ error }) => (error instanceof Error ? error.message : String(error)))
      .slice(0, 3);
    throw new RepairError(
      `the rerun gave no result for ${missing.length} selected row(s) (${missing.map((k) => k.replaceAll("\t", "|")).join(", ")})${reasons.length > 0 ? `: ${reasons.join("; ")}` : ""}; nothing was written`,
    );
  }
  const stamp = repairStamp(request.now ?? new Date());
  const sourceSha = await sha256Of(source);
  if (output === source) {
    const backup = `${source}.backup_${stamp}`;
    try {
      await copyFile(source, backup, constants.COPYFILE_EXCL);
    } catch (error) {
      throw new RepairError(
        `cannot make the backup ${backup} (${(error as NodeJS.ErrnoException).code}); the source is unchanged`,
      );
    }
    outcome.backup_path = backup;
  }
  await writeResultsJson(output, rows, {
    metadata: {
      job_id: "repair",
      job_summary: {
        total_questions: new Set(rows.map((row) => row.metadata.question_id)).size,
        is_complete: true,
      },
    },
    rubricDefinition: null,
  });
  outcome.replaced_count = replaced.size;
  outcome.provenance_path = `${output}.repair_${stamp}.json`;
  await writeFileAtomic(
    outcome.provenance_path,
    `${JSON.stringify(
      {
        schema_version: "1.0",
        timestamp: (request.now ?? new Date()).toISOString(),
        mode,
        source_path: source,
        output_path: output,
        backup_path: outcome.backup_path,
        source_sha256: sourceSha,
        selected_count: outcome.selected_count,
        replaced_count: outcome.replaced_count,
        selected_keys: outcome.selected_keys,
      },
      null,
      2,
    )}\n`,
  );
  return outcome;
}
