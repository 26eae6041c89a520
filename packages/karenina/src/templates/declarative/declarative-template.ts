import { KareninaError } from "../../errors/index.js";
import { ownValue } from "../../plain-data/index.js";
import { withNonBlockingRegexes } from "../../python-regex/index.js";
import { PyFloat } from "../../python-repr/index.js";
import type {
  AnswerTemplate,
  JsonSchema,
  RegexReport,
  TemplateEvaluation,
  TemplateRunContext,
} from "../answer-template.js";
import { type CoercionProblem, coerceToSchema, describeProblems } from "../coerce.js";
import { answerClassSchema, judgeSchemaOf, relaxedSchemaOf, type SchemaField } from "../judge-schema.js";
import {
  compositionLabel,
  evaluateStrategy,
  granularScore,
  type StrategyNode,
  strategyFromSpec,
} from "./composition.js";
import { type ConditionalResolver, compileConditional, isConditional } from "./conditional.js";
import { TemplateSpecError, VerificationError } from "./errors.js";
import type { Primitive } from "./primitives/primitive.js";
import { primitiveFromJson } from "./primitives/registry.js";
import { plainJson, pyTruthy } from "./python-values.js";
import type { TemplateFieldSpec, TemplateSpec } from "./template-spec.js";
import { validateSpec } from "./validate-spec.js";

/** A declarative template's evaluation, with the per-field details the result record stores (spec 06 §1.4). */
export interface DeclarativeEvaluation extends TemplateEvaluation {
  /** Per-field scores in [0, 1] (null for null fields); empty when the checks raised. */
  fieldScores: Record<string, number | null>;
  /** The ground truth each field was checked against, conditional ones resolved. */
  groundTruths: Record<string, unknown>;
}

/** One field, compiled once at load: its primitive built, its conditional ground truth compiled. */
interface CompiledField {
  name: string;
  weight: number;
  valueSchema: JsonSchema;
  isFloat: boolean;
  primitive: Primitive;
  groundTruth: unknown;
  conditional: ConditionalResolver | null;
}

const NO_REGEX: RegexReport = Object.freeze({ success: true, results: {}, details: {} }) as RegexReport;

/** The JSON Schema Pydantic gives a field of the spec type (spec 02 §3.1, §9.2). */
function typeSchema(field: TemplateFieldSpec): JsonSchema {
  switch (field.type) {
    case "bool":
      return { type: "boolean" };
    case "int":
      return { type: "integer" };
    case "float":
      return { type: "number" };
    case "list_str":
      return { items: { type: "string" }, type: "array" };
    case "literal": {
      const values = field.literal_values ?? [];
      return values.length === 1 ? { const: values[0], type: "string" } : { enum: values, type: "string" };
    }
    default:
      return { type: "string" };
  }
}

function compileField(field: TemplateFieldSpec): CompiledField {
  const conditional = isConditional(field.ground_truth) ? compileConditional(field.ground_truth) : null;
  return {
    name: field.name,
    weight: field.weight,
    valueSchema: typeSchema(field),
    isFloat: field.type === "float",
    primitive: primitiveFromJson(field.verify_with),
    groundTruth: field.ground_truth,
    conditional,
  };
}

/** The `__verification__` metadata VerifiedField keeps in the class schema (spec 02 §4). */
function verificationMetadata(field: TemplateFieldSpec, primitive: Primitive): JsonSchema {
  return {
    ground_truth: plainJson(field.ground_truth),
    verify_with: primitive.toJSON(),
    weight: field.weight,
    extraction_hint: field.extraction_hint,
  };
}

const clamp = (score: number) => (Number.isNaN(score) ? 0 : Math.min(1, Math.max(0, score)));

type Coercion = { values: Map<string, unknown>; nulls: Set<string> } | { problem: string };

