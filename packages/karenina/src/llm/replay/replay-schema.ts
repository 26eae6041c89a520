/**
 * The replay file format (spec 05 §8.2), as Zod schemas: the single source of the types, of validation on
 * load, and of the fields written on save.
 */
import { z } from "zod";

/** What a lookup that finds nothing does: `strict` throws `ReplayMissError`, `fall_through` returns null. */
export const MissPolicySchema = z.enum(["fall_through", "strict"]);
export type MissPolicy = z.output<typeof MissPolicySchema>;

/**
 * Where a captured answer belongs. QA mode (no scenario) is indexed by `question_id`; scenario mode by
 * (`scenario_id`, `scenario_node`). A null `answering_model_id`, `visit_index` or `replicate` is a wildcard.
 */
export const ReplayKeySchema = z.strictObject({
  question_id: z.string(),
  scenario_id: z.string().nullable().default(null),
  scenario_node: z.string().nullable().default(null),
  /** The answering model's display string, e.g. `langchain:gpt-5`. */
  answering_model_id: z.string().nullable().default(null),
  visit_index: z.int().nullable().default(null),
  replicate: z.int().nullable().default(null),
});
export type ReplayKey = z.output<typeof ReplayKeySchema>;
export type ReplayKeyInput = z.input<typeof ReplayKeySchema>;

/** A captured answer: its raw trace, and whatever else was captured with it. */
export const ReplayEntrySchema = z.object({
  /** The raw trace text (spec 04 §11.1); may be empty. */
  raw_trace: z.string(),
  /** The trace as serialized messages (spec 05 §1 `toDict` records). */
  trace_messages: z.array(z.record(z.string(), z.unknown())).nullable().default(null),
  parsed_answer_fields: z.record(z.string(), z.unknown()).nullable().default(null),
  verify_result: z.boolean().nullable().default(null),
  /** Per-stage usage as captured (stage name → usage). */
  usage_metadata: z.record(z.string(), z.unknown()).nullable().default(null),
  /** Agent metrics (spec 04 §11.3); `limit_reached` is honoured on replay. */
  agent_metrics: z.record(z.string(), z.unknown()).nullable().default(null),
  captured_model_id: z.string().nullable().default(null),
  /** ISO-8601 time of capture. */
  captured_at: z.string().nullable().default(null),
});
export type ReplayEntry = z.output<typeof ReplayEntrySchema>;
export type ReplayEntryInput = z.input<typeof ReplayEntrySchema>;

/** The only version this library reads and writes. */
export const REPLAY_FILE_VERSION = 1;

/** A replay file: `{version: 1, miss_policy, entries: [{key, entry}]}`; a missing `miss_policy` reads as `fall_through`. */
export const ReplayFileSchema = z.object({
  version: z.literal(REPLAY_FILE_VERSION),
  miss_policy: MissPolicySchema.default("fall_through"),
  entries: z.array(z.strictObject({ key: ReplayKeySchema, entry: ReplayEntrySchema })),
});
export type ReplayFile = z.output<typeof ReplayFileSchema>;
