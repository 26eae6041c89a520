import type { TemplateLanguage } from "../../checkpoint/index.js";
import type { PythonSandbox } from "../../sandbox/index.js";
import {
  type JsonSchema,
  loadTemplate,
  NotDeclarativeError,
  PRIMITIVES,
  parametersJsonSchema,
  pythonToSpec,
  specToPython,
  TemplateError,
  type TemplateSpec,
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
  /** `verified`: the spec is the whole template; `classic`: no VerifiedField; `mixed`: both kinds of field. */
  mode: "verified" | "classic" | "mixed";
  spec: TemplateSpec | null;
  /** What the spec cannot express (dropped or approximated); empty when it reproduces the code exactly. */
  lossy: string[];
  /** Why there is no spec (the code is not declarative), or null. */
  reason: string | null;
}

/**
 * Reads Python template code into the builder's TemplateSpec without running it (spec 02 §9.2, §10.2 tier A).
 * Code that is not declarative gives no spec: `classic` when it has no `VerifiedField`, else `mixed`; the
 * builder then opens it in the code editor.
 * @example
 * parseTemplateSource("class Answer(BaseAnswer):\n    ok: bool = VerifiedField(description='Says yes', ground_truth=True, verify_with=BooleanMatch())\n").mode; // "verified"
 */
export function parseTemplateSource(code: string): ParsedTemplateSource {
  try {
    const { spec, lossy } = pythonToSpec(code);
    return { mode: "verified", spec, lossy, reason: null };
  } catch (error) {
    if (!(error instanceof NotDeclarativeError)) throw error;
    const mode = /\bVerifiedField\s*\(/.test(code) ? "mixed" : "classic";
    return { mode, spec: null, lossy: [], reason: error.message };
  }
}

/**
 * The VerifiedField Python of a spec (spec 02 §9.4), or the problems that stop it (spec 02 §9.3).
 * @example
 * const { code, problems } = generateTemplateSource({ class_name: "Answer", verify_strategy: null, fields: [] });
 * problems; // []
 * code?.includes("class Answer(BaseAnswer):"); // true
 */
export function generateTemplateSource(spec: TemplateSpec): { code: string | null; problems: string[] } {
  const problems = validateSpec(spec);
  return problems.length > 0 ? { code: null, problems } : { code: specToPython(spec), problems: [] };
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
