import { withNonBlockingRegexes } from "../../python-regex/index.js";
import {
  JavaScriptExecutionError,
  JavaScriptSandbox,
  type JavaScriptScript,
  type JsonValue,
  SandboxError,
} from "../../sandbox/index.js";
import {
  type AnswerTemplate,
  type JsonSchema,
  type RegexCheck,
  type RegexReport,
  TemplateError,
  type TemplateEvaluation,
  type TemplateRunContext,
} from "../answer-template.js";
import { coerceToSchema, describeProblems } from "../coerce.js";
import { relaxedSchemaOf } from "../judge-schema.js";
import { verifyRegexChecks } from "../regex-checks.js";
import { answerSchemaFromFields } from "./answer-schema.js";
import { dummyAnswer } from "./dummy-answer.js";
import { TEMPLATE_WRAPPER } from "./template-wrapper.js";

/** Options of {@link loadJavaScriptTemplate}. */
export interface LoadJavaScriptTemplateOptions {
  /**
   * The sandbox the template's functions run in. Default: one sandbox shared by every template loaded
   * without this option, with the default limits (1 s per verification, 64 MB).
   */
  readonly sandbox?: JavaScriptSandbox;
}

/** What the wrapper reports about the value a template's source evaluates to (`kind`s are `typeof`-like). */
interface TemplateShape {
  kind: string;
  className?: JsonValue;
  classNameKind: string;
  fields?: JsonValue;
  fieldsKind: string;
  groundTruth?: JsonValue;
  groundTruthKind: string;
  regex?: JsonValue;
  regexKind: string;
  verifyKind: string;
  verifyGranularKind: string;
}

/** What one sandbox call of `evaluate` gives back. */
interface TemplateOutcome {
  verdict: boolean | null;
  verdictKind: string;
  score?: number | null;
  scoreKind?: string;
  scoreFinite?: boolean;
  scoreError?: { name: string; message: string };
}

/** A template's validated parts, as the constructor of {@link JavaScriptTemplate} takes them. */
interface ValidTemplate {
  source: string;
  script: JavaScriptScript;
  className: string;
  schema: JsonSchema;
  groundTruth: Record<string, unknown> | null;
  regex: Record<string, Partial<RegexCheck>> | null;
  hasFields: boolean;
  hasGranular: boolean;
}

const CLASS_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TEMPLATE_MARK: unique symbol = Symbol.for("karenina.javascript-template") as never;
const SHAPE_EXAMPLE =
  '({ className: "Answer", fields: { type: "object", properties: {...} }, groundTruth: {...}, verify(answer, correct) { ... } })';
const SANDBOX_HINT =
  "template functions run in a sandbox and see only their arguments, their own variables and the language's built-ins: no outer variables, imports, console or Node globals";

let sharedSandbox: Promise<JavaScriptSandbox> | null = null;

/** The sandbox templates use when none is given, created at the first need. */
function defaultSandbox(): Promise<JavaScriptSandbox> {
  if (sharedSandbox === null) {
    const created = JavaScriptSandbox.create();
    sharedSandbox = created;
    created.catch(() => {
      if (sharedSandbox === created) sharedSandbox = null;
    });
  }
  return sharedSandbox;
}

