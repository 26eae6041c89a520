import type { TemplateLanguage } from "../../checkpoint/index.js";
import type { PythonSandbox } from "../../sandbox/index.js";
import {
  type JsonSchema,
  joinMixedTemplate,
  loadTemplate,
  NotDeclarativeError,
  PRIMITIVES,
  parametersJsonSchema,
  pythonToSpec,
  specToPython,
  splitMixedTemplate,
  TemplateError,
  type TemplateRemainder,
  type TemplateSpec,
  TemplateSplitError,
  validateSpec,
} from "../../templates/index.js";

/** One primitive of the builder's catalogue (spec 02 §9.5). */
export interface BuilderPrimitive {
  name: string;
  description: string;
  /** The parameters as a JSON Schema (defaults shown). */
  parameters: JsonSchema;
  /** The field types it applies to, or null when any. */
  applies_to: string[] | null;
  is_trace: boolean;
}

/** Every verification primitive, sorted by name, for the builder's primitive picker. */
export function builderPrimitives(): BuilderPrimitive[] {
  return Object.values(PRIMITIVES)
    .map((definition) => ({
      name: definition.name,
      description: definition.description,
      parameters: parametersJsonSchema(definition.params),
      applies_to: definition.appliesTo === null ? null : [...definition.appliesTo],
      is_trace: definition.isTrace,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** What {@link parseTemplateSource} read. */
export interface ParsedTemplateSource {
  /**
   * `verified`: the spec is the whole template; `mixed`: VerifiedFields beside hand-written code (the spec
   * holds the VerifiedFields, `remainder` the rest); `classic`: no VerifiedField.
   */
  mode: "verified" | "classic" | "mixed";
  spec: TemplateSpec | null;
  /** What the spec cannot express (dropped or approximated); empty when it reproduces the code exactly. */
  lossy: string[];
  /** Why there is no spec (the code is not declarative, or its parts cannot be separated), or null. */
  reason: string | null;
  /** A mixed template's hand-written part, kept byte for byte when the spec is regenerated; absent otherwise. */
  remainder?: TemplateRemainder;
}

const MENTIONS_VERIFIED_FIELD = /\bVerifiedField\s*\(/;

/**
 * Reads Python template code into the builder's TemplateSpec without running it (spec 02 §9.2, §10.2 tier A;
 * spec 07 §1.3.6). A VerifiedField template gives its whole spec; a mixed one gives the spec of its
 * VerifiedFields and its hand-written `remainder`, or no spec and the construct that stops the split in
 * `reason`; a classic one gives no spec. Without a spec, the builder opens the code editor.
 * @example
 * parseTemplateSource("class Answer(BaseAnswer):\n    ok: bool = VerifiedField(description='Says yes', ground_truth=True, verify_with=BooleanMatch())\n").mode; // "verified"
 */
export function parseTemplateSource(code: string): ParsedTemplateSource {
  try {
    const { spec, lossy } = pythonToSpec(code);
    return { mode: "verified", spec, lossy, reason: null };
  } catch (error) {
    if (!(error instanceof NotDeclarativeError)) throw error;
    const mentionsVerifiedField = MENTIONS_VERIFIED_FIELD.test(code);
    try {
      const mixed = splitMixedTemplate(code);
      if (mixed !== null) return { mode: "mixed", ...mixed, reason: null };
    } catch (splitError) {
      if (!(splitError instanceof TemplateSplitError)) throw splitError;
      if (mentionsVerifiedField) return { mode: "mixed", spec: null, lossy: [], reason: splitError.message };
    }
    return {
      mode: mentionsVerifiedField ? "mixed" : "classic",
      spec: null,
      lossy: [],
      reason: error.message,
    };
  }
}

const sameRemainder = (a: TemplateRemainder, b: TemplateRemainder) =>
  (Object.keys(b) as (keyof TemplateRemainder)[]).every((key) => a[key] === b[key]);

/** Why a mixed template's code does not read back into the same remainder, or null when it does. */
function remainderProblem(code: string, remainder: TemplateRemainder): string | null {
  try {
    const read = splitMixedTemplate(code);
    if (read !== null && sameRemainder(read.remainder, remainder)) return null;
  } catch (error) {
    if (!(error instanceof TemplateSplitError)) throw error;
    return `the hand-written part does not fit around the fields: ${error.message}`;
  }
  return "the hand-written part does not fit around the fields: the written code does not read back into it";
}

/**
 * The VerifiedField Python of a spec (spec 02 §9.4), or the problems that stop it (spec 02 §9.3). With a mixed
 * template's `remainder`, the fields are written into it and the remainder is kept byte for byte; the code is
 * read back to make sure it splits into the same remainder.
 * @example
 * const { code, problems } = generateTemplateSource({ class_name: "Answer", verify_strategy: null, fields: [] });
 * problems; // []
 * code?.includes("class Answer(BaseAnswer):"); // true
 */
export function generateTemplateSource(
  spec: TemplateSpec,
  remainder?: TemplateRemainder,
): { code: string | null; problems: string[] } {
  const problems = validateSpec(spec);
  if (problems.length > 0) return { code: null, problems };
  if (remainder === undefined) return { code: specToPython(spec), problems: [] };
  const code = joinMixedTemplate(spec, remainder);
  const problem = spec.fields.length > 0 ? remainderProblem(code, remainder) : null;
  return problem === null ? { code, problems: [] } : { code: null, problems: [problem] };
}

/** What {@link validateTemplateSource} found. */
export interface TemplateValidation {
  valid: boolean;
  /** Why the template is invalid (spec 02 §8); empty when valid. */
  errors: string[];
  /** The loaded template's facts, when valid. */
  class_name: string | null;
  mode: "classic" | "verified" | "mixed" | null;
  runtime: "declarative" | "javascript" | "python" | null;
  ground_truth: Record<string, unknown> | null;
  judge_schema: JsonSchema | null;
}

/**
 * Loads template code as a verification would (declarative natively, JavaScript in QuickJS, other Python in
 * `pythonSandbox`) and reports whether it is valid, with its class name, ground truth and judge schema.
 */
export async function validateTemplateSource(
  code: string,
  language: TemplateLanguage,
  pythonSandbox: PythonSandbox,
): Promise<TemplateValidation> {
  try {
    const template = await loadTemplate(code, language, { pythonSandbox });
    return {
      valid: true,
      errors: [],
      class_name: template.className,
      mode: template.mode,
      runtime: template.runtime,
      ground_truth: template.groundTruth,
      judge_schema: template.judgeSchema,
    };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return {
      valid: false,
      errors: [error.message.replace(/^Invalid template: /, "")],
      class_name: null,
      mode: null,
      runtime: null,
      ground_truth: null,
      judge_schema: null,
    };
  }
}
