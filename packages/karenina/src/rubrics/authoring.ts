import { describeValue } from "../errors/index.js";
import {
  type AgenticTrait,
  type CallableTrait,
  type Classes,
  type CONTEXT_MODES,
  type LlmTrait,
  type MetricName,
  type MetricTrait,
  parseRubricTrait,
  type RegexTrait,
  RubricError,
  type RubricTrait,
  type TraitType,
} from "../model/rubric/index.js";
import { JavaScriptSandbox } from "../sandbox/index.js";
import { pydanticTitle, sortSchemaKeys } from "../templates/index.js";
import { encodeJavaScriptCallable } from "./callable-code.js";
import { runJavaScriptCallable } from "./callable-evaluation.js";
import { scoreRangeProblem } from "./score-range.js";

/** Fields every trait has. */
export interface TraitOptions {
  readonly name: string;
  readonly description?: string | null;
  /** A short concept label (used by dynamic rubrics). */
  readonly summary?: string | null;
  /** Directionality for analysis only; defaults as in the original (true, null for metric traits). */
  readonly higherIsBetter?: boolean | null;
}

/** Deep-judgment settings stored on an LLM trait (spec 03 §2.1, §10); null values use the run's settings. */
export interface DeepJudgmentOptions {
  readonly enabled?: boolean;
  readonly excerpts?: boolean;
  readonly maxExcerpts?: number | null;
  readonly fuzzyMatchThreshold?: number | null;
  readonly excerptRetryAttempts?: number | null;
  readonly search?: boolean;
}

export interface LlmTraitOptions extends TraitOptions {
  /** Show the question's reference answer to the judge for this trait (spec 03 §2.6; not saved in checkpoints). */
  readonly includeGroundTruth?: boolean;
  readonly deepJudgment?: DeepJudgmentOptions;
}

/** The field types a template-kind trait may use (spec 03 §2.5). */
export type TemplateTraitFieldType =
  | "int"
  | "float"
  | "str"
  | "bool"
  | "list[int]"
  | "list[float]"
  | "list[str]"
  | "list[bool]";

/** One field of a template-kind trait: what the judge fills in. */
export interface TemplateTraitField {
  readonly type: TemplateTraitFieldType;
  /** What the judge puts in this field. */
  readonly description?: string;
  /** `Optional[...]`: the judge may answer null. An optional field needs a `default` (the original's rule). */
  readonly optional?: boolean;
  /** The field's default; a field with a default is not required. */
  readonly default?: unknown;
}

export interface TemplateTraitOptions extends Omit<TraitOptions, "higherIsBetter"> {
  /** The fields of the structured judgement, in order; names are Python identifiers without a dot. */
  readonly fields: Readonly<Record<string, TemplateTraitField>>;
  /** The class name, the schema's `title` the judge sees. Default: the trait name in PascalCase. */
  readonly className?: string;
  /** Show the question's reference answer to the judge for this trait (not saved in checkpoints). */
  readonly includeGroundTruth?: boolean;
}

export interface ScoreRangeOptions {
  /** Default 1. */
  readonly minScore?: number;
  /** Default 5; must be greater than `minScore`. */
  readonly maxScore?: number;
}

export interface ClassesOptions {
  /** Class label → description, in index order: 2 to 20 classes. */
  readonly classes: Record<string, string>;
}

export interface RegexTraitOptions extends TraitOptions {
  /** A Python `re` pattern, searched anywhere in the text. */
  readonly pattern: string;
  readonly caseSensitive?: boolean;
  readonly invertResult?: boolean;
}

export interface MetricTraitOptions extends TraitOptions {
  readonly metrics: readonly MetricName[];
  /** What the response should contain. */
  readonly tpInstructions: readonly string[];
  /** What it should not contain (`full_matrix` mode). */
  readonly tnInstructions?: readonly string[];
  readonly evaluationMode?: "tp_only" | "full_matrix";
  /** Drop duplicate and empty extracted items (default true). */
  readonly repeatedExtraction?: boolean;
}

export type AgenticTraitOptions = TraitOptions & {
  /** What the agent investigates; required. */
  readonly description: string;
  readonly contextMode?: (typeof CONTEXT_MODES)[number];
  readonly materializeTrace?: boolean;
  readonly persistTrace?: boolean;
  readonly maxTurns?: number;
  readonly timeoutSeconds?: number;
  /** A `ModelConfig` dump for an agent-capable model. */
  readonly modelOverride?: Record<string, unknown> | null;
} & (
    | { readonly kind: "boolean" }
    | ({ readonly kind: "score" } & ScoreRangeOptions)
    | ({ readonly kind: "literal" } & ClassesOptions)
  );

