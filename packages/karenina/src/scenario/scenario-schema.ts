import { z } from "zod";
import { Question } from "../model/index.js";
import { MODEL_CONFIG_KEYS, type ModelConfig, ModelConfigSchema } from "../pipeline/config/model/index.js";
import { type Normalizer, type Primitive, primitiveFromJson, SynonymMapSchema } from "../templates/index.js";

// ---------------------------------------------------------------------------------------------------------
// Constants (spec 08 §2.1)

/** Edge target meaning "stop, status completed". Not a node id (the builder refuses a node named so). */
export const END = "__end__";
/** Agent id of the synthetic user messages (node questions) in the tagged log; not a node agent identity. */
export const USER_AGENT_ID = "__user__";
/** The handover strategies, the only strings the builder accepts for `handover`. */
export const HANDOVER_STRATEGIES = [
  "transcript_prepend",
  "transcript_append",
  "transcript_materialize",
] as const;
export type HandoverStrategy = (typeof HANDOVER_STRATEGIES)[number];
/** Between a handover transcript and the question text. */
export const TRANSCRIPT_SEPARATOR = "\n\n---\n\n";
/** `VerificationConfig.scenario_turn_limit` default. */
export const DEFAULT_SCENARIO_TURN_LIMIT = 20;
/** Execution statuses; `timeout` is in the type but never produced (quirk Q2). */
export const SCENARIO_STATUSES = ["completed", "limit_reached", "error", "timeout"] as const;
export type ScenarioStatus = (typeof SCENARIO_STATUSES)[number];
/** `@type` of a scenario object in a checkpoint. */
export const SCENARIO_JSONLD_TYPE = "karenina:Scenario";
/** `@type` of a scenario node object in a checkpoint. */
export const SCENARIO_NODE_JSONLD_TYPE = "karenina:ScenarioNode";
/** The root property a scenario benchmark carries: `{"name": "benchmark_type", "value": "scenario"}`. */
export const BENCHMARK_TYPE_PROPERTY = { name: "benchmark_type", value: "scenario" } as const;
/** How deeply outcome compositions (`all_of`, `any_of`, `at_least_n`) may nest. */
export const MAX_OUTCOME_NESTING = 64;

// ---------------------------------------------------------------------------------------------------------
// Runtime-only callables: kept in memory, never written to a checkpoint.

const callable = <F>() =>
  z.custom<F>((value) => typeof value === "function", "expected a function").optional();

/** `state_update(accumulated, parsed) → accumulated`, given in TypeScript. */
export type StateUpdateFn = (
  accumulated: Record<string, unknown>,
  parsed: Record<string, unknown>,
) => unknown;
/** `condition(state) → truthy`, given in TypeScript. */
export type ConditionFn = (state: unknown) => unknown;
/** `handover(taggedMessages, state) → messages`, given in TypeScript. */
export type HandoverFn = (taggedMessages: readonly unknown[], state: unknown) => unknown;
/** `evaluate(result) → bool | number | null`, given in TypeScript. */
export type EvaluateFn = (result: unknown) => unknown;

// ---------------------------------------------------------------------------------------------------------
// Primitives and questions

const isPrimitive = (value: unknown): value is Primitive =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Primitive).toJSON === "function" &&
  typeof (value as Primitive).type === "string" &&
  "params" in value &&
  "isTrace" in value;

/**
 * A verification primitive (spec 02 §6): a built one, or its serialized form (`{"type": "ExactMatch", ...}`),
 * rebuilt with the original's errors (`Primitive data missing 'type' key`, `Unknown primitive type: 'X'`).
 */