/** "a string", "an array", "null", "nothing": a `kind` reported by the wrapper, for messages. */
function aKind(kind: string): string {
  if (kind === "undefined") return "nothing";
  if (kind === "null") return "null";
  if (kind === "promise") return "a Promise";
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

function jsonKind(value: JsonValue): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function mustBe(path: string, expected: string, kind: string): never {
  throw new TemplateError(`${path}: expected ${expected}, found ${aKind(kind)}`);
}

/**
 * Loads a template saved as JavaScript (`programmingLanguage: "JavaScript"` in a checkpoint): a script
 * that evaluates, in the sandbox, to `({ className, fields, groundTruth, regex, verify(answer, correct),
 * verifyGranular(answer, correct) })`. `fields` is the JSON Schema of the answer's fields (the judge gets
 * it Pydantic-shaped), `groundTruth` is JSON data passed to the functions as `correct`, `regex` holds the
 * original's `self.regex` checks, and `verify` is required unless there are no fields (a regex-only
 * template). Loading also runs the functions once on a dummy answer, to catch a function that uses a name
 * the sandbox does not have (an outer variable, an import, a Node global) or that never returns.
 * @throws {TemplateError} the source does not evaluate, or evaluates to something else than a template;
 * the message says what to fix.
 * @example
 * const template = await loadJavaScriptTemplate(`({
 *   className: "Answer",
 *   fields: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
 *   groundTruth: { target: "BCL2" },
 *   verify(answer, correct) { return answer.target.trim().toUpperCase() === correct.target; },
 * })`);
 * (await template.evaluate({ target: " bcl2" })).verify; // true
 * template.judgeSchema.properties.target; // { title: "Target", type: "string" }
 */
export async function loadJavaScriptTemplate(
  source: string,
  options: LoadJavaScriptTemplateOptions = {},
): Promise<JavaScriptTemplate> {
  if (typeof source !== "string") {
    throw new TemplateError(`a JavaScript template is source text, found ${aKind(typeof source)}`);
  }
  const sandbox = options.sandbox ?? (await defaultSandbox());
  let script: JavaScriptScript;
  try {
    script = await sandbox.load(source, { wrapper: TEMPLATE_WRAPPER });
  } catch (error) {
    throw new TemplateError(loadFailure(error));
  }
  try {
    const template = new JavaScriptTemplate(
      validate(source, script, script.value as unknown as TemplateShape),
    );
    await probe(template);
    return template;
  } catch (error) {
    script.dispose();
    throw error;
  }
}

function loadFailure(error: unknown): string {
  if (error instanceof JavaScriptExecutionError && error.jsName === "SyntaxError") {
    const at = /<input>:(\d+):(\d+)/.exec(error.jsStack);
    const where = at ? ` at line ${at[1]}, column ${at[2]}` : "";
    return `the template is not valid JavaScript: ${error.message}${where}`;
  }
  return `evaluating the template failed: ${(error as Error).message}`;
}

function validate(source: string, script: JavaScriptScript, shape: TemplateShape): ValidTemplate {
  if (shape.kind !== "object") {
    throw new TemplateError(
      `a JavaScript template must evaluate to an object such as ${SHAPE_EXAMPLE}; this one evaluates to ${aKind(shape.kind)}`,
    );
  }
  const className = shape.className ?? "Answer";
  if (typeof className !== "string") mustBe("className", "a string", shape.classNameKind);
  if (!CLASS_NAME.test(className)) {
    throw new TemplateError(
      `className: expected a class name (letters, digits and _, not starting with a digit), found ${JSON.stringify(className)}`,
    );
  }
  if (!["undefined", "object"].includes(shape.fieldsKind)) {
    mustBe("fields", "a JSON Schema object", shape.fieldsKind);
  }
  const schema = answerSchemaFromFields(className, shape.fields);
  const hasFields = Object.keys(schema.properties as object).length > 1;
  if (shape.verifyKind === "undefined" && hasFields) {
    throw new TemplateError(
      "the template has fields but no verify(answer, correct) function returning true or false",
    );
  }
  if (!["undefined", "function"].includes(shape.verifyKind)) mustBe("verify", "a function", shape.verifyKind);
  if (!["undefined", "function"].includes(shape.verifyGranularKind)) {
    mustBe("verifyGranular", "a function", shape.verifyGranularKind);
  }
  if (!["undefined", "null", "object"].includes(shape.groundTruthKind)) {
    mustBe("groundTruth", "an object", shape.groundTruthKind);
  }
  return {
    source,
    script,
    className,
    schema,
    groundTruth: (shape.groundTruth ?? null) as Record<string, unknown> | null,
    regex: validRegex(shape),
    hasFields,
    hasGranular: shape.verifyGranularKind === "function",
  };
}

function validRegex(shape: TemplateShape): Record<string, Partial<RegexCheck>> | null {
  if (["undefined", "null"].includes(shape.regexKind)) return null;
  if (shape.regexKind !== "object") mustBe("regex", "an object of named checks", shape.regexKind);
  const checks = shape.regex as Record<string, JsonValue>;
  for (const [name, check] of Object.entries(checks)) {
    const path = `regex.${name}`;
    if (jsonKind(check) !== "object") mustBe(path, "{ pattern, expected, match_type }", jsonKind(check));
    for (const key of ["pattern", "match_type"]) {
      const value = (check as Record<string, JsonValue>)[key];
      if (value !== undefined && typeof value !== "string")
        mustBe(`${path}.${key}`, "a string", jsonKind(value));
    }
  }
  return checks as Record<string, Partial<RegexCheck>>;
}

/**
 * Runs the template's functions once on a dummy answer. A name the sandbox lacks, a Promise for a
 * verdict or a limit is a mistake in the template; any other error may come from the dummy values and
 * is left for real answers to show.
 */
async function probe(template: JavaScriptTemplate): Promise<void> {
  let outcome: TemplateOutcome;
  try {
    outcome = await runFunctions(template, dummyAnswer(template.judgeSchema));
  } catch (error) {
    if (error instanceof JavaScriptExecutionError && error.jsName !== "ReferenceError") return;
    throw new TemplateError(
      error instanceof JavaScriptExecutionError
        ? undefinedName("verify", error.jsMessage)
        : `running the template's functions on a dummy answer failed: ${(error as Error).message}`,
    );
  }
  if (outcome.scoreError?.name === "ReferenceError") {
    throw new TemplateError(undefinedName("verifyGranular", outcome.scoreError.message));
  }
  for (const [name, kind] of [
    ["verify", outcome.verdictKind],
    ["verifyGranular", outcome.scoreKind],
  ] as const) {
    if (kind === "promise") {
      throw new TemplateError(
        `${name} returned a Promise: template functions must be synchronous (no async)`,
      );
    }
  }
}

function undefinedName(functionName: string, message: string): string {
  const name = /^'(.+)' is not defined$/.exec(message)?.[1];
  if (name === undefined) return `${functionName} failed on a dummy answer: ReferenceError: ${message}`;
  return (
    `${functionName} uses ${JSON.stringify(name)}, which does not exist in the sandbox: ${SANDBOX_HINT}. ` +
    `Move ${JSON.stringify(name)} into the function, or its value into groundTruth`
  );
}

/** Why a verification call failed, with a hint when the function used a name the sandbox lacks. */
function callFailure(error: unknown): string {
  if (error instanceof JavaScriptExecutionError && error.jsName === "ReferenceError") {
    return `${error.message} (${SANDBOX_HINT})`;
  }
  return error instanceof SandboxError || error instanceof Error ? error.message : String(error);
}

function failed(regex: RegexReport, error: string): TemplateEvaluation {
  return { verify: false, fieldVerify: false, verifyGranular: null, fieldResults: {}, regex, error };
}

/** The granular score, or why there is none. */
function readScore(outcome: TemplateOutcome): { value: number | null; error: string | null } {
  if (outcome.scoreError) {
    const { name, message } = outcome.scoreError;
    return { value: null, error: `verifyGranular failed: ${name}: ${message}` };
  }
  const { score, scoreKind = "undefined", scoreFinite } = outcome;
  if (scoreKind !== "number" || !scoreFinite || typeof score !== "number") {
    const found = scoreKind === "number" ? "a number that is not finite" : aKind(scoreKind);
    return { value: null, error: `verifyGranular must return a number in [0, 1], it returned ${found}` };
  }
  if (score < 0 || score > 1) {
    return { value: null, error: `verifyGranular must return a number in [0, 1], it returned ${score}` };
  }
  return { value: score, error: null };
}

/** Each template's loaded script, kept off the public object. */
const scripts = new WeakMap<JavaScriptTemplate, JavaScriptScript>();

/** One sandbox call: `verify` then `verifyGranular` on `answer`, with the ground truth as `correct`. */
async function runFunctions(
  template: JavaScriptTemplate,
  answer: Record<string, JsonValue>,
): Promise<TemplateOutcome> {
  const script = scripts.get(template) as JavaScriptScript;
  const correct = (template.groundTruth ?? {}) as JsonValue;
  return (await script.call("evaluate", [answer, correct])) as unknown as TemplateOutcome;
}

/**
 * An answer template written in JavaScript (or TypeScript through {@link defineAnswerTemplate}) and run in
 * a QuickJS sandbox. Its schema and ground truth are plain data; each verification is one sandbox call
 * running `verify` and `verifyGranular`. Obtain one with {@link loadJavaScriptTemplate} or
 * {@link defineAnswerTemplate}; `source` is what a checkpoint stores.
 */
export class JavaScriptTemplate implements AnswerTemplate {
  readonly [TEMPLATE_MARK] = true;
  readonly runtime = "javascript";
  readonly mode = "classic";
  /** The `programmingLanguage` a checkpoint records for this template. */
  readonly programmingLanguage = "JavaScript";
  /** The template's source: what a checkpoint stores and {@link loadJavaScriptTemplate} reads back. */
  readonly source: string;
  readonly className: string;
  readonly judgeSchema: JsonSchema;
  readonly structuredOutputSchema: JsonSchema;
  readonly groundTruth: Record<string, unknown> | null;
  readonly extractionHints: Record<string, string> = {};
  readonly needsNoJudge: boolean;
  readonly #regex: Record<string, Partial<RegexCheck>> | null;
  readonly #hasGranular: boolean;
  readonly #defs: Record<string, JsonSchema>;

  /** Use {@link loadJavaScriptTemplate}, which validates the parts. */
  constructor(parts: ValidTemplate) {
    this.source = parts.source;
    scripts.set(this, parts.script);
    this.className = parts.className;
    this.judgeSchema = parts.schema;
    this.structuredOutputSchema = relaxedSchemaOf(parts.schema, []);
    this.groundTruth = parts.groundTruth;
    this.needsNoJudge = !parts.hasFields;
    this.#regex = parts.regex;
    this.#hasGranular = parts.hasGranular;
    this.#defs = (parts.schema.$defs ?? {}) as Record<string, JsonSchema>;
  }

  /**
   * Coerces the judge's answer to the fields (Pydantic's lax rules; a value that does not fit fails the
   * evaluation, naming the field), adds the question id as `answer.id`, runs `verify(answer, correct)` and
   * `verifyGranular` in the sandbox, and the regex checks on `context.rawResponse`. `verify` is the field
   * verdict AND the regex checks. A function that throws, returns something else than a boolean (or, for
   * `verifyGranular`, a number in [0, 1]) or hits a sandbox limit gives an evaluation with `error` set.
   */
  async evaluate(
    parsed: Record<string, unknown>,
    context: TemplateRunContext = {},
  ): Promise<TemplateEvaluation> {
    const regex = await withNonBlockingRegexes(() =>
      verifyRegexChecks(this.#regex, context.rawResponse ?? ""),
    );
    const coerced = coerceToSchema(this.judgeSchema, parsed, "", this.#defs);
    if (!coerced.ok) {
      return failed(
        regex,
        `the parsed answer does not fit ${this.className}: ${describeProblems(coerced.problems)}`,
      );
    }
    const answer = { ...(coerced.value as Record<string, JsonValue>), id: context.questionId ?? null };
    let outcome: TemplateOutcome;
    try {
      outcome = await runFunctions(this, answer);
    } catch (error) {
      return failed(regex, `Field verification failed: ${callFailure(error)}`);
    }
    if (outcome.verdict === null) {
      return failed(
        regex,
        `Field verification failed: verify must return true or false, it returned ${aKind(outcome.verdictKind)}`,
      );
    }
    const score = this.#hasGranular ? readScore(outcome) : { value: null, error: null };
    return {
      verify: outcome.verdict && regex.success,
      fieldVerify: outcome.verdict,
      verifyGranular: score.value,
      fieldResults: {},
      regex,
      error: score.error,
    };
  }
}

/**
 * A template defined in TypeScript with {@link defineAnswerTemplate}, or loaded from its saved JavaScript:
 * both are the same object, which carries its `source`.
 */
export type TypeScriptTemplate = JavaScriptTemplate;

/**
 * Whether `value` is a template written in JavaScript or TypeScript ({@link defineAnswerTemplate},
 * {@link loadJavaScriptTemplate}): one that carries its `source` and is saved with
 * `programmingLanguage: "JavaScript"`. Works across copies of the library.
 * @example
 * isTypeScriptTemplate({ source: "({})" }); // false
 */
export function isTypeScriptTemplate(value: unknown): value is TypeScriptTemplate {
  return typeof value === "object" && value !== null && TEMPLATE_MARK in value;
}
