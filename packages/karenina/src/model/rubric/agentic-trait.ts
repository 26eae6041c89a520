import { z } from "zod";
import {
  ClassesSchema,
  isTemplateKind,
  LITERAL_WITHOUT_CLASSES,
  OptionalTextSchema,
  TraitKindSchema,
  TraitNameSchema,
  withJudgedDefaults,
} from "./trait-fields.js";

export const CONTEXT_MODES = ["workspace_only", "trace_and_workspace", "trace_only"] as const;

/** The fields of an agentic trait, in the original's order (spec 03 §9.5). */
export const AgenticTraitFields = z.strictObject({
  type: z.literal("agentic").default("agentic"),
  name: TraitNameSchema,
  description: z.string().min(1),
  summary: OptionalTextSchema,
  kind: TraitKindSchema,
  // Optional here so the checks can tell "omitted" from "given"; the transform supplies the default.
  higher_is_better: z.boolean().nullable().optional(),
  min_score: z.int().nullable().default(1),
  max_score: z.int().nullable().default(5),
  classes: ClassesSchema,
  context_mode: z.enum(CONTEXT_MODES).default("trace_and_workspace"),
  materialize_trace: z.boolean().default(false),
  persist_trace: z.boolean().default(false),
  max_turns: z.int().positive().default(15),
  timeout_seconds: z.int().positive().default(120),
  /** A `ModelConfig` dump, kept as a plain object (the agent-capable check belongs to the LLM layer). */
  model_override: z.record(z.string(), z.unknown()).nullable().default(null),
});

/**
 * A trait judged by an agent that investigates the trace and/or workspace, then extracts a score.
 * `higher_is_better` defaults to true for scalar kinds and must be given as null for template kinds.
 * @example
 * AgenticTraitSchema.parse({ name: "tests_pass", description: "Do the tests pass?", kind: "boolean" }).max_turns; // 15
 */
export const AgenticTraitSchema = AgenticTraitFields.superRefine((trait, ctx) => {
  if (isTemplateKind(trait.kind)) {
    if (trait.higher_is_better === undefined) {
      ctx.addIssue({ code: "custom", path: ["higher_is_better"], message: "Field required" });
    } else if (trait.higher_is_better !== null) {
      ctx.addIssue({
        code: "custom",
        path: ["higher_is_better"],
        message: "must be null for template-kind traits",
      });
    }
  }
  if (trait.kind === "literal" && (trait.classes === null || Object.keys(trait.classes).length === 0)) {
    ctx.addIssue({ code: "custom", path: ["classes"], message: LITERAL_WITHOUT_CLASSES });
  }
  if (trait.materialize_trace && trait.context_mode === "workspace_only") {
    ctx.addIssue({
      code: "custom",
      path: ["materialize_trace"],
      message: "materialize_trace is not allowed with context_mode='workspace_only'",
    });
  }
}).transform(withJudgedDefaults);

export type AgenticTrait = z.infer<typeof AgenticTraitSchema>;
export type AgenticTraitInput = z.input<typeof AgenticTraitSchema>;