export const PrimitiveSchema: z.ZodType<Primitive, unknown> = z.unknown().transform((value, ctx) => {
  if (isPrimitive(value)) return value;
  try {
    return primitiveFromJson(value);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
});

/** A `Question` (spec 01 §2): a built one, or its fields (strict; `id` dropped, legacy `tags` read). */
export const QuestionObjectSchema: z.ZodType<Question, unknown> = z.unknown().transform((value, ctx) => {
  if (value instanceof Question) return value;
  try {
    return new Question(value as ConstructorParameters<typeof Question>[0]);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
});

const NormalizerSchema: z.ZodType<Normalizer, unknown> = z.union([z.string(), SynonymMapSchema]);

// ---------------------------------------------------------------------------------------------------------
// Nodes (spec 08 §2.3, §2.4)

/**
 * A model config of an override: the keys a model config has (others ignored, as the original ignores them),
 * validated as a `ModelConfig` (spec 04 §3).
 */
const OverrideModelSchema: z.ZodType<ModelConfig, unknown> = z.lazy(() =>
  z.preprocess((value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const known: Record<string, unknown> = {};
    for (const key of MODEL_CONFIG_KEYS) {
      if (Object.hasOwn(value, key)) known[key] = (value as Record<string, unknown>)[key];
    }
    return known;
  }, ModelConfigSchema),
);

export const ModelOverrideSchema = z.object({
  answering_model: OverrideModelSchema.nullable().default(null),
  parsing_model: OverrideModelSchema.nullable().default(null),
});
/** Per-node models replacing the base answering and/or parsing model. */
export type ModelOverride = z.output<typeof ModelOverrideSchema>;
export type ModelOverrideInput = z.input<typeof ModelOverrideSchema>;

export const ToolFilterEntrySchema = z.object({
  server: z.string(),
  tool: z.string().nullable().default(null),
});
export type ToolFilterEntry = z.output<typeof ToolFilterEntrySchema>;

export const ToolFilterSchema = z.object({ remove: z.array(ToolFilterEntrySchema) });
/** MCP tools removed from the answering model at a node: one tool of a server, or all of it (`tool` null). */
export type ToolFilter = z.output<typeof ToolFilterSchema>;
export type ToolFilterInput = z.input<typeof ToolFilterSchema>;

const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  "expected an object",
);

export const ScenarioNodeSchema = z.object({
  node_id: z.string(),
  question: QuestionObjectSchema,
  model_override: ModelOverrideSchema.nullable().default(null),
  tool_filter: ToolFilterSchema.nullable().default(null),
  metadata: jsonObject.default(() => ({})),
  agent_identity: z.string().nullable().default(null),
  /** Python source of `state_update` (`lambda acc, p: {...}`), kept byte for byte; runs in the sandbox. */
  state_update_source: z.string().nullable().default(null),
  /** A TypeScript `state_update`: runs in process, never saved. */
  state_update: callable<StateUpdateFn>(),
});
/** One node: a question (with its template and rubric) visited as a turn. */
export type ScenarioNode = z.output<typeof ScenarioNodeSchema>;
export type ScenarioNodeInput = z.input<typeof ScenarioNodeSchema>;

// ---------------------------------------------------------------------------------------------------------
// Edges (spec 08 §2.5, §2.6)

export const StateCheckSchema = z.object({
  type: z.literal("state_check").default("state_check"),
  field: z.string(),
  expected: z.unknown().default(null),
  verify_with: PrimitiveSchema,
});
/** An edge condition leaf: `verify_with.check(resolve(field, state), expected)`. */
export type StateCheck = z.output<typeof StateCheckSchema>;
export type StateCheckInput = z.input<typeof StateCheckSchema>;

export const ScenarioEdgeSchema = z.object({
  source: z.string(),
  /** A node id or {@link END}. */
  target: z.string(),
  /** One check, or a list meaning AND. */
  condition: z
    .union([StateCheckSchema, z.array(StateCheckSchema)])
    .nullable()
    .default(null),
  /** Python source of the condition (`lambda st: st.turn > 0`), kept byte for byte. */
  condition_source: z.string().nullable().default(null),
  /** A handover strategy; not checked on load (quirk Q21). */
  handover: z.string().nullable().default(null),
  /** A TypeScript condition: runs in process, never saved. */
  condition_callable: callable<ConditionFn>(),
  /** A TypeScript handover: runs in process, never saved (the original never saves one either). */
  handover_callable: callable<HandoverFn>(),
});
/** A directed edge; order among a node's edges is significant (the first passing one is taken). */
export type ScenarioEdge = z.output<typeof ScenarioEdgeSchema>;
export type ScenarioEdgeInput = z.input<typeof ScenarioEdgeSchema>;

/** An edge is unconditional iff it has neither a declarative condition nor a callable one (a source counts). */
export function isUnconditional(edge: ScenarioEdge): boolean {
  return edge.condition === null && edge.condition_source === null && edge.condition_callable === undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Outcome criteria (spec 08 §2.7)

export type NodeFilter = string | string[] | null;

/** Which turns a check looks at. */
export type Scope =
  | { type: "last_turn" }
  | { type: "first_turn" }
  | { type: "turn_at"; index: number }
  | { type: "any_turn"; node_id: NodeFilter }
  | { type: "all_turns"; node_id: NodeFilter };

export type TurnCheck = {
  type: "turn_check";
  scope: Scope;
  field: string;
  expected: unknown;
  verify_with: Primitive;
};
export type ResultCheck = { type: "result_check"; field: string; expected: unknown; verify_with: Primitive };
export const CROSS_TURN_COMPARISONS = ["eq", "neq", "contains", "gt", "gte", "lt", "lte"] as const;
export type CrossTurnComparison = (typeof CROSS_TURN_COMPARISONS)[number];
export type CrossTurnCheck = {
  type: "cross_turn_check";
  source_turn: Scope;
  source_field: string;
  target_turn: Scope;
  target_field: string;
  comparison: CrossTurnComparison;
  normalize: Normalizer[];
};
export type AllOf = { type: "all_of"; conditions: OutcomeNode[] };
export type AnyOf = { type: "any_of"; conditions: OutcomeNode[] };
export type AtLeastN = { type: "at_least_n"; n: number; conditions: OutcomeNode[] };
export type CountTurns = { type: "count_turns"; node_id: NodeFilter; verify_result: boolean | null };
export type FirstMatchIndex = {
  type: "first_match_index";
  node_id: NodeFilter;
  verify_result: boolean | null;
};

/** A boolean check, a composition of checks, or an aggregation (an int). */
export type OutcomeNode =
  | TurnCheck
  | ResultCheck
  | CrossTurnCheck
  | AllOf
  | AnyOf
  | AtLeastN
  | CountTurns
  | FirstMatchIndex;
export type OutcomeNodeType = OutcomeNode["type"];

/** Class name (as the original writes it) → tag, for every outcome node. */
export const OUTCOME_NODE_CLASSES: Readonly<Record<OutcomeNodeType, string>> = {
  turn_check: "TurnCheck",
  result_check: "ResultCheck",
  cross_turn_check: "CrossTurnCheck",
  all_of: "AllOf",
  any_of: "AnyOf",
  at_least_n: "AtLeastN",
  count_turns: "CountTurns",
  first_match_index: "FirstMatchIndex",
};
const SCOPE_CLASSES: Readonly<Record<Scope["type"], string>> = {
  last_turn: "LastTurn",
  first_turn: "FirstTurn",
  turn_at: "TurnAt",
  any_turn: "AnyTurn",
  all_turns: "AllTurns",
};

/** Reads a class name (`AllOf`) as its tag (`all_of`); the original accepts both (spec 08 §3.6). */
function tagOf(classes: Readonly<Record<string, string>>) {
  const byClass = new Map(Object.entries(classes).map(([tag, name]) => [name, tag]));
  return (value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const type = (value as { type?: unknown }).type;
    const tag = typeof type === "string" ? byClass.get(type) : undefined;
    return tag === undefined ? value : { ...value, type: tag };
  };
}

const nodeFilter = z
  .union([z.string(), z.array(z.string())])
  .nullable()
  .default(null);

export const ScopeSchema: z.ZodType<Scope, unknown> = z.preprocess(
  tagOf(SCOPE_CLASSES),
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("last_turn") }),
    z.object({ type: z.literal("first_turn") }),
    z.object({ type: z.literal("turn_at"), index: z.int() }),
    z.object({ type: z.literal("any_turn"), node_id: nodeFilter }),
    z.object({ type: z.literal("all_turns"), node_id: nodeFilter }),
  ]),
);

