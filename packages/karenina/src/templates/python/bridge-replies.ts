import { z } from "zod";

const JsonSchemaSchema = z.record(z.string(), z.unknown());

/** What `load_template` answers: the template's description, or the validation message (spec 02 §8). */
export const LoadReplySchema = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    className: z.string(),
    mode: z.enum(["classic", "verified", "mixed"]),
    judgeSchema: JsonSchemaSchema,
    structuredOutputSchema: JsonSchemaSchema,
    groundTruth: z.record(z.string(), z.unknown()).nullable(),
    extractionHints: z.record(z.string(), z.string()),
    needsNoJudge: z.boolean(),
  }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

export type LoadReply = z.infer<typeof LoadReplySchema>;

/** One evaluation as `evaluate_batch` answers it: a `TemplateEvaluation`. */
export const EvaluationReplySchema = z.object({
  verify: z.boolean(),
  fieldVerify: z.boolean(),
  verifyGranular: z.number().nullable(),
  fieldResults: z.record(z.string(), z.boolean().nullable()),
  regex: z.object({
    success: z.boolean(),
    results: z.record(z.string(), z.boolean()),
    details: z.record(z.string(), z.record(z.string(), z.unknown())),
  }),
  error: z.string().nullable(),
});
