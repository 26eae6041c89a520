/**
 * The stages a dry run reports calls under: the run's stages that call a model. Deep judgment covers template
 * and rubric deep judgment except the final template parse, which counts as `parsing` (as the run's usage does).
 * The agentic stages are named as the run's usage names them.
 */
export const DRY_RUN_STAGES = [
  "answer_generation",
  "abstention",
  "sufficiency",
  "parsing",
  "deep_judgment",
  "rubric",
  "embedding",
  "dynamic_parsing_decision",
  "agentic_parsing_investigation",
  "agentic_parsing_extraction",
  "rubric_agentic_trait_investigation",
  "rubric_agentic_trait_extraction",
] as const;
export type DryRunStage = (typeof DRY_RUN_STAGES)[number];

/**
 * The kinds of call whose reply lengths differ: each has its own output-token default. `agent_turn` is a turn of
 * an agent that calls a tool; `agentic_report` the last turn of an agentic judge's investigation (its report); `agentic_decision` the screening
 * call of dynamic agentic parsing.
 */
export const CALL_KINDS = [
  "answer_generation",
  "abstention",
  "sufficiency",
  "parsing",
  "deep_judgment_excerpts",
  "deep_judgment_hallucination",
  "deep_judgment_reasoning",
  "deep_judgment_score",
  "rubric",
  "rubric_metric",
  "embedding",
  "embedding_equivalence",
  "agent_turn",
  "agentic_report",
  "agentic_decision",
] as const;
export type CallKind = (typeof CALL_KINDS)[number];

/** A reply length: `perCall` tokens, plus `perItem` for each item the call is about (`item` says what). */
export interface OutputTokenDefault {
  perCall: number;
  perItem: number;
  item: string | null;
}

const flat = (perCall: number): OutputTokenDefault => ({ perCall, perItem: 0, item: null });

/**
 * Output tokens assumed per call when the cache has no history for its kind (docs/dry-run.md). Rough typical
 * lengths of the replies our prompts ask for: JSON objects for the judges, a short prose answer.
 */
export const OUTPUT_TOKEN_DEFAULTS: Readonly<Record<CallKind, OutputTokenDefault>> = Object.freeze({
  answer_generation: flat(300),
  abstention: flat(60),
  sufficiency: { perCall: 30, perItem: 20, item: "schema field" },
  parsing: { perCall: 10, perItem: 15, item: "schema field" },
  deep_judgment_excerpts: { perCall: 10, perItem: 35, item: "excerpt" },
  deep_judgment_hallucination: { perCall: 10, perItem: 40, item: "excerpt" },
  deep_judgment_reasoning: { perCall: 10, perItem: 70, item: "attribute or trait" },
  deep_judgment_score: flat(8),
  rubric: { perCall: 10, perItem: 10, item: "trait or concept" },
  rubric_metric: { perCall: 20, perItem: 15, item: "instruction" },
  embedding: flat(0),
  embedding_equivalence: flat(2),
  agent_turn: flat(60),
  agentic_report: { perCall: 60, perItem: 40, item: "schema field or criterion" },
  agentic_decision: { perCall: 40, perItem: 15, item: "schema field" },
});

/** Mean output tokens per call of each kind seen in a response cache, and how many calls the mean is over. */
export type OutputTokenHistory = Partial<Record<CallKind, { meanOutputTokens: number; samples: number }>>;

/** The output tokens of one call of `kind` about `items` items: the cache's mean when it has one, else the default. */
export function outputTokensFor(
  kind: CallKind,
  items: number,
  history: OutputTokenHistory | undefined,
): number {
  const seen = history?.[kind];
  if (seen !== undefined) return Math.round(seen.meanOutputTokens);
  const fallback = OUTPUT_TOKEN_DEFAULTS[kind];
  return fallback.perCall + fallback.perItem * items;
}