const conditions = () => z.array(OutcomeNodeSchema).default([]);

/**
 * Any outcome node, tagged by `type` (class names read as tags). Nesting is not limited here: the builder and
 * the checkpoint reader check it first (see {@link MAX_OUTCOME_NESTING}).
 */
export const OutcomeNodeSchema: z.ZodType<OutcomeNode, unknown> = z.lazy(() =>
  z.preprocess(
    tagOf(OUTCOME_NODE_CLASSES),
    z.discriminatedUnion("type", [
      z.object({
        type: z.literal("turn_check"),
        scope: ScopeSchema,
        field: z.string(),
        expected: z.unknown().default(null),
        verify_with: PrimitiveSchema,
      }),
      z.object({
        type: z.literal("result_check"),
        field: z.string(),
        expected: z.unknown().default(null),
        verify_with: PrimitiveSchema,
      }),
      z.object({
        type: z.literal("cross_turn_check"),
        source_turn: ScopeSchema,
        source_field: z.string(),
        target_turn: ScopeSchema,
        target_field: z.string(),
        comparison: z.enum(CROSS_TURN_COMPARISONS),
        normalize: z.array(NormalizerSchema).default([]),
      }),
      z.object({ type: z.literal("all_of"), conditions: conditions() }),
      z.object({ type: z.literal("any_of"), conditions: conditions() }),
      z.object({ type: z.literal("at_least_n"), n: z.int().min(0), conditions: conditions() }),
      z.object({
        type: z.literal("count_turns"),
        node_id: nodeFilter,
        verify_result: z.boolean().nullable().default(null),
      }),
      z.object({
        type: z.literal("first_match_index"),
        node_id: nodeFilter,
        verify_result: z.boolean().nullable().default(null),
      }),
    ]),
  ),
) as z.ZodType<OutcomeNode, unknown>;

