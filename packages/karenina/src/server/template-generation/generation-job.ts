import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import {
  generateTemplates,
  readTemplateBackup,
  type TemplateGenerationEvent,
  type TemplateOutcome,
} from "../../authoring/index.js";
import { Benchmark } from "../../benchmark/index.js";
import { QuestionSchema } from "../../model/index.js";
import { type Env, ModelConfigSchema, parseVerificationConfig } from "../../pipeline/index.js";
import type { JobContext, JobKind } from "../jobs/index.js";

/** The kind name of template generation jobs. */
export const GENERATION_JOB = "template_generation";

/** A question to generate a template for: its id (kept as the client's), text and reference answer. */
export const GenerationQuestionSchema = QuestionSchema.pick({
  question: true,
  raw_answer: true,
  answer_template: true,
  keywords: true,
  answer_notes: true,
}).extend({ id: z.string().min(1).describe("The question's id, kept in the result (`templates[id]`)") });

/** What a generation job's row holds: the questions and flags, and the model without its keys. */
export const GenerationJobInputSchema = z.object({
  questions: z.array(GenerationQuestionSchema),
  force_regenerate: z.boolean(),
  concurrency: z.number().int(),
  model: z.object({
    model_name: z.string().nullable(),
    interface: z.string(),
    model_provider: z.string().nullable(),
  }),
});
export type GenerationJobInput = z.infer<typeof GenerationJobInputSchema>;

/** What a finished (or cancelled) generation job answers as its `result` (spec 07 §2.2, our shapes). */
export const GenerationResultSchema = z
  .object({
    templates: z.record(
      z.string(),
      z.object({
        success: z.boolean(),
        template_code: z.string().optional(),
        error: z.string().optional(),
        skipped: z.boolean().optional(),
        restored: z.boolean().optional(),
        warnings: z.array(z.string()).optional(),
      }),
    ),
    total_templates: z.number().int(),
    successful_generations: z.number().int(),
    failed_generations: z.number().int(),
    model_info: z.object({
      name: z.string().nullable(),
      provider: z.string().nullable(),
      interface: z.string(),
    }),
  })
  .meta({ id: "TemplateGenerationResult" });
export type GenerationResult = z.infer<typeof GenerationResultSchema>;

const MODEL_FILE = "model.json";
const BACKUP_FILE = "templates-backup.json";

/**
 * Writes the generator model as sent (API keys included: an owner-only file in the job's folder), so a resumed
 * job can call it again; the job row holds it without keys.
 */
export async function prepareGenerationJob(dir: string, rawModel: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, MODEL_FILE);
  await writeFile(path, JSON.stringify(rawModel), { mode: 0o600 });
  await chmod(path, 0o600);
}

/** The benchmark the job generates into: the posted questions under their own ids, in order. */
function benchmarkOf(input: GenerationJobInput): Benchmark {
  const benchmark = Benchmark.create({ name: "template-generation" });
  for (const question of input.questions) {
    benchmark.addQuestion(question.question, question.raw_answer, {
      questionId: question.id,
      keywords: question.keywords,
      answerNotes: question.answer_notes,
      ...(question.answer_template == null ? {} : { answerTemplate: question.answer_template }),
    });
  }
  return benchmark;
}

function summaryOf(outcomes: Record<string, TemplateOutcome>, input: GenerationJobInput): GenerationResult {
  const values = Object.values(outcomes);
  return {
    templates: outcomes,
    total_templates: values.length,
    successful_generations: values.filter((outcome) => outcome.success).length,
    failed_generations: values.filter((outcome) => !outcome.success).length,
    model_info: {
      name: input.model.model_name,
      provider: input.model.model_provider,
      interface: input.model.interface,
    },
  };
}

/**
 * Template generation as a server job (spec 07 §1.2, §2.4): progress by question, each success written to a
 * backup in the job's folder as it finishes, so a resumed job (after a restart) restores those and generates
 * only the rest; cancel aborts calls in flight and keeps what finished.
 */
export function generationJobKind(env: Env): JobKind<GenerationJobInput> {
  return {
    kind: GENERATION_JOB,
    resumable: true,
    parseInput: (stored) => GenerationJobInputSchema.parse(stored),
    async run(job: JobContext<GenerationJobInput>): Promise<GenerationResult> {
      const rawModel = JSON.parse(await readFile(join(job.dir, MODEL_FILE), "utf8")) as unknown;
      const config = parseVerificationConfig(
        { answering_models: [rawModel], parsing_models: [rawModel], evaluation_mode: "template_only" },
        { env },
      );
      const model = ModelConfigSchema.parse(config.parsing_models[0]);
      const backupPath = join(job.dir, BACKUP_FILE);
      const ids = new Set(job.input.questions.map((question) => question.id));
      const restored = Object.keys(await readTemplateBackup(backupPath)).filter((id) => ids.has(id)).length;
      const onProgress = (event: TemplateGenerationEvent) => {
        const task = { key: event.question_id ?? "", question_id: event.question_id ?? "" };
        if (event.event === "job_started")
          job.plan(event.total_count + restored, { processed: restored, successful: restored, failed: 0 });
        if (event.event === "task_started") job.taskStarted(task);
        if (event.event === "task_completed")
          job.taskCompleted(task, true, { template_code: event.template_code });
        if (event.event === "task_failed") job.taskFailed(task, event.error ?? "generation failed");
      };
      const outcomes = await generateTemplates(benchmarkOf(job.input), {
        model,
        onlyMissing: !job.input.force_regenerate,
        backupPath,
        concurrency: job.input.concurrency,
        signal: job.signal,
        onProgress,
      });
      return summaryOf(outcomes, job.input);
    },
  };
}