/** The kind of a callable trait and what it needs. */
export type CallableKindOptions =
  | { readonly kind: "boolean"; readonly invertResult?: boolean }
  | { readonly kind: "score"; readonly minScore: number; readonly maxScore: number }
  | ({ readonly kind: "literal" } & ClassesOptions);

export type CallableTraitOptions = TraitOptions &
  CallableKindOptions & {
    /**
     * A self-contained function of the text: an arrow function or function expression that uses nothing
     * but its parameter and JavaScript built-ins (it is stored as source and run in QuickJS).
     */
    readonly fn: (text: string) => unknown;
    /** Where the function is test-run (a short-lived sandbox is made when none is given). */
    readonly sandbox?: JavaScriptSandbox;
  };

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

function common(options: TraitOptions): Record<string, unknown> {
  return defined({
    name: options.name,
    description: options.description,
    summary: options.summary,
    higher_is_better: options.higherIsBetter,
  });
}

/** A construction rule of ours that the schemas do not check, reported like a schema error. */
function refuse(type: TraitType, name: string, field: string, message: string): never {
  throw new RubricError([{ subject: `${type} trait "${name}"`, field, message }]);
}

/** Parses through the trait's schema, then applies the range rule the original lacks (min < max). */
function build<T extends RubricTrait>(type: TraitType, input: Record<string, unknown>): T {
  const trait = parseRubricTrait(input, type);
  const problem = scoreRangeProblem(trait);
  if (problem !== null) refuse(type, trait.name, "min_score", problem);
  return trait as T;
}

/** Agentic literal traits only need one class in the original; like LLM and callable traits, we need two. */
function agenticClasses(name: string, classes: Classes): Classes {
  if (classes === null || Object.keys(classes).length < 2) {
    refuse("agentic", name, "classes", "Literal trait must have at least 2 classes");
  }
  return classes;
}

function llmTrait(options: LlmTraitOptions, kindFields: Record<string, unknown>): LlmTrait {
  const dj = options.deepJudgment ?? {};
  return build<LlmTrait>("llm", {
    ...common(options),
    ...kindFields,
    ...defined({
      include_ground_truth: options.includeGroundTruth,
      deep_judgment_enabled: dj.enabled,
      deep_judgment_excerpt_enabled: dj.excerpts,
      deep_judgment_max_excerpts: dj.maxExcerpts,
      deep_judgment_fuzzy_match_threshold: dj.fuzzyMatchThreshold,
      deep_judgment_excerpt_retry_attempts: dj.excerptRetryAttempts,
      deep_judgment_search_enabled: dj.search,
    }),
  });
}

const JSON_TYPES: Record<string, string> = {
  int: "integer",
  float: "number",
  str: "string",
  bool: "boolean",
};

/** A value the field type holds (`int` an integer, `list[str]` a list of strings, ...). */
function holdsValue(type: TemplateTraitFieldType, value: unknown): boolean {
  const list = /^list\[(\w+)\]$/.exec(type);
  if (list !== null) return Array.isArray(value) && value.every((item) => holdsValue(list[1] as never, item));
  if (type === "int") return Number.isInteger(value);
  if (type === "float") return typeof value === "number";
  return typeof value === (type === "str" ? "string" : "boolean");
}

/** The property Pydantic writes for one field (keys sorted later). */
function templateProperty(trait: string, name: string, field: TemplateTraitField): Record<string, unknown> {
  const where = `kind.schema.properties.${name}`;
  const list = /^list\[(\w+)\]$/.exec(field.type);
  const scalar = JSON_TYPES[list ? (list[1] as string) : field.type];
  if (scalar === undefined) {
    refuse(
      "llm",
      trait,
      where,
      `type ${JSON.stringify(field.type)} not allowed in template kind; use int, float, str, bool or list[...] of one of those`,
    );
  }
  const type = list ? { items: { type: scalar }, type: "array" } : { type: scalar };
  const hasDefault = Object.hasOwn(field, "default");
  if (field.optional && !hasDefault) {
    refuse(
      "llm",
      trait,
      where,
      "Optional fields must have an explicit default value (give `default`, e.g. null)",
    );
  }
  if (hasDefault && !(field.default === null ? field.optional : holdsValue(field.type, field.default))) {
    refuse(
      "llm",
      trait,
      where,
      `the default ${describeValue(field.default)} is not a ${field.type}${field.optional ? " or null" : ""}`,
    );
  }
  return {
    ...(field.optional ? { anyOf: [type, { type: "null" }] } : type),
    ...(hasDefault ? { default: field.default } : {}),
    ...(field.description ? { description: field.description } : {}),
    title: pydanticTitle(name),
  };
}

