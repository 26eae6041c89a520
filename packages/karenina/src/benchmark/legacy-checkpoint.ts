import { z } from "zod";
import {
  CheckpointError,
  CheckpointProblemsError,
  type DataFeed,
  jsonPath,
  parseCheckpointJson,
  property,
  TEMPLATE_LANGUAGES,
} from "../checkpoint/index.js";
import { schemaProblems } from "../errors/index.js";
import { Benchmark } from "./benchmark.js";
import { setDatasetMetadata } from "./dataset-metadata.js";

/** Which kind of file a checkpoint text was. */
export type CheckpointFormat = "jsonld" | "legacy-v2";

const optionalRecord = z.record(z.string(), z.unknown()).nullish();

/** One question of the original GUI's legacy v2.0 file (its structural check, spec 07 §1.3.2, plus the rest). */
const LegacyItemSchema = z.looseObject({
  question: z.string().min(1),
  raw_answer: z.string(),
  original_answer_template: z.string(),
  answer_template: z.string(),
  last_modified: z.string(),
  finished: z.boolean(),
  date_created: z.string().nullish(),
  template_language: z.enum(TEMPLATE_LANGUAGES).nullish(),
  question_rubric: z.unknown().optional(),
  author: optionalRecord,
  sources: z.array(z.record(z.string(), z.unknown())).nullish(),
  keywords: z.array(z.string()).nullish(),
  custom_metadata: optionalRecord,
  few_shot_examples: z.array(z.record(z.string(), z.unknown())).nullish(),
  answer_notes: z.string().nullish(),
});

const LegacyFileSchema = z.looseObject({
  version: z.literal("2.0"),
  checkpoint: z.record(z.string().min(1), LegacyItemSchema),
  global_rubric: z.unknown().optional(),
  dataset_metadata: z
    .looseObject({
      name: z.string().nullish(),
      description: z.string().nullish(),
      version: z.string().nullish(),
      creator: z.unknown().optional(),
      license: z.string().nullish(),
      keywords: z.array(z.string()).nullish(),
      publisher: z.string().nullish(),
      custom: optionalRecord,
    })
    .nullish(),
});

/** True for the original GUI's legacy `{version: "2.0", checkpoint: {...}}` file. */
export function isLegacyCheckpoint(json: unknown): boolean {
  return (
    typeof json === "object" &&
    json !== null &&
    !Array.isArray(json) &&
    !("@type" in json) &&
    (json as { version?: unknown }).version === "2.0" &&
    "checkpoint" in json
  );
}

/**
 * Reads checkpoint text of either kind with the hostile-input limits of a checkpoint file (nesting depth,
 * `__proto__` keys, schema): a JSON-LD DataFeed, or the original GUI's legacy v2.0 JSON converted by
 * {@link benchmarkFromLegacyCheckpoint}.
 * @throws {CheckpointError} naming the file and the JSON path of the first problem.
 * @example
 * const item = { question: "What is 2 + 2?", raw_answer: "4", original_answer_template: "", answer_template: "", last_modified: "2025-01-01T00:00:00", finished: true };
 * const { benchmark, format } = readAnyCheckpoint(JSON.stringify({ version: "2.0", checkpoint: { q1: item } }));
 * format; // "legacy-v2"
 * benchmark.questionCount; // 1
 */
export function readAnyCheckpoint(
  text: string,
  options: { file?: string } = {},
): { benchmark: Benchmark; format: CheckpointFormat } {
  const file = options.file ?? "<checkpoint>";
  const json = parseCheckpointJson(text, file);
  if (isLegacyCheckpoint(json))
    return { benchmark: benchmarkFromLegacyCheckpoint(json, file), format: "legacy-v2" };
  return { benchmark: Benchmark.parse(text, { file }), format: "jsonld" };
}

/**
 * Converts the original GUI's legacy v2.0 checkpoint (`{version, checkpoint: {id: item}, global_rubric,
 * dataset_metadata}`) into a benchmark: every item is checked first (`question`, `raw_answer`,
 * `original_answer_template`, `answer_template`, `last_modified` strings, `finished` boolean, optional fields
 * typed), then added with its id, template, finished flag, metadata and rubric; `date_created` and
 * `last_modified` become the item's dates and `original_answer_template` is kept as an item property.
 * `json` must already meet the file limits (see {@link readAnyCheckpoint}).
 * @throws {CheckpointError} naming the file, the item and the field.
 */
