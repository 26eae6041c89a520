// The response and request types of the web app's generation tab (extraction wizard, template generation),
// inferred from the route schemas.
import type { z } from "zod";
import type { SpreadsheetMappingSchema } from "../../authoring/index.js";
import type { ExtractionSchema, PreviewSchema, UploadedSchema } from "../routes/files.js";
import type {
  GenerationJobViewSchema,
  GenerationStartedSchema,
  StartGenerationSchema,
} from "../routes/template-generation.js";
import type { GenerationResultSchema } from "../template-generation/index.js";

/** `POST /api/v2/files` (multipart, field `file`). */
export type UploadedFile = z.infer<typeof UploadedSchema>;
/** `GET /api/v2/files/{file_id}/preview`. */
export type FilePreview = z.infer<typeof PreviewSchema>;
/** `POST /api/v2/files/{file_id}/questions` body and answer. */
export type QuestionExtractionRequest = z.input<typeof SpreadsheetMappingSchema>;
export type FileQuestions = z.infer<typeof ExtractionSchema>;
/** One extracted question (library fields plus its `id`). */
export type ExtractedQuestion = FileQuestions["questions"][number];
/** `POST /api/v2/templates/generation` body and answer. */
export type StartTemplateGenerationRequest = z.input<typeof StartGenerationSchema>;
export type StartedTemplateGeneration = z.infer<typeof GenerationStartedSchema>;
/** `GET /api/v2/templates/generation/{job_id}/progress`, `DELETE …/{job_id}`, `POST …/{job_id}/resume`. */
export type TemplateGenerationJob = z.infer<typeof GenerationJobViewSchema>;
/** A generation job's outcome and one question's template in it. */
export type TemplateGenerationResult = z.infer<typeof GenerationResultSchema>;
export type GeneratedTemplateOutcome = TemplateGenerationResult["templates"][string];