/**
 * A VerifiedField template run natively (spec 02 §2.4–2.5, §7): built from a TemplateSpec, checked with the
 * primitive catalogue, combined by the optional composition strategy. Everything is compiled at load; each
 * evaluation is a few function calls.
 * @example
 * const template = loadDeclarativeTemplate({ fields: [{ name: "target", type: "str", description: "Target protein", ground_truth: "BCL2", verify_with: { type: "ExactMatch" } }] });
 * (await template.evaluate({ target: " bcl2 " })).verify; // true
 * template.groundTruth; // { target: "BCL2" }
 */
export class DeclarativeTemplate implements AnswerTemplate {
  readonly runtime = "declarative" as const;
  readonly mode = "verified" as const;
  readonly className: string;
  readonly judgeSchema: JsonSchema;
  readonly structuredOutputSchema: JsonSchema;
  readonly groundTruth: Record<string, unknown>;
  readonly extractionHints: Record<string, string>;
  readonly needsNoJudge: boolean;
  /** The root of the composition strategy, or null for "every field must pass". */
  readonly strategy: StrategyNode | null;
  /** The result's `composition_strategy` label, or null without a strategy. */
  readonly compositionStrategy: string | null;
  private readonly fields: readonly CompiledField[];

  /**
   * @param spec a valid TemplateSpec (its `verify_strategy` is used unless `strategy` is given).
   * @throws TemplateSpecError listing every problem `validateSpec` finds.
   */
  constructor(
    readonly spec: TemplateSpec,
    strategy?: StrategyNode | null,
  ) {
    const problems = validateSpec(spec);
    if (problems.length > 0) throw new TemplateSpecError(problems);
    this.className = spec.class_name;
    this.fields = spec.fields.map(compileField);
    this.strategy = strategy ?? (spec.verify_strategy ? strategyFromSpec(spec.verify_strategy) : null);
    this.compositionStrategy = this.strategy ? compositionLabel(this.strategy) : null;
    const schemaFields: SchemaField[] = spec.fields.map((field, i) => ({
      name: field.name,
      schema: {
        ...typeSchema(field),
        __verification__: verificationMetadata(field, (this.fields[i] as CompiledField).primitive),
      },
      description: field.description,
      required: true,
    }));
    const classSchema = answerClassSchema(spec.class_name, schemaFields);
    const traceFields = this.fields.filter((f) => f.primitive.isTrace).map((f) => f.name);
    this.judgeSchema = judgeSchemaOf(classSchema, traceFields);
    this.structuredOutputSchema = relaxedSchemaOf(
      classSchema,
      this.fields.map((f) => f.name),
    );
    this.groundTruth = Object.fromEntries(
      spec.fields
        .filter((f) => !isConditional(f.ground_truth))
        .map((f) => [f.name, plainJson(f.ground_truth)]),
    );
    this.extractionHints = Object.fromEntries(
      spec.fields.filter((f) => f.extraction_hint).map((f) => [f.name, f.extraction_hint as string]),
    );
    this.needsNoJudge = traceFields.length === this.fields.length;
  }

  /**
   * The template's field checks on a parsed answer; see {@link DeclarativeTemplate.evaluateSync}. Its regexes
   * (RegexMatch, date formats) are awaited off the calling thread, so a server keeps serving meanwhile.
   */
  async evaluate(
    parsed: Record<string, unknown>,
    context: TemplateRunContext = {},
  ): Promise<DeclarativeEvaluation> {
    return withNonBlockingRegexes(() => this.evaluateSync(parsed, context));
  }

