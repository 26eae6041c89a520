import { z } from "zod";
import { schemaProblems } from "../errors/index.js";
import { ModelValidationError } from "./errors.js";
import { questionIdFromText } from "./ids.js";
import { pythonIsoTimestamp } from "./timestamps.js";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An object of the user's data (author, sources, custom metadata), copied with every key: `z.record` would
 * drop a key named `__proto__` without a word, and the original keeps any key.
 */
const dataObject = <V>(isValue: (value: unknown) => value is V, expected: string) =>
  z
    .custom<Record<string, V>>(
      (value) => isPlainObject(value) && Object.values(value).every(isValue),
      `expected ${expected}`,
    )
    // Documents the shape where a JSON Schema is generated (the server's OpenAPI document).
    .meta({ type: "object" })
    .transform((value) => ({ ...value }));

const jsonObject = dataObject((_value): _value is unknown => true, "an object");

export const FewShotExampleSchema = dataObject(
  (value): value is string => typeof value === "string",
  "an object of strings",
);
export type FewShotExample = Record<string, string>;

/**
 * The fields of a question (seed 000 §5.3, spec 01 §2), in the original's order and snake_case names.
 * Unknown keys are refused; `id` is computed from the text, never taken from input.
 */
export const QuestionSchema = z.strictObject({
  question: z.string().min(1, "must be a non-empty string"),
  raw_answer: z.string().min(1, "must be a non-empty string"),
  keywords: z.array(z.string()).default([]),
  few_shot_examples: z.array(FewShotExampleSchema).nullable().default(null),
  date_created: z.string().default(() => pythonIsoTimestamp()),
  date_modified: z.string().default(() => pythonIsoTimestamp()),
  answer_template: z.string().nullable().default(null),
  answer_notes: z.string().nullable().default(null),
  author: jsonObject.nullable().default(null),
  sources: z.array(jsonObject).nullable().default(null),
  custom_metadata: jsonObject.nullable().default(null),
  question_rubric: jsonObject.nullable().default(null),
  question_dynamic_rubric: jsonObject.nullable().default(null),
  workspace_path: z.string().nullable().default(null),
});

/** What a question is built from: the schema's input, plus the legacy `tags` and a dumped `id` (ignored). */
export type QuestionInput = z.input<typeof QuestionSchema> & { tags?: (string | null)[] | null; id?: string };
export type QuestionFields = z.output<typeof QuestionSchema>;
/** A question's serialized form: every field, then `id` last. */
export type QuestionDump = QuestionFields & { id: string };

const QUESTION_FIELDS = Object.keys(QuestionSchema.shape);

/** Applies the original's pre-validation rules: drop `id`; `tags` becomes `keywords` unless keywords is given. */
function normaliseQuestionInput(input: unknown): unknown {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return input;
  const { id: _id, tags, ...rest } = input as Record<string, unknown>;
  if (tags !== undefined && !("keywords" in rest)) {
    rest.keywords = Array.isArray(tags) ? tags.filter((tag) => tag !== null) : [];
  }
  return rest;
}

/**
 * A question: the prompt, its reference answer and everything that travels with them.
 * Its `id` is the MD5 hex of the question text, so the same text always has the same id.
 *
 * @example
 * const q = new Question({
 *   question: "What is the capital of France?",
 *   raw_answer: "Paris",
 *   tags: ["geography"],
 * });
 * q.id; // "cb0b4aaf80c43c9973aefeda1bd72890"
 * q.keywords; // ["geography"]
 */
export class Question implements QuestionFields {
  readonly question!: string;
  readonly raw_answer!: string;
  readonly keywords!: string[];
  readonly few_shot_examples!: FewShotExample[] | null;
  readonly date_created!: string;
  readonly date_modified!: string;
  readonly answer_template!: string | null;
  readonly answer_notes!: string | null;
  readonly author!: Record<string, unknown> | null;
  readonly sources!: Record<string, unknown>[] | null;
  readonly custom_metadata!: Record<string, unknown> | null;
  readonly question_rubric!: Record<string, unknown> | null;
  readonly question_dynamic_rubric!: Record<string, unknown> | null;
  readonly workspace_path!: string | null;

  /** @throws {ModelValidationError} naming every unknown or invalid field. */
  constructor(input: QuestionInput) {
    const normalised = normaliseQuestionInput(input);
    const parsed = QuestionSchema.safeParse(normalised);
    if (!parsed.success) {
      throw new ModelValidationError(
        "question",
        schemaProblems(parsed.error, normalised, () => QUESTION_FIELDS),
      );
    }
    Object.assign(this, parsed.data);
  }

  /** MD5 hex of the UTF-8 question text. */
  get id(): string {
    return questionIdFromText(this.question);
  }

  /** All fields in the original's order, then `id`. */
  toJSON(): QuestionDump {
    const dump: Record<string, unknown> = {};
    for (const field of QUESTION_FIELDS) dump[field] = this[field as keyof QuestionFields];
    dump.id = this.id;
    return dump as QuestionDump;
  }
}
