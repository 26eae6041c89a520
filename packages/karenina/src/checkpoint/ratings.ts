import { coerceLaxBoolean } from "../model/index.js";
import {
  type AgenticTrait,
  type CallableTrait,
  isTemplateKind,
  type LlmTrait,
  type MetricTrait,
  parseRubricTrait,
  type RegexTrait,
  RubricError,
  type RubricTrait,
  TRAIT_FIELDS,
  TRAIT_TYPES,
  type TraitType,
} from "../model/rubric/index.js";
import { ownValue } from "../plain-data/index.js";
import { CheckpointError } from "./errors.js";
import type { PropertyValue, Rating, RatingType } from "./jsonld-schema.js";

/** Where a trait lives: the benchmark-level (global) rubric or one question's rubric. */
export type TraitScope = "global" | "question";

/** Where a rating was read from, for error messages: the file and the rating's JSON path (`$.rating[2]`). */
export interface RatingContext {
  file: string;
  jsonPath: string;
}

/** What a loaded rating carried beyond its trait, to be written back on save. */
export interface RatingPreserve {
  "@id"?: string;
  /** PropertyValues this format does not know; appended after the known ones. */
  extraProperties?: readonly PropertyValue[];
}

/** A rating read back into a trait, with what must survive a save (pass it as {@link RatingPreserve}). */
export interface DecodedRating {
  trait: RubricTrait;
  "@id"?: string;
  unknownProperties: PropertyValue[];
  /** Recoverable oddities, e.g. `classes` holding unparsable JSON (read as null). */
  warnings: string[];
}

// ── additionalType ──────────────────────────────────────────────────────────────────────────────────────

const TYPE_SUFFIXES: Record<TraitType | "llm_scalar", string> = {
  llm_scalar: "RubricTrait",
  llm: "LLMRubricTrait",
  regex: "RegexTrait",
  callable: "CallableTrait",
  metric: "MetricRubricTrait",
  agentic: "AgenticRubricTrait",
};

const scopePrefix = (scope: TraitScope) =>
  scope === "global" ? "karenina:Global" : "karenina:QuestionSpecific";

/** Whether a rating type belongs to the global rubric or to a question (spec 01 §6.9). */
export function ratingScope(additionalType: RatingType): TraitScope {
  return additionalType.startsWith("karenina:Global") ? "global" : "question";
}

/** Whether a rating type holds a dynamic-rubric trait (spec 01 §6.11). */
export function isDynamicRatingType(additionalType: RatingType): boolean {
  return additionalType.endsWith("DynamicRubricTrait");
}

/** The trait model a rating type is read with; null for dynamic ratings (their type is a property). */
export function ratingTraitType(additionalType: RatingType): TraitType | null {
  if (isDynamicRatingType(additionalType)) return null;
  const suffix = additionalType.replace(/^karenina:(Global|QuestionSpecific)/, "");
  if (suffix === TYPE_SUFFIXES.llm_scalar) return "llm";
  return TRAIT_TYPES.find((type) => TYPE_SUFFIXES[type] === suffix) ?? null;
}

/** A non-dynamic `Global*` rating: a trait of the global rubric. */
export function isGlobalTraitRating(rating: Rating): boolean {
  return ratingScope(rating.additionalType) === "global" && !isDynamicRatingType(rating.additionalType);
}

/** A non-dynamic `QuestionSpecific*` rating: the only ratings read into a question's rubric. */
export function isQuestionTraitRating(rating: Rating): boolean {
  return ratingScope(rating.additionalType) === "question" && !isDynamicRatingType(rating.additionalType);
}

/** The additionalType a trait is written with: LLM literal and template kinds use `*LLMRubricTrait`. */
export function ratingTypeOf(trait: RubricTrait, scope: TraitScope): RatingType {
  const scalarLlm = trait.type === "llm" && (trait.kind === "boolean" || trait.kind === "score");
  return `${scopePrefix(scope)}${TYPE_SUFFIXES[scalarLlm ? "llm_scalar" : trait.type]}` as RatingType;
}