const pascalCase = (name: string) =>
  name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, _sep, char: string) => char.toUpperCase()) ||
  "Judgement";

/** The JSON Schema Pydantic's `model_json_schema()` gives the class of a template-kind trait (spec 03 §2.5). */
function templateKindSchema(options: TemplateTraitOptions): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const entries = Object.entries(options.fields);
  if (entries.length === 0)
    refuse("llm", options.name, "kind.schema.properties", "a template trait needs at least one field");
  for (const [name, field] of entries) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      refuse(
        "llm",
        options.name,
        "kind.schema.properties",
        `field name ${JSON.stringify(name)} must be a Python identifier not starting with "_" (no dots)`,
      );
    }
    properties[name] = templateProperty(options.name, name, field);
    if (!Object.hasOwn(field, "default")) required.push(name);
  }
  const schema = {
    properties,
    ...(required.length > 0 ? { required } : {}),
    title: options.className ?? pascalCase(options.name),
    type: "object",
  };
  return sortSchemaKeys(schema) as Record<string, unknown>;
}

/** A plain-JavaScript rendering of a function's source, refused when it cannot be stored and re-run alone. */
function functionSource(name: string, fn: unknown): string {
  if (typeof fn !== "function") refuse("callable", name, "fn", "expected a function of the text");
  if (fn.length !== 1) {
    refuse(
      "callable",
      name,
      "fn",
      `the function must take exactly one parameter (the text); it takes ${fn.length}`,
    );
  }
  const source = Function.prototype.toString.call(fn).trim();
  if (/\{\s*\[native code\]\s*\}$/.test(source)) {
    refuse(
      "callable",
      name,
      "fn",
      "a built-in or bound function has no source to store; pass an arrow function",
    );
  }
  if (!/^(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/.test(source)) {
    refuse(
      "callable",
      name,
      "fn",
      "the function's source is not a function expression (a method or class?); pass an arrow function or `function (text) {…}`",
    );
  }
  return source;
}

/** The text a callable is test-run on when it is built. */
const SAMPLE_TEXT = "The quick brown fox jumps over the lazy dog. Venetoclax inhibits BCL-2 [1].";

const RETURN_TYPES = { boolean: "boolean", score: "number", literal: "string" } as const;

/**
 * Test-runs the stored source in QuickJS on {@link SAMPLE_TEXT}: a function that uses a variable from its
 * surroundings (a closure), is async, throws, or returns the wrong type for its kind is refused here rather
 * than at evaluation.
 */
async function checkRunsAlone(options: CallableTraitOptions, source: string): Promise<void> {
  const sandbox = options.sandbox ?? (await JavaScriptSandbox.create());
  let output: unknown;
  try {
    output = await runJavaScriptCallable(sandbox, source, SAMPLE_TEXT);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    const hint = /ReferenceError/.test(detail)
      ? "; the function must be self-contained (no variables from its surroundings, no imports)"
      : "";
    refuse(
      "callable",
      options.name,
      "fn",
      `the function fails when run alone in the sandbox (${detail})${hint}`,
    );
  } finally {
    if (options.sandbox === undefined) sandbox.close();
  }
  const expected = RETURN_TYPES[options.kind];
  if (typeof output !== expected) {
    refuse(
      "callable",
      options.name,
      "fn",
      `kind "${options.kind}" needs the function to return a ${expected}, and on a sample text it returned ${describeValue(output)}`,
    );
  }
}

function callableKindFields(options: CallableTraitOptions): Record<string, unknown> {
  switch (options.kind) {
    case "boolean":
      return defined({ invert_result: options.invertResult });
    case "score":
      return { min_score: options.minScore, max_score: options.maxScore };
    case "literal":
      return { classes: options.classes };
  }
}

function agenticKindFields(options: AgenticTraitOptions): Record<string, unknown> {
  switch (options.kind) {
    case "boolean":
      return {};
    case "score":
      return defined({ min_score: options.minScore, max_score: options.maxScore });
    case "literal":
      return { classes: agenticClasses(options.name, options.classes) };
  }
}

/**
 * Builds validated rubric traits, to pass to `Benchmark.setGlobalRubric`, `addQuestionRubricTrait`,
 * `rubricFromTraits` and the like. Options are camelCase; the traits are the model's snake_case objects.
 * Bad input throws a `RubricError` naming the trait and the field: a score range with min ≥ max (our
 * addition), fewer than 2 literal classes, an invalid or untranslatable regex, a callable that is not a
 * self-contained one-parameter function.
 * @example
 * trait.llm.score({ name: "clarity", description: "Clear and well organised", maxScore: 10 }).max_score; // 10
 * trait.regex({ name: "cites", pattern: String.raw`\[\d+\]` }).case_sensitive; // true
 * trait.metric({ name: "coverage", metrics: ["recall"], tpInstructions: ["COX-1"] }).evaluation_mode; // "tp_only"
 * const short = await trait.callable({ name: "short", kind: "boolean", fn: (text) => text.length < 500 });
 * short.kind; // "boolean"
 */
export const trait = {
  /** Traits judged by an LLM. */
  llm: {
    /** A yes/no criterion. */
    boolean: (options: LlmTraitOptions): LlmTrait => llmTrait(options, { kind: "boolean" }),
    /** An integer score within `[minScore, maxScore]` (default 1–5). */
    score: (options: LlmTraitOptions & ScoreRangeOptions): LlmTrait =>
      llmTrait(options, {
        kind: "score",
        ...defined({ min_score: options.minScore, max_score: options.maxScore }),
      }),
    /** A classification into one of 2–20 ordered classes (later = better). */
    literal: (options: LlmTraitOptions & ClassesOptions): LlmTrait =>
      llmTrait(options, { kind: "literal", classes: options.classes }),
    /**
     * A structured judgement (template kind, spec 03 §2.5): the judge fills in the fields, and each becomes a
     * result `"<trait>.<field>"`. The class is stored as the JSON Schema Pydantic would write for it, so the
     * original reads the trait back. Directionality and deep judgment do not apply (`higher_is_better` is null).
     * @example
     * const tone = trait.llm.template({
     *   name: "tone_profile",
     *   description: "Describe the tone of the response",
     *   fields: {
     *     formality: { type: "int", description: "1 (casual) to 5 (formal)" },
     *     hedges: { type: "list[str]", description: "Hedging phrases used" },
     *     note: { type: "str", optional: true, default: null },
     *   },
     * });
     * tone.kind.schema.required; // ["formality", "hedges"]
     * tone.kind.schema.title; // "ToneProfile"
     */
    template: (options: TemplateTraitOptions): LlmTrait =>
      llmTrait(options, {
        kind: { type: "template", schema: templateKindSchema(options) },
        higher_is_better: null,
      }),
  },

  /** A Python regex searched in the text (evaluated locally). */
  regex: (options: RegexTraitOptions): RegexTrait =>
    build<RegexTrait>("regex", {
      ...common(options),
      pattern: options.pattern,
      ...defined({ case_sensitive: options.caseSensitive, invert_result: options.invertResult }),
    }),

  /**
   * A trait computed by a JavaScript function, stored as its source (`callable_code`: base64 of the
   * `// karenina:javascript` marker line and the function) so it survives a save and runs in QuickJS.
   * Asynchronous because the function is test-run in QuickJS first: closures, async functions and
   * functions returning the wrong type for `kind` are refused.
   */
  callable: async (options: CallableTraitOptions): Promise<CallableTrait> => {
    const source = functionSource(options.name, options.fn);
    const built = build<CallableTrait>("callable", {
      ...common(options),
      kind: options.kind,
      callable_code: encodeJavaScriptCallable(source),
      ...callableKindFields(options),
    });
    await checkRunsAlone(options, source);
    return built;
  },

  /** Confusion-matrix metrics over what a judge finds in the response. */
  metric: (options: MetricTraitOptions): MetricTrait =>
    build<MetricTrait>("metric", {
      ...common(options),
      metrics: [...options.metrics],
      tp_instructions: [...options.tpInstructions],
      ...defined({
        tn_instructions: options.tnInstructions && [...options.tnInstructions],
        evaluation_mode: options.evaluationMode,
        repeated_extraction: options.repeatedExtraction,
      }),
    }),

  /** A trait an agent investigates (trace and/or workspace), then scores. */
  agentic: (options: AgenticTraitOptions): AgenticTrait =>
    build<AgenticTrait>("agentic", {
      ...common(options),
      kind: options.kind,
      ...agenticKindFields(options),
      ...defined({
        context_mode: options.contextMode,
        materialize_trace: options.materializeTrace,
        persist_trace: options.persistTrace,
        max_turns: options.maxTurns,
        timeout_seconds: options.timeoutSeconds,
        model_override: options.modelOverride,
      }),
    }),
};
