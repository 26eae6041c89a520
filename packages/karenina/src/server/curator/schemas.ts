import { z } from "zod";
import { TEMPLATE_LANGUAGES } from "../../checkpoint/index.js";
import { RubricSchema } from "../../model/index.js";

/**
 * One question as the curator edits it: the library's question record in plain fields, never the JSON-LD
 * encoding (spec 07 §1.3.2: conversion lives in the library, not in the browser).
 */
export const CuratorQuestionSchema = z
  .object({
    id: z.string().min(1).describe("The question id (spec 01 §1.2); never changes when the text does"),
    question: z.string().min(1, "Question is required"),
    raw_answer: z.string().min(1, "Answer is required"),
    answer_template: z.string().describe("The template source as saved (Python or JavaScript)"),
    template_language: z.enum(TEMPLATE_LANGUAGES),
    has_template: z
      .boolean()
      .describe("False while the template is the library's placeholder (spec 01 §5.1); ignored on input"),
    finished: z.boolean(),
    date_created: z.string(),
    date_modified: z.string().describe("Set by the server on every save; ignored on input"),
    author: z.record(z.string(), z.unknown()).nullable(),
    sources: z.array(z.record(z.string(), z.unknown())).nullable(),
    keywords: z.array(z.string()).nullable(),
    custom_metadata: z.record(z.string(), z.unknown()).nullable(),
    few_shot_examples: z.array(z.object({ question: z.string(), answer: z.string() })).nullable(),
    answer_notes: z.string().nullable(),
    question_rubric: RubricSchema.nullable().describe("The question's own traits (spec 03 §7)"),
  })
  .meta({ id: "CuratorQuestion" });

/** A question sent for saving: what the server computes may be left out. */
export const CuratorQuestionInputSchema = CuratorQuestionSchema.extend({
  has_template: z.boolean().optional(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
}).meta({ id: "CuratorQuestionInput" });

/** A dataset's creator as schema.org writes it: a Person or an Organization. */
export const CreatorSchema = z
  .looseObject({
    "@type": z.enum(["Person", "Organization"]),
    name: z.string().min(1),
    email: z.string().optional(),
    url: z.string().optional(),
    affiliation: z.string().optional(),
    description: z.string().optional(),
  })
  .meta({ id: "DatasetCreator" });

/**
 * The dataset metadata of a benchmark (spec 07 §1.3.8). `license`, `keywords`, `publisher` and `custom` are
 * kept as the checkpoint's benchmark-level custom properties; `creator` as a string or a schema.org
 * Person/Organization.
 */
export const DatasetMetadataSchema = z
  .object({
    name: z.string().min(1, "Dataset name is required").max(200),
    description: z.string().max(5000),
    version: z.string().max(50),
    creator: z.union([z.string(), CreatorSchema]).nullable(),
    license: z.string().nullable(),
    keywords: z.array(z.string()),
    publisher: z.string().nullable(),
    custom: z.record(z.string(), z.unknown()).describe("Other benchmark-level custom properties"),
    date_created: z.string().describe("Read-only"),
    date_modified: z.string().describe("Read-only; stamped by every save"),
  })
  .meta({ id: "DatasetMetadata" });

/** `GET /api/v2/benchmarks/{name}/curation`: everything the curator needs, in benchmark order. */
export const CurationSchema = z
  .object({
    name: z.string(),
    metadata: DatasetMetadataSchema,
    global_rubric: RubricSchema.nullable(),
    questions: z.array(CuratorQuestionSchema),
  })
  .meta({ id: "Curation" });

/**
 * `PATCH /api/v2/benchmarks/{name}/curation`: an incremental save (spec 07 §3, autosave sends changed
 * questions only). Each present part is applied in one transaction; absent parts are left as stored.
 */
export const CurationChangesSchema = z
  .object({
    upsert: z
      .array(CuratorQuestionInputSchema)
      .default([])
      .describe("Questions added or changed; a new id is appended at the end (or placed by `order`)"),
    delete: z.array(z.string()).default([]).describe("Ids of questions to remove from the benchmark"),
    order: z.array(z.string()).optional().describe("The benchmark's whole question order, when it changed"),
    global_rubric: RubricSchema.nullable().optional().describe("The new global rubric (null removes it)"),
    metadata: DatasetMetadataSchema.omit({ date_created: true, date_modified: true }).partial().optional(),
  })
  .meta({ id: "CurationChanges" });

/** The answer of a curation save. */
export const CurationSavedSchema = z
  .object({
    name: z.string(),
    question_count: z.number().int(),
    finished_count: z.number().int(),
    saved_questions: z.array(CuratorQuestionSchema).describe("The upserted questions as now stored"),
    deleted: z.array(z.string()),
    last_modified: z.string().describe("UTC ISO-8601"),
  })
  .meta({ id: "CurationSaved" });

/**
 * `POST /api/v2/benchmarks/{name}/curation/questions`: a new question with the library's id rules (spec 01
 * §1.2) and, without a template, the library's placeholder (spec 01 §5.1). Answers the stored question.
 */
export const NewQuestionSchema = z
  .object({
    question: z.string().trim().min(1, "Question is required"),
    raw_answer: z.string().trim().min(1, "Answer is required"),
    answer_template: z.string().optional(),
    author: z.record(z.string(), z.unknown()).nullable().optional(),
    keywords: z.array(z.string()).nullable().optional(),
    after_id: z.string().optional().describe("Insert right after this question (clone); default: at the end"),
    clone_of: z
      .string()
      .optional()
      .describe("Copy this question's template, metadata, rubric and few-shot examples; finished is false"),
  })
  .meta({ id: "NewQuestion" });

/**
 * `POST /api/v2/benchmarks/imports`: a checkpoint file (JSON-LD, or the original GUI's legacy v2.0 JSON)
 * stored as a benchmark. `replace` overwrites a stored benchmark of the same name; otherwise that is a 409.
 */
export const CheckpointImportSchema = z
  .object({
    file_name: z.string().max(300),
    content: z.string().describe("The file's text"),
    name: z.string().min(1).max(200).optional().describe("Store under this name instead of the file's"),
    replace: z.boolean().default(false),
  })
  .meta({ id: "CheckpointImport" });

export const CheckpointImportedSchema = z
  .object({
    name: z.string(),
    format: z.enum(["jsonld", "legacy-v2"]),
    question_count: z.number().int(),
    finished_count: z.number().int(),
    with_template_count: z.number().int(),
    has_global_rubric: z.boolean(),
  })
  .meta({ id: "CheckpointImported" });

/** `POST /api/v2/regex/test`: a pattern run on a text with the library's Python-regex semantics. */
export const RegexTestSchema = z
  .object({
    pattern: z.string().max(10_000),
    text: z.string().max(200_000),
    case_sensitive: z.boolean().default(true),
  })
  .meta({ id: "RegexTest" });

export const RegexTestResultSchema = z
  .object({
    matched: z.boolean().describe("Whether re.search finds the pattern (before any inversion)"),
    matches: z
      .array(z.object({ start: z.number().int(), end: z.number().int(), text: z.string() }))
      .describe("re.finditer's matches, at most 100"),
    error: z.string().nullable().describe("Why the pattern is invalid or timed out; null when it ran"),
  })
  .meta({ id: "RegexTestResult" });
