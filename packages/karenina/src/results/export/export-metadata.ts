import { readFileSync } from "node:fs";
import { z } from "zod";
import { ownValue, setOwn } from "../../plain-data/index.js";
import { rowKey } from "../row-key.js";
import type { VerificationResult } from "../verification-result.js";

/** A model as the export header lists it (the original's `{provider, name, temperature, interface}`). */
export const ExportModelSummarySchema = z.looseObject({
  provider: z.string().nullable(),
  name: z.string(),
  temperature: z.number().nullable(),
  interface: z.string(),
});
export type ExportModelSummary = z.output<typeof ExportModelSummarySchema>;

/** The models of the run: `{answering_models, parsing_models}`. */
export const ExportVerificationConfigSchema = z.looseObject({
  answering_models: z.array(ExportModelSummarySchema),
  parsing_models: z.array(ExportModelSummarySchema),
});
export type ExportVerificationConfig = z.output<typeof ExportVerificationConfigSchema>;

/**
 * The job's counts and times. Times are epoch seconds (written as floats); `total_duration` is
 * `end_time − start_time` when not given; `is_complete` tells a final export from an in-progress snapshot.
 * Fields left out are derived from the rows when exporting (see {@link ResultsExportMetadata}).
 */
export const JobSummarySchema = z.looseObject({
  total_questions: z.int().min(0).optional(),
  successful_count: z.int().min(0).optional(),
  failed_count: z.int().min(0).optional(),
  start_time: z.number().nullable().optional(),
  end_time: z.number().nullable().optional(),
  total_duration: z.number().nullable().optional(),
  is_complete: z.boolean().optional(),
});
export type JobSummary = z.output<typeof JobSummarySchema>;

/**
 * The `metadata` object of a JSON v2.2 export (spec 06 §2.1). Only `job_id` is required when exporting:
 * `export_timestamp` defaults to now (`YYYY-MM-DD HH:MM:SS UTC`), `karenina_version` to this package's
 * version, and `verification_config` / missing `job_summary` counts are derived from the rows (models
 * without provider and temperature; `total_questions` = distinct tasks, counts from each task's latest
 * row, no times, `is_complete: true`). Other keys are kept, after the known ones.
 */
export const ResultsExportMetadataSchema = z.looseObject({
  export_timestamp: z.string().optional(),
  karenina_version: z.string().optional(),
  job_id: z.string(),
  verification_config: ExportVerificationConfigSchema.optional(),
  job_summary: JobSummarySchema.optional(),
});
export type ResultsExportMetadata = z.input<typeof ResultsExportMetadataSchema>;

/** The time of an export as the original writes it: `2026-04-21 12:00:00 UTC`. */
export function exportTimestamp(date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * The file name the original suggests for an export (spec 06 §2.1):
 * `verification_results_<UTC YYYYMMDD_HHMMSS>_<ansProvider>_<ansModel>_to_<parseProvider>_<parseModel>.<ext>`,
 * from the first answering and parsing model, `/` replaced by `_`, a missing provider as `unknown`.
 * @example
 * const model = { provider: "openai", name: "gpt-4o", temperature: 0.1, interface: "langchain" };
 * const judge = { provider: null, name: "meta/llama-3", temperature: 0, interface: "openai_endpoint" };
 * suggestedExportFilename({ answering_models: [model], parsing_models: [judge] }, "json", new Date(Date.UTC(2026, 3, 21, 9, 5, 7)));
 * // "verification_results_20260421_090507_openai_gpt-4o_to_unknown_meta_llama-3.json"
 */
export function suggestedExportFilename(
  config: ExportVerificationConfig,
  extension: string,
  now: Date = new Date(),
): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "_");
  const part = (model: ExportModelSummary | undefined) =>
    `${model?.provider ?? "unknown"}_${model?.name ?? "unknown"}`.replaceAll("/", "_");
  const models = `${part(config.answering_models[0])}_to_${part(config.parsing_models[0])}`;
  return `verification_results_${stamp}_${models}.${extension}`;
}

let version: string | undefined;