// ── writing ─────────────────────────────────────────────────────────────────────────────────────────────

/** A PropertyValue; a null value is written without a `value` key (the original's `exclude_none`). */
function prop(name: string, value: unknown): PropertyValue {
  if (value === null || value === undefined) return { "@type": "PropertyValue", name };
  return {
    "@type": "PropertyValue",
    name,
    value: typeof value === "object" ? structuredClone(value) : value,
  };
}

/** A PropertyValue written only when the value is not null (`[x]` in spec 01 §6.9). */
const optional = (name: string, value: unknown): PropertyValue[] =>
  value === null || value === undefined ? [] : [prop(name, value)];

interface Encoded {
  best: number;
  worst: number;
  properties: PropertyValue[];
}

function encodeLlm(trait: LlmTrait): Encoded {
  const properties = [
    prop("deep_judgment_enabled", trait.deep_judgment_enabled),
    prop("deep_judgment_excerpt_enabled", trait.deep_judgment_excerpt_enabled),
    prop("deep_judgment_search_enabled", trait.deep_judgment_search_enabled),
    ...optional("deep_judgment_max_excerpts", trait.deep_judgment_max_excerpts),
    ...optional("deep_judgment_fuzzy_match_threshold", trait.deep_judgment_fuzzy_match_threshold),
    ...optional("deep_judgment_excerpt_retry_attempts", trait.deep_judgment_excerpt_retry_attempts),
    prop("higher_is_better", trait.higher_is_better),
    ...optional("summary", trait.summary),
    ...optional("min_score", trait.min_score),
    ...optional("max_score", trait.max_score),
  ];
  if (isTemplateKind(trait.kind))
    return { best: 0, worst: 0, properties: [...properties, prop("kind", trait.kind)] };
  if (trait.kind === "literal") {
    return {
      best: trait.max_score ?? 0,
      worst: trait.min_score ?? 0,
      properties: [...properties, prop("kind", "literal"), ...optional("classes", trait.classes)],
    };
  }
  // No `kind` prop for boolean/score: readers infer it from best/worst, so a 0–1 score reloads as boolean.
  if (trait.kind === "boolean") return { best: 1, worst: 0, properties };
  return { best: trait.max_score ?? 5, worst: trait.min_score ?? 1, properties };
}

function encodeRegex(trait: RegexTrait): Encoded {
  return {
    best: 1,
    worst: 0,
    properties: [
      prop("pattern", trait.pattern),
      prop("case_sensitive", trait.case_sensitive),
      prop("invert_result", trait.invert_result),
      prop("higher_is_better", trait.higher_is_better),
      ...optional("summary", trait.summary),
    ],
  };
}

function encodeCallable(trait: CallableTrait): Encoded {
  const score = trait.kind === "score";
  return {
    best: trait.kind === "boolean" ? 1 : (trait.max_score ?? 5),
    worst: trait.kind === "boolean" ? 0 : (trait.min_score ?? 1),
    properties: [
      prop("callable_code", trait.callable_code),
      prop("kind", trait.kind),
      prop("invert_result", trait.invert_result),
      prop("higher_is_better", trait.higher_is_better),
      ...(score
        ? [...optional("min_score", trait.min_score), ...optional("max_score", trait.max_score)]
        : []),
      ...optional("summary", trait.summary),
      ...optional("classes", trait.classes),
    ],
  };
}

function encodeMetric(trait: MetricTrait): Encoded {
  return {
    best: 1,
    worst: 0,
    properties: [
      prop("metrics", trait.metrics),
      prop("repeated_extraction", trait.repeated_extraction),
      prop("evaluation_mode", trait.evaluation_mode),
      prop("higher_is_better", trait.higher_is_better),
      ...(trait.tp_instructions.length > 0 ? [prop("tp_instructions", trait.tp_instructions)] : []),
      ...(trait.tn_instructions.length > 0 ? [prop("tn_instructions", trait.tn_instructions)] : []),
      ...optional("summary", trait.summary),
    ],
  };
}