export function benchmarkFromLegacyCheckpoint(json: unknown, file = "<checkpoint>"): Benchmark {
  const parsed = LegacyFileSchema.safeParse(json);
  if (!parsed.success) throw schemaError(parsed.error, json, file);
  const legacy = parsed.data;
  const meta = legacy.dataset_metadata ?? {};
  const bench = Benchmark.create({ name: meta.name?.trim() ? meta.name : "Imported benchmark" });
  const raw = json as { checkpoint: Record<string, Record<string, unknown>> };
  for (const [id, item] of Object.entries(legacy.checkpoint)) {
    const at = `$.checkpoint[${JSON.stringify(id)}]`;
    const rawItem = raw.checkpoint[id] ?? {};
    atPath(file, at, () => {
      bench.addQuestion(item.question, item.raw_answer, { questionId: id, finished: item.finished });
      bench.updateQuestion(id, {
        answer_template: item.answer_template,
        template_language: item.template_language ?? "Python",
        author: rawItem.author ?? null,
        sources: rawItem.sources ?? null,
        keywords: item.keywords ?? null,
        custom_metadata: (rawItem.custom_metadata as Record<string, unknown> | undefined) ?? null,
        few_shot_examples: rawItem.few_shot_examples ?? null,
        answer_notes: item.answer_notes ?? null,
      });
    });
    if (item.question_rubric != null) {
      atPath(file, `${at}.question_rubric`, () =>
        bench.setQuestionRubric(id, rubricInput(item.question_rubric)),
      );
    }
  }
  if (legacy.global_rubric != null) {
    atPath(file, "$.global_rubric", () => bench.setGlobalRubric(rubricInput(legacy.global_rubric)));
  }
  atPath(file, "$.dataset_metadata", () =>
    setDatasetMetadata(bench, {
      ...(meta.description == null ? {} : { description: meta.description }),
      ...(meta.version == null ? {} : { version: meta.version }),
      ...(typeof meta.creator === "string" || isCreatorObject(meta.creator) ? { creator: meta.creator } : {}),
      ...(meta.license == null ? {} : { license: meta.license }),
      ...(meta.keywords == null ? {} : { keywords: meta.keywords }),
      ...(meta.publisher == null ? {} : { publisher: meta.publisher }),
      ...(meta.custom == null ? {} : { custom: meta.custom }),
    }),
  );
  return Benchmark.fromCheckpoint(
    withLegacyDates(bench.toCheckpoint({ saveDeepJudgmentConfig: true }), legacy),
    {
      file,
    },
  );
}

/** The converted document with each item's dates and `original_answer_template` from the legacy file. */
function withLegacyDates(doc: DataFeed, legacy: z.infer<typeof LegacyFileSchema>): DataFeed {
  for (const element of doc.dataFeedElement) {
    const item = element["@id"] === undefined ? undefined : legacy.checkpoint[element["@id"]];
    if (item === undefined) continue;
    element.dateModified = item.last_modified;
    if (item.date_created) element.dateCreated = item.date_created;
    element.item.additionalProperty = [
      ...(element.item.additionalProperty ?? []),
      property("original_answer_template", item.original_answer_template),
    ];
  }
  return doc;
}

/** The original GUI's rubric (`{traits: [...]}` of LLM traits, or the library's own shape) as rubric input. */
function rubricInput(value: unknown): Parameters<Benchmark["setGlobalRubric"]>[0] {
  if (typeof value === "object" && value !== null && Array.isArray((value as { traits?: unknown }).traits)) {
    const { traits, ...rest } = value as { traits: unknown[] };
    return { ...rest, llm_traits: traits } as Parameters<Benchmark["setGlobalRubric"]>[0];
  }
  return value as Parameters<Benchmark["setGlobalRubric"]>[0];
}

function isCreatorObject(value: unknown): value is { "@type": "Person" | "Organization"; name: string } {
  if (typeof value !== "object" || value === null) return false;
  const { "@type": type, name } = value as Record<string, unknown>;
  return (type === "Person" || type === "Organization") && typeof name === "string";
}

/** Runs `work`, turning any error into a CheckpointError at `path`. */
function atPath(file: string, path: string, work: () => void): void {
  try {
    work();
  } catch (error) {
    if (error instanceof CheckpointError) throw error;
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    throw new CheckpointError(file, path, reason);
  }
}

function schemaError(error: z.ZodError, json: unknown, file: string): CheckpointError {
  const problems = schemaProblems(error, json).map((p) => ({
    jsonPath: jsonPath(p.path),
    problem: p.message,
  }));
  const [first] = problems;
  if (problems.length > 1) return new CheckpointProblemsError(file, problems);
  return new CheckpointError(file, first?.jsonPath ?? "$", first?.problem ?? "invalid legacy checkpoint");
}