export const ScenarioOutcomeCriterionSchema = z.object({
  name: z.string(),
  description: z.string().default(""),
  /** The declarative check; wins over `evaluate_source` when both are set. */
  check: OutcomeNodeSchema.nullable().default(null),
  /** Python source of `evaluate(result)` (`lambda r: r.turn_count <= 4`), kept byte for byte. */
  evaluate_source: z.string().nullable().default(null),
  /** A TypeScript `evaluate`: runs in process, never saved. */
  evaluate: callable<EvaluateFn>(),
});
/** A named judgement of a whole execution, evaluated once after the run. */
export type ScenarioOutcomeCriterion = z.output<typeof ScenarioOutcomeCriterionSchema>;
export type ScenarioOutcomeCriterionInput = z.input<typeof ScenarioOutcomeCriterionSchema>;

// ---------------------------------------------------------------------------------------------------------
// Definition (spec 08 §2.2)

const nodeMap = z.custom<Record<string, ScenarioNodeInput>>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
  "expected an object of nodes by id",
);

export const ScenarioDefinitionSchema = z.object({
  /** The scenario id everywhere (results, cache keys, task keys). */
  name: z.string(),
  description: z.string().default(""),
  /** Nodes by id, in insertion order (the file's order). */
  nodes: nodeMap.transform((nodes, ctx) => {
    const out: Record<string, ScenarioNode> = {};
    for (const [id, node] of Object.entries(nodes)) {
      const parsed = ScenarioNodeSchema.safeParse(node);
      if (parsed.success)
        Object.defineProperty(out, id, {
          value: parsed.data,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else
        for (const issue of parsed.error.issues)
          ctx.addIssue({ ...issue, path: [id, ...issue.path] } as never);
    }
    return out;
  }),
  edges: z.array(ScenarioEdgeSchema),
  entry_node: z.string(),
  outcome_criteria: z.array(ScenarioOutcomeCriterionSchema).default([]),
  metadata: jsonObject.default(() => ({})),
});
/**
 * A scenario: a graph of question nodes, routed by edge conditions, judged by outcome criteria. Not
 * graph-validated (quirk Q21): `Scenario.validate()` and `checkScenarioGraph` do that.
 */
export type ScenarioDefinition = z.output<typeof ScenarioDefinitionSchema>;
export type ScenarioDefinitionInput = z.input<typeof ScenarioDefinitionSchema>;