function agenticRange(trait: AgenticTrait): [best: number, worst: number] {
  if (isTemplateKind(trait.kind)) return [0, 0];
  if (trait.kind === "boolean") return [1, 0];
  if (trait.kind === "literal" && trait.min_score !== null && trait.max_score !== null) {
    return [trait.max_score, trait.min_score];
  }
  return [trait.max_score ?? 5, trait.min_score ?? 1];
}

function encodeAgentic(trait: AgenticTrait): Encoded {
  const [best, worst] = agenticRange(trait);
  return {
    best,
    worst,
    properties: [
      prop("kind", trait.kind),
      prop("higher_is_better", trait.higher_is_better),
      prop("context_mode", trait.context_mode),
      prop("materialize_trace", trait.materialize_trace),
      prop("persist_trace", trait.persist_trace),
      prop("max_turns", trait.max_turns),
      prop("timeout_seconds", trait.timeout_seconds),
      ...optional("classes", trait.classes),
      ...optional("model_override", trait.model_override),
      ...optional("summary", trait.summary),
      ...optional("min_score", trait.min_score),
      ...optional("max_score", trait.max_score),
    ],
  };
}

function encode(trait: RubricTrait): Encoded {
  switch (trait.type) {
    case "llm":
      return encodeLlm(trait);
    case "regex":
      return encodeRegex(trait);
    case "callable":
      return encodeCallable(trait);
    case "metric":
      return encodeMetric(trait);
    case "agentic":
      return encodeAgentic(trait);
  }
}

/**
 * Writes a trait as a JSON-LD `Rating` exactly as the original does (spec 01 §6.9): additionalType by kind
 * and scope, best/worst by kind, known PropertyValues in the original's order (null-valued optional ones
 * left out), then `preserve.extraProperties`. `include_ground_truth` is not persisted.
 * @example
 * traitToRating(parseRubricTrait({ name: "has_citation", pattern: "\\[\\d+\\]" }, "regex"), "global").additionalType;
 * // "karenina:GlobalRegexTrait"
 */
export function traitToRating(trait: RubricTrait, scope: TraitScope, preserve: RatingPreserve = {}): Rating {
  const { best, worst, properties } = encode(trait);
  return {
    "@type": "Rating",
    ...(preserve["@id"] === undefined ? {} : { "@id": preserve["@id"] }),
    name: trait.name,
    ...(trait.description === null ? {} : { description: trait.description }),
    bestRating: best,
    worstRating: worst,
    additionalType: ratingTypeOf(trait, scope),
    additionalProperty: [...properties, ...(preserve.extraProperties ?? []).map((p) => structuredClone(p))],
  };
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────────────────

/** A rating's PropertyValue with its index in `additionalProperty`, for JSON paths in errors. */
interface IndexedProperty {
  property: PropertyValue;
  index: number;
}

const indexed = (rating: Rating): IndexedProperty[] =>
  (rating.additionalProperty ?? []).map((property, index) => ({ property, index }));

type Coerce<T> = (value: unknown) => T | undefined;

const asInt: Coerce<number> = (value) => {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\s*[-+]?\d+\s*$/.test(value)) return Number(value);
  return undefined;
};
const asNumber: Coerce<number> = (value) => {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
};
const asString: Coerce<string> = (value) => (typeof value === "string" ? value : undefined);
const nullable =
  <T>(coerce: Coerce<T>): Coerce<T | null> =>
  (value) =>
    value === null || value === undefined ? null : coerce(value);

