import { z } from "zod";
import { type ExportVerificationConfig, suggestedExportFilename } from "../../results/index.js";
import type { Storage } from "../../storage/index.js";

/** A model of a job's stored (keys masked) VerificationConfig, as far as the export header needs it. */
const StoredModelSchema = z.looseObject({
  model_name: z.string(),
  model_provider: z.string().nullish(),
  temperature: z.number().nullish(),
  interface: z.string(),
});

const StoredConfigSchema = z.looseObject({
  config: z.looseObject({
    answering_models: z.array(StoredModelSchema),
    parsing_models: z.array(StoredModelSchema),
  }),
});

const summaryOf = (model: z.output<typeof StoredModelSchema>) => ({
  provider: model.model_provider ?? null,
  name: model.model_name,
  temperature: model.temperature ?? null,
  interface: model.interface,
});

/**
 * The export header's `verification_config` of a job (spec 06 §2.1: its models with provider and temperature),
 * read from the job's stored input; undefined when the job has none (the export then derives the models from
 * the rows, without provider or temperature).
 */
export async function exportModelsOfJob(
  storage: Storage,
  jobId: string,
): Promise<ExportVerificationConfig | undefined> {
  const job = await storage.getJob(jobId);
  const parsed = StoredConfigSchema.safeParse(job?.input);
  if (!parsed.success) return undefined;
  return {
    answering_models: parsed.data.config.answering_models.map(summaryOf),
    parsing_models: parsed.data.config.parsing_models.map(summaryOf),
  };
}

/** Characters that cannot stand in a quoted `Content-Disposition` file name: all but printable ASCII, quote, backslash. */
const UNSAFE_IN_HEADER = /[^\x20-\x7e]|["\\]/gu;

/**
 * The download name of a job's export (spec 06 §2.1, `suggestedExportFilename`):
 * `verification_results_<UTC YYYYMMDD_HHMMSS>_<provider>_<model>_to_<provider>_<model>.<ext>`, from the job's
 * first answering and parsing model. Model names come from clients: characters a quoted header value cannot
 * hold become `_`.
 */
export function exportFilename(
  models: ExportVerificationConfig | undefined,
  extension: "json" | "csv",
  now: Date = new Date(),
): string {
  const name = suggestedExportFilename(
    models ?? { answering_models: [], parsing_models: [] },
    extension,
    now,
  );
  return name.replace(UNSAFE_IN_HEADER, "_");
}