/** This package's version, read once from its package.json (`"unknown"` if it cannot be read). */
export function packageVersion(): string {
  if (version !== undefined) return version;
  let found = "unknown";
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    if (typeof pkg.version === "string") found = pkg.version;
  } catch {
    // a bundled copy without its package.json: the version stays "unknown"
  }
  version = found;
  return found;
}

/** Whether the header can be written without looking at the rows. */
export function needsRows(metadata: ResultsExportMetadata): boolean {
  const summary = metadata.job_summary;
  return (
    metadata.verification_config === undefined ||
    summary?.total_questions === undefined ||
    summary.successful_count === undefined ||
    summary.failed_count === undefined
  );
}

/** What the header derives from the rows, gathered one row at a time (memory: one entry per task and model). */
export class RowFacts {
  readonly #latestSuccess = new Map<string, boolean>();
  readonly #answering = new Map<string, ExportModelSummary>();
  readonly #parsing = new Map<string, ExportModelSummary>();

  add(row: VerificationResult): void {
    const { metadata } = row;
    const key = rowKey(row);
    this.#latestSuccess.set(key, metadata.failure === null);
    for (const [models, identity] of [
      [this.#answering, metadata.answering],
      [this.#parsing, metadata.parsing],
    ] as const) {
      const id = `${identity.interface}:${identity.model_name}`;
      if (!models.has(id))
        models.set(id, {
          provider: null,
          name: identity.model_name,
          temperature: null,
          interface: identity.interface,
        });
    }
  }

  get tasks(): number {
    return this.#latestSuccess.size;
  }

  get successful(): number {
    let count = 0;
    for (const success of this.#latestSuccess.values()) if (success) count++;
    return count;
  }

  get verificationConfig(): ExportVerificationConfig {
    return { answering_models: [...this.#answering.values()], parsing_models: [...this.#parsing.values()] };
  }
}

const ordered = (
  value: Record<string, unknown>,
  keys: readonly string[],
  filled: Record<string, unknown>,
) => {
  const out: Record<string, unknown> = {};
  for (const key of keys) setOwn(out, key, Object.hasOwn(filled, key) ? filled[key] : ownValue(value, key));
  for (const [key, entry] of Object.entries(value)) if (!Object.hasOwn(out, key)) setOwn(out, key, entry);
  return out;
};

const MODEL_KEYS = ["provider", "name", "temperature", "interface"] as const;

function orderedConfig(config: ExportVerificationConfig): Record<string, unknown> {
  const models = (list: readonly ExportModelSummary[]) => list.map((model) => ordered(model, MODEL_KEYS, {}));
  return ordered(config, ["answering_models", "parsing_models"], {
    answering_models: models(config.answering_models),
    parsing_models: models(config.parsing_models),
  });
}

/**
 * The header's `metadata` in the original's key order, defaults and derived values filled in. `facts` is
 * needed when {@link needsRows} says so.
 */
export function completeMetadata(
  metadata: ResultsExportMetadata,
  facts: RowFacts | null,
  now: Date = new Date(),
): Record<string, unknown> {
  const summary = metadata.job_summary ?? {};
  const start = summary.start_time ?? null;
  const end = summary.end_time ?? null;
  const successful = summary.successful_count ?? facts?.successful ?? 0;
  const tasks = facts?.tasks ?? 0;
  const filledSummary = {
    total_questions: summary.total_questions ?? tasks,
    successful_count: successful,
    failed_count: summary.failed_count ?? tasks - (facts?.successful ?? 0),
    start_time: start,
    end_time: end,
    total_duration:
      summary.total_duration !== undefined
        ? summary.total_duration
        : start !== null && end !== null
          ? end - start
          : null,
    is_complete: summary.is_complete ?? true,
  };
  const config = metadata.verification_config ??
    facts?.verificationConfig ?? { answering_models: [], parsing_models: [] };
  return ordered(
    metadata,
    ["export_timestamp", "karenina_version", "job_id", "verification_config", "job_summary"],
    {
      export_timestamp: metadata.export_timestamp ?? exportTimestamp(now),
      karenina_version: metadata.karenina_version ?? packageVersion(),
      verification_config: orderedConfig(config),
      job_summary: ordered(summary, Object.keys(filledSummary), filledSummary),
    },
  );
}