/** Arrays may also be stored as JSON text (older writers). */
const asStringList: Coerce<string[]> = (value) => {
  const list = typeof value === "string" ? parseJson(value) : value;
  return Array.isArray(list) && list.every((item) => typeof item === "string") ? list : undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads a rating's PropertyValues with the original's defaults and lax coercions; a name read here is
 * "known", every other one is reported back as unknown so it survives a save.
 */
function propertyReader(properties: readonly IndexedProperty[], ctx: RatingContext, warnings: string[]) {
  const byName = new Map(properties.map((entry) => [entry.property.name, entry]));
  const known = new Set<string>();
  const pathOf = (entry: IndexedProperty) => `${ctx.jsonPath}.additionalProperty[${entry.index}].value`;

  function read<T>(name: string, fallback: T, coerce: Coerce<T>, expected: string): T {
    known.add(name);
    const entry = byName.get(name);
    if (entry === undefined) return fallback;
    const value = coerce(entry.property.value);
    if (value === undefined)
      throw CheckpointError.expected(ctx.file, pathOf(entry), expected, entry.property.value);
    return value;
  }

  return {
    has: (name: string) => byName.has(name),
    raw(name: string): unknown {
      known.add(name);
      return byName.get(name)?.property.value;
    },
    bool: (name: string, fallback: boolean) =>
      read(name, fallback, (value) => coerceLaxBoolean(value ?? undefined), "a boolean"),
    nullableBool: (name: string, fallback: boolean | null) =>
      read(
        name,
        fallback,
        nullable((value) => coerceLaxBoolean(value)),
        "a boolean or no value",
      ),
    int: (name: string, fallback: number) => read(name, fallback, asInt, "an integer"),
    nullableInt: (name: string, fallback: number | null) =>
      read(name, fallback, nullable(asInt), "an integer or no value"),
    nullableNumber: (name: string, fallback: number | null) =>
      read(name, fallback, nullable(asNumber), "a number or no value"),
    string: (name: string, fallback: string) => read(name, fallback, asString, "a string"),
    nullableString: (name: string, fallback: string | null) =>
      read(name, fallback, nullable(asString), "a string or no value"),
    stringList: (name: string) =>
      read(name, [] as string[], nullable(asStringList), "an array of strings (or its JSON text)") ?? [],
    classes(): Record<string, string> | null {
      const value = read("classes", null as unknown, (v) => v ?? null, "");
      const parsed = typeof value === "string" ? parseJson(value) : value;
      if (typeof value === "string" && parsed === undefined) {
        warnings.push(`${ctx.file}: ${ctx.jsonPath}: "classes" holds text that is not JSON; read as null`);
        return null;
      }
      if (parsed === null || parsed === undefined) return null;
      if (isRecord(parsed) && Object.values(parsed).every((label) => typeof label === "string")) {
        return parsed as Record<string, string>;
      }
      const entry = byName.get("classes") as IndexedProperty;
      throw CheckpointError.expected(
        ctx.file,
        pathOf(entry),
        "an object of class label → description",
        value,
      );
    },
    /** The PropertyValue holding a field, for pointing a model error at it. */
    entry: (name: string) => byName.get(name),
    pathOf,
    unknown: () =>
      properties.filter((entry) => !known.has(entry.property.name)).map((entry) => entry.property),
  };
}

type PropertyReader = ReturnType<typeof propertyReader>;

/** A `kind` PropertyValue: a kind string, a template object (`{"type": "template", "schema": …}`), or absent. */
function readKind(
  props: PropertyReader,
  ctx: RatingContext,
): string | { type: "template"; schema: unknown } | null {
  const value = props.raw("kind");
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  const entry = props.entry("kind") as IndexedProperty;
  if (!isRecord(value) || !isRecord(value.schema)) {
    throw CheckpointError.expected(
      ctx.file,
      props.pathOf(entry),
      'a kind name or {"type": "template", "schema": {...}}',
      value,
    );
  }
  return { type: "template", schema: value.schema };
}

function llmInput(rating: Rating, props: PropertyReader, ctx: RatingContext): Record<string, unknown> {
  const inferred = rating.bestRating === 1 && rating.worstRating === 0 ? "boolean" : "score";
  const kind = readKind(props, ctx) ?? inferred;
  const template = isTemplateKind(kind);
  const deepJudgment = props.bool("deep_judgment_enabled", false);
  const higherIsBetter = props.nullableBool("higher_is_better", true);
  return {
    name: rating.name,
    description: rating.description ?? null,
    summary: props.nullableString("summary", null),
    kind,
    ...(props.has("min_score") ? { min_score: props.nullableInt("min_score", null) } : {}),
    ...(props.has("max_score") ? { max_score: props.nullableInt("max_score", null) } : {}),
    classes: props.classes(),
    // Template kinds: the reader forces deep judgment off and higher_is_better to null (spec 01 §6.9).
    deep_judgment_enabled: template ? false : deepJudgment,
    deep_judgment_excerpt_enabled: props.bool("deep_judgment_excerpt_enabled", true),
    deep_judgment_max_excerpts: props.nullableInt("deep_judgment_max_excerpts", null),
    deep_judgment_fuzzy_match_threshold: props.nullableNumber("deep_judgment_fuzzy_match_threshold", null),
    deep_judgment_excerpt_retry_attempts: props.nullableInt("deep_judgment_excerpt_retry_attempts", null),
    deep_judgment_search_enabled: props.bool("deep_judgment_search_enabled", false),
    higher_is_better: template ? null : higherIsBetter,
  };
}

function regexInput(rating: Rating, props: PropertyReader): Record<string, unknown> {
  return {
    name: rating.name,
    description: rating.description ?? null,
    summary: props.nullableString("summary", null),
    pattern: props.string("pattern", ""),
    case_sensitive: props.bool("case_sensitive", true),
    invert_result: props.bool("invert_result", false),
    higher_is_better: props.nullableBool("higher_is_better", true),
  };
}

function callableInput(rating: Rating, props: PropertyReader): Record<string, unknown> {
  return {
    name: rating.name,
    description: rating.description ?? null,
    summary: props.nullableString("summary", null),
    kind: props.string("kind", "boolean"),
    callable_code: props.string("callable_code", ""),
    min_score: props.nullableInt("min_score", null),
    max_score: props.nullableInt("max_score", null),
    invert_result: props.bool("invert_result", false),
    classes: props.classes(),
    higher_is_better: props.nullableBool("higher_is_better", true),
  };
}

function metricInput(rating: Rating, props: PropertyReader): Record<string, unknown> {
  return {
    name: rating.name,
    description: rating.description ?? null,
    summary: props.nullableString("summary", null),
    evaluation_mode: props.string("evaluation_mode", "tp_only"),
    metrics: props.stringList("metrics"),
    tp_instructions: props.stringList("tp_instructions"),
    tn_instructions: props.stringList("tn_instructions"),
    repeated_extraction: props.bool("repeated_extraction", true),
    higher_is_better: props.nullableBool("higher_is_better", null),
  };
}

function agenticInput(rating: Rating, props: PropertyReader, ctx: RatingContext): Record<string, unknown> {
  const modelOverride = props.raw("model_override");
  return {
    name: rating.name,
    description: rating.description ?? "",
    summary: props.nullableString("summary", null),
    kind: readKind(props, ctx) ?? "boolean",
    higher_is_better: props.nullableBool("higher_is_better", true),
    ...(props.has("min_score") ? { min_score: props.nullableInt("min_score", null) } : {}),
    ...(props.has("max_score") ? { max_score: props.nullableInt("max_score", null) } : {}),
    classes: props.classes(),
    context_mode: props.string("context_mode", "trace_and_workspace"),
    materialize_trace: props.bool("materialize_trace", false),
    persist_trace: props.bool("persist_trace", false),
    max_turns: props.int("max_turns", 15),
    timeout_seconds: props.int("timeout_seconds", 120),
    model_override: isRecord(modelOverride) ? modelOverride : null,
  };
}

function traitInput(type: TraitType, rating: Rating, props: PropertyReader, ctx: RatingContext) {
  switch (type) {
    case "llm":
      return llmInput(rating, props, ctx);
    case "regex":
      return regexInput(rating, props);
    case "callable":
      return callableInput(rating, props);
    case "metric":
      return metricInput(rating, props);
    case "agentic":
      return agenticInput(rating, props, ctx);
  }
}

/** Builds the trait; a model rule it breaks becomes a CheckpointError pointing at the offending value. */
function buildTrait(
  type: TraitType,
  input: Record<string, unknown>,
  props: PropertyReader,
  ctx: RatingContext,
): RubricTrait {
  try {
    return parseRubricTrait(input, type);
  } catch (error) {
    if (!(error instanceof RubricError)) throw error;
    const field = error.field?.split(/[.[]/)[0] ?? null;
    const entry = field === null ? undefined : props.entry(field);
    const path =
      entry !== undefined
        ? props.pathOf(entry)
        : field === "name" || field === "description"
          ? `${ctx.jsonPath}.${field}`
          : ctx.jsonPath;
    throw new CheckpointError(ctx.file, path, error.message);
  }
}

function decode(
  type: TraitType,
  rating: Rating,
  properties: readonly IndexedProperty[],
  ctx: RatingContext,
  summary?: string | null,
): DecodedRating {
  const warnings: string[] = [];
  const props = propertyReader(properties, ctx, warnings);
  const input = traitInput(type, rating, props, ctx);
  if (summary !== undefined) input.summary = summary;
  const trait = buildTrait(type, input, props, ctx);
  return {
    trait,
    ...(rating["@id"] === undefined ? {} : { "@id": rating["@id"] }),
    unknownProperties: props.unknown(),
    warnings,
  };
}

/**
 * Reads a (non-dynamic) rating into a trait with the rules and defaults of spec 01 §6.9: LLM kind from the
 * `kind` property, else boolean iff best 1 / worst 0, else score; template kinds get `higher_is_better` null
 * and deep judgment off; `classes`, `metrics` and instructions may be arrays/objects or JSON text.
 * @throws CheckpointError naming the file, the JSON path of the bad value and what was expected.
 * @example
 * const rating = traitToRating(parseRubricTrait({ name: "cites", pattern: "\\[\\d+\\]" }, "regex"), "global");
 * ratingToTrait(rating, { file: "bench.jsonld", jsonPath: "$.rating[0]" }).trait.type; // "regex"
 */
export function ratingToTrait(rating: Rating, ctx: RatingContext): DecodedRating {
  const type = ratingTraitType(rating.additionalType);
  if (type === null) {
    throw CheckpointError.expected(
      ctx.file,
      `${ctx.jsonPath}.additionalType`,
      "a rubric trait type (dynamic-rubric ratings are read with ratingToDynamicTrait)",
      rating.additionalType,
    );
  }
  return decode(type, rating, indexed(rating), ctx);
}

// ── dynamic rubric ratings ──────────────────────────────────────────────────────────────────────────────

/**
 * Writes a dynamic-rubric trait (spec 01 §6.11): the normal rating with a `*DynamicRubricTrait` type and two
 * more properties, `dynamic_trait_type` and (when set) `summary` — which therefore appears twice.
 */
export function dynamicTraitToRating(
  trait: RubricTrait,
  scope: TraitScope = "global",
  preserve: RatingPreserve = {},
): Rating {
  const { extraProperties = [], ...identity } = preserve;
  const rating = traitToRating(trait, scope, identity);
  return {
    ...rating,
    additionalType: `${scopePrefix(scope)}DynamicRubricTrait`,
    additionalProperty: [
      ...(rating.additionalProperty ?? []),
      prop("dynamic_trait_type", trait.type),
      ...optional("summary", trait.summary),
      ...extraProperties.map((p) => structuredClone(p)),
    ],
  };
}

/** A dynamic rating whose `dynamic_trait_type` is not a trait type: skipped, as the original does. */
export interface SkippedDynamicRating {
  trait: null;
  warnings: string[];
}

/**
 * Reads a dynamic-rubric rating: `dynamic_trait_type` (default `"llm"`) picks the reader, `summary` is taken
 * out before the rest is read like a normal rating. An unknown type is skipped with a warning.
 * @throws CheckpointError as {@link ratingToTrait}.
 */
export function ratingToDynamicTrait(
  rating: Rating,
  ctx: RatingContext,
): DecodedRating | SkippedDynamicRating {
  if (!isDynamicRatingType(rating.additionalType)) {
    throw CheckpointError.expected(
      ctx.file,
      `${ctx.jsonPath}.additionalType`,
      "a dynamic rubric trait type",
      rating.additionalType,
    );
  }
  const all = indexed(rating);
  const meta = propertyReader(all, ctx, []);
  const type = meta.nullableString("dynamic_trait_type", "llm") ?? "llm";
  const summary = meta.nullableString("summary", null);
  if (!(TRAIT_TYPES as readonly string[]).includes(type)) {
    return {
      trait: null,
      warnings: [
        `${ctx.file}: ${ctx.jsonPath}: unknown dynamic_trait_type ${JSON.stringify(type)}; rating skipped`,
      ],
    };
  }
  const rest = all.filter(
    ({ property }) => property.name !== "dynamic_trait_type" && property.name !== "summary",
  );
  return decode(type as TraitType, rating, rest, ctx, summary);
}

// ── deep-judgment stripping and legacy properties ────────────────────────────────────────────────────────

const LLM_RATING_TYPES: ReadonlySet<string> = new Set([
  "karenina:GlobalRubricTrait",
  "karenina:QuestionSpecificRubricTrait",
  "karenina:GlobalLLMRubricTrait",
  "karenina:QuestionSpecificLLMRubricTrait",
]);

/**
 * A copy of the rating without its `deep_judgment_*` properties, as saved unless deep-judgment settings are
 * requested (spec 01 §6.10). Only LLM rating types are stripped (dynamic ones are not); when no property
 * remains, `additionalProperty` is dropped.
 */
export function stripDeepJudgment(rating: Rating): Rating {
  const copy = structuredClone(rating);
  if (!LLM_RATING_TYPES.has(copy.additionalType) || copy.additionalProperty === undefined) return copy;
  const kept = copy.additionalProperty.filter((property) => !property.name.startsWith("deep_judgment_"));
  if (kept.length > 0) copy.additionalProperty = kept;
  else delete copy.additionalProperty;
  return copy;
}

const LEGACY_PROPERTIES: Readonly<Record<string, TraitType>> = {
  global_regex_rubric_traits: "regex",
  global_callable_rubric_traits: "callable",
  global_metric_rubric_traits: "metric",
};

/** A legacy trait dict: only the model's fields are taken; regex `invert` is the old `invert_result`. */
function legacyTrait(type: TraitType, item: unknown, file: string, path: string): RubricTrait {
  if (!isRecord(item)) throw CheckpointError.expected(file, path, `a ${type} trait object`, item);
  const input = Object.fromEntries(
    TRAIT_FIELDS[type]
      .filter((key) => key !== "type" && Object.hasOwn(item, key))
      .map((key) => [key, item[key]]),
  );
  if (type === "regex" && !Object.hasOwn(input, "invert_result") && Object.hasOwn(item, "invert")) {
    input.invert_result = item.invert;
  }
  try {
    return parseRubricTrait(input, type);
  } catch (error) {
    if (!(error instanceof RubricError)) throw error;
    throw new CheckpointError(file, path, error.message);
  }
}

/**
 * Global traits stored by the original GUI in root properties `global_regex_rubric_traits`,
 * `global_callable_rubric_traits` and `global_metric_rubric_traits` (JSON text holding a list of trait
 * dicts). Text that is not a JSON list is ignored, as the original does; a bad trait dict is an error.
 * @throws CheckpointError for a trait dict that breaks its model's rules.
 */
export function readLegacyGlobalTraits(
  rootProperties: readonly PropertyValue[],
  file = "checkpoint",
): RubricTrait[] {
  return rootProperties.flatMap((property, index) => {
    const type = ownValue(LEGACY_PROPERTIES, property.name);
    if (type === undefined) return [];
    const list = typeof property.value === "string" ? parseJson(property.value) : property.value;
    if (!Array.isArray(list)) return [];
    return list.map((item, position) =>
      legacyTrait(type, item, file, `$.additionalProperty[${index}].value[${position}]`),
    );
  });
}
