import type { z } from "zod";
import type { Benchmark } from "../../benchmark/index.js";
import type { CuratorQuestion } from "../api-types/curator.js";
import type { CuratorQuestionInputSchema } from "./schemas.js";

type CuratorQuestionInput = z.infer<typeof CuratorQuestionInputSchema>;

type PlainRecord = Record<string, unknown>;

const isRecord = (value: unknown): value is PlainRecord =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const recordOrNull = (value: unknown): PlainRecord | null => (isRecord(value) ? value : null);

const recordsOrNull = (value: unknown): PlainRecord[] | null =>
  Array.isArray(value) && value.every(isRecord) ? value : null;

function fewShotOrNull(value: unknown): { question: string; answer: string }[] | null {
  if (!Array.isArray(value)) return null;
  const pairs = value.filter(
    (v): v is { question: string; answer: string } =>
      isRecord(v) && typeof v.question === "string" && typeof v.answer === "string",
  );
  return pairs.length === value.length ? pairs : null;
}

/**
 * A question of a benchmark as the curator edits it, read through the library's record (never the JSON-LD).
 * Author, sources and few-shot examples of another shape than the curator's (a checkpoint may hold a bare
 * string) read as null.
 */
export function curatorQuestionOf(bench: Benchmark, id: string): CuratorQuestion {
  const record = bench.getQuestion(id);
  return {
    id,
    question: record.question,
    raw_answer: record.raw_answer,
    answer_template: record.answer_template,
    template_language: bench.getTemplateLanguage(id),
    has_template: bench.hasTemplate(id),
    finished: bench.isFinished(id),
    date_created: record.date_created,
    date_modified: record.date_modified,
    author: recordOrNull(record.author),
    sources: recordsOrNull(record.sources),
    keywords: record.keywords,
    custom_metadata: record.custom_metadata,
    few_shot_examples: fewShotOrNull(record.few_shot_examples),
    answer_notes: record.answer_notes,
    question_rubric: record.question_rubric,
  };
}

/**
 * The user's own values of an upserted question as the client sent them: Zod drops `__proto__` keys from the
 * records it parses, so custom metadata, author, sources and few-shot examples are taken from the raw body
 * (the checkpoint keeps such keys as data, and so does this save).
 */
export interface RawQuestionValues {
  readonly author?: unknown;
  readonly sources?: unknown;
  readonly custom_metadata?: unknown;
  readonly few_shot_examples?: unknown;
}

/**
 * Writes a curator question into the benchmark with the library's own methods: a new id is added (library
 * id given by the client, placeholder first), then every field is set; `date_modified` is stamped. The
 * template is stored as sent (drafts need not run).
 */
export function applyCuratorQuestion(
  bench: Benchmark,
  input: CuratorQuestionInput,
  raw: RawQuestionValues,
): void {
  if (!bench.has(input.id)) {
    bench.addQuestion(input.question, input.raw_answer, { questionId: input.id, finished: input.finished });
  }
  const pick = <K extends keyof RawQuestionValues>(key: K, parsed: unknown) =>
    raw[key] !== undefined && (raw[key] === null) === (parsed === null) ? raw[key] : parsed;
  bench.updateQuestion(input.id, {
    question: input.question,
    raw_answer: input.raw_answer,
    answer_template: input.answer_template,
    template_language: input.template_language,
    finished: input.finished,
    author: pick("author", input.author),
    sources: pick("sources", input.sources),
    keywords: input.keywords,
    custom_metadata: pick("custom_metadata", input.custom_metadata) as PlainRecord | null,
    few_shot_examples: pick("few_shot_examples", input.few_shot_examples),
    answer_notes: input.answer_notes,
  });
  bench.setQuestionRubric(input.id, input.question_rubric);
}
