// The response and request types of the web app's curator screens, inferred from the route schemas.
import type { z } from "zod";
import type {
  CheckpointImportedSchema,
  CheckpointImportSchema,
  CurationChangesSchema,
  CurationSavedSchema,
  CurationSchema,
  CuratorQuestionInputSchema,
  CuratorQuestionSchema,
  DatasetMetadataSchema,
  NewQuestionSchema,
  RegexTestResultSchema,
  RegexTestSchema,
} from "../curator/schemas.js";

/** One question as the curator edits it. */
export type CuratorQuestion = z.infer<typeof CuratorQuestionSchema>;
export type CuratorQuestionInput = z.input<typeof CuratorQuestionInputSchema>;
/** A benchmark's dataset metadata. */
export type DatasetMetadata = z.infer<typeof DatasetMetadataSchema>;
/** `GET /api/v2/benchmarks/{name}/curation`. */
export type Curation = z.infer<typeof CurationSchema>;
/** `PATCH /api/v2/benchmarks/{name}/curation` body and answer. */
export type CurationChanges = z.input<typeof CurationChangesSchema>;
export type CurationSaved = z.infer<typeof CurationSavedSchema>;
/** `POST /api/v2/benchmarks/{name}/curation/questions` body (answer: a CuratorQuestion). */
export type NewQuestionRequest = z.input<typeof NewQuestionSchema>;
/** `POST /api/v2/benchmarks/imports` body and answer. */
export type CheckpointImportRequest = z.input<typeof CheckpointImportSchema>;
export type CheckpointImported = z.infer<typeof CheckpointImportedSchema>;
/** `POST /api/v2/regex/test` body and answer. */
export type RegexTestRequest = z.input<typeof RegexTestSchema>;
export type RegexTestResult = z.infer<typeof RegexTestResultSchema>;
