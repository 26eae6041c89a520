import {
  followGeneration,
  type GenerationProgress,
  type GeneratorSettings,
  generationJob,
  modelConfig,
  progressOf,
  startGeneration,
} from "../generate/index.js";
import type { CuratorQuestion } from "../library-types/index.js";

/** Why a "Generate template now" did not give a template (the question keeps its placeholder). */
export class TemplateNotGeneratedError extends Error {
  override readonly name = "TemplateNotGeneratedError";
}

/**
 * Generates a template for one stored question with a template-generation job (forced: the placeholder is
 * replaced), reporting the job's progress; resolves with the generated code once the job has ended.
 */
export async function generateTemplateFor(
  question: CuratorQuestion,
  settings: GeneratorSettings,
  apiKey: string,
  onProgress: (progress: GenerationProgress) => void,
): Promise<string> {
  const started = await startGeneration({
    questions: [
      {
        id: question.id,
        question: question.question,
        raw_answer: question.raw_answer,
        ...(question.keywords === null ? {} : { keywords: question.keywords }),
        ...(question.answer_notes === null ? {} : { answer_notes: question.answer_notes }),
      },
    ],
    config: modelConfig(settings, apiKey),
    force_regenerate: true,
  });
  await new Promise<void>((resolve) => {
    followGeneration(started.job_id, (event) => onProgress(progressOf(event)), resolve);
  });
  const job = await generationJob(started.job_id);
  const outcome = job.outcome?.templates[question.id];
  if (outcome?.success === true && outcome.template_code !== undefined) return outcome.template_code;
  throw new TemplateNotGeneratedError(
    outcome?.error ?? job.error ?? `the generation job ended "${job.status}" without a template`,
  );
}
