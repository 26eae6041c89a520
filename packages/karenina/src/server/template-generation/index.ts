export {
  GENERATION_JOB,
  type GenerationJobInput,
  GenerationJobInputSchema,
  GenerationQuestionSchema,
  type GenerationResult,
  GenerationResultSchema,
  generationJobKind,
  prepareGenerationJob,
} from "./generation-job.js";