  /**
   * Verifies a parsed answer synchronously. A null or missing value makes its field's result null; a value
   * Pydantic would reject, or a check that raises in the original, makes `verify` false with `error` set.
   */
  evaluateSync(parsed: Record<string, unknown>, context: TemplateRunContext = {}): DeclarativeEvaluation {
    const coerced = this.coerce(parsed);
    if ("problem" in coerced)
      return failed(`Parsed answer does not fit the template: ${coerced.problem}`, {});
    const fieldResults: Record<string, boolean | null> = {};
    const fieldScores: Record<string, number | null> = {};
    const groundTruths: Record<string, unknown> = {};
    try {
      for (const field of this.fields) {
        const { passed, score, expected } = this.checkField(field, coerced, context);
        fieldResults[field.name] = passed;
        fieldScores[field.name] = score;
        groundTruths[field.name] = expected;
      }
      if (this.fields.length === 0) {
        throw new VerificationError("NotImplementedError", "verify() requires at least one VerifiedField");
      }
    } catch (error) {
      return failed(verificationFailure(error), {});
    }
    let fieldVerify: boolean;
    try {
      fieldVerify = this.strategy
        ? evaluateStrategy(this.strategy, fieldResults)
        : Object.values(fieldResults).every((result) => result === true);
    } catch (error) {
      return failed(verificationFailure(error), fieldResults);
    }
    const weighted = this.fields.map((f) => ({ weight: f.weight, score: fieldScores[f.name] ?? null }));
    return {
      verify: fieldVerify,
      fieldVerify,
      verifyGranular: granularScore(this.strategy, weighted),
      fieldResults,
      regex: NO_REGEX,
      error: null,
      fieldScores,
      groundTruths,
    };
  }

  /** Pydantic's relaxed parse: each value coerced to its field type, null/missing ones recorded as null. */
  private coerce(parsed: Record<string, unknown>): Coercion {
    const values = new Map<string, unknown>();
    const nulls = new Set<string>();
    const unanswered = parsed._unanswered_fields;
    if (Array.isArray(unanswered)) for (const name of unanswered) nulls.add(String(name));
    const problems: CoercionProblem[] = [];
    for (const field of this.fields) {
      if (field.primitive.isTrace) continue;
      const value = ownValue(parsed, field.name); // a missing `constructor` is missing, not Object's
      if (value === null || value === undefined) {
        nulls.add(field.name);
        continue;
      }
      const result = coerceToSchema(field.valueSchema, value, field.name);
      if (!result.ok) problems.push(...result.problems);
      else {
        const n = result.value;
        values.set(field.name, field.isFloat && Number.isInteger(n) ? new PyFloat(n as number) : n);
      }
    }
    return problems.length > 0 ? { problem: describeProblems(problems) } : { values, nulls };
  }

  /** One field's result, score and ground truth (spec 02 §2.4). */
  private checkField(
    field: CompiledField,
    { values, nulls }: { values: Map<string, unknown>; nulls: Set<string> },
    context: TemplateRunContext,
  ): { passed: boolean | null; score: number | null; expected: unknown } {
    let primitive = field.primitive;
    let expected = field.groundTruth;
    if (field.conditional) {
      const resolved = field.conditional(context.scenarioContext);
      expected = resolved.value;
      primitive = resolved.primitive ?? primitive;
    }
    if (nulls.has(field.name)) return { passed: null, score: null, expected };
    if (primitive.isTrace) {
      if (context.rawResponse === undefined) {
        throw new VerificationError(
          "ValueError",
          `Field '${field.name}' uses a TracePrimitive but requires _raw_trace to be set`,
        );
      }
      const passed = primitive.checkTrace(context.rawResponse) === pyTruthy(expected);
      return { passed, score: passed ? 1 : 0, expected };
    }
    const extracted = values.get(field.name) ?? null;
    const passed = primitive.check(extracted, expected);
    let score: number;
    try {
      score = clamp(primitive.score(extracted, expected));
    } catch {
      score = passed ? 1 : 0;
    }
    return { passed, score, expected };
  }
}

/** `Field verification failed: <message>` for errors the original's `verify()` raises; others propagate. */
function verificationFailure(error: unknown): string {
  if (!KareninaError.isInstance(error)) throw error;
  return `Field verification failed: ${error.message}`;
}

function failed(error: string, fieldResults: Record<string, boolean | null>): DeclarativeEvaluation {
  return {
    verify: false,
    fieldVerify: false,
    verifyGranular: null,
    fieldResults,
    regex: NO_REGEX,
    error,
    fieldScores: {},
    groundTruths: {},
  };
}
