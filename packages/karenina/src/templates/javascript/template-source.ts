import { Script } from "node:vm";
import type { z } from "zod";
import type { JsonValue } from "../../sandbox/index.js";
import { TemplateError } from "../answer-template.js";
import { zodFieldsSchema } from "./zod-fields.js";

/** A JSON object: what ground truth is. */
export type JsonObject = { [key: string]: JsonValue };

/** What `verify` and `verifyGranular` receive: the judge's answer, coerced to the fields, and the question id. */
export type TemplateAnswer<Fields extends z.ZodObject> = z.output<Fields> & { id: string | null };

/** One check of `regex` (the original's `self.regex`, spec 02 §2.6), run on the answering model's raw response. */
export interface RegexCheckDefinition {
  pattern: string;
  expected: JsonValue;
  match_type?: "exact" | "contains" | "count" | "all";
}

/**
 * An answer template written in TypeScript. The functions run in a QuickJS sandbox, from their source
 * text, so they must be self-contained: they may use their arguments, their own variables and the
 * language's built-ins, but no variable from around them, no import, no `console` and no Node global.
 * Data they need goes into `groundTruth`.
 */
export interface AnswerTemplateDefinition<
  Fields extends z.ZodObject = z.ZodObject,
  Truth extends JsonObject = JsonObject,
> {
  /** The answer class name, which the judge sees as the schema's title. Default `"Answer"`. */
  className?: string;
  /**
   * The fields the judge fills, as a Zod object of JSON-representable types. Descriptions come from
   * `.describe()` or `.meta({ description })`; an optional field without a default reaches `verify` as
   * null when the judge leaves it out. Refinements and transforms do not run: the judge's answer is coerced
   * to the JSON Schema, with Pydantic's lax rules.
   */
  fields: Fields;
  /** JSON data given to the functions as `correct` (the original's `self.correct`). */
  groundTruth?: Truth;
  /** The verdict: true when the answer is right. Required unless there are no fields (a regex-only template). */
  verify?: (answer: TemplateAnswer<Fields>, correct: Truth) => boolean;
  /** Partial credit in [0, 1]. */
  verifyGranular?: (answer: TemplateAnswer<Fields>, correct: Truth) => number;
  /** Named regex checks on the raw response; the template passes only when they all pass too. */
  regex?: Record<string, RegexCheckDefinition>;
}

const HEADER =
  "// Karenina answer template (JavaScript). It is evaluated in a QuickJS sandbox; its functions see only\n" +
  "// their arguments (answer, correct) and the language's built-ins.\n";

/**
 * The JavaScript source a template is saved as (`programmingLanguage: "JavaScript"`): a script evaluating
 * to `({ className, fields, groundTruth, regex, verify, verifyGranular })`, with `fields` as the JSON
 * Schema of the Zod object (`z.toJSONSchema` in input mode, without `$schema`, the root's
 * `additionalProperties: false` and the ±2^53 bounds of `z.int()`; an object with `.meta({ id })` goes to
 * `$defs`, other nested objects stay inline), the data as JSON and each function as its own source text.
 * {@link loadJavaScriptTemplate} reads it back.
 * @throws {TemplateError} a field has no JSON Schema form, the data is not JSON, or a function's text is
 * not JavaScript (a bound or built-in function).
 * @example
 * const source = templateToJavaScriptSource({
 *   fields: z.object({ answer: z.string() }),
 *   verify: (answer) => answer.answer === "42",
 * });
 * source.includes('verify: (answer) => answer.answer === "42"'); // true
 */
export function templateToJavaScriptSource<Fields extends z.ZodObject, Truth extends JsonObject>(
  definition: AnswerTemplateDefinition<Fields, Truth>,
): string {
  const members = [
    `className: ${JSON.stringify(definition.className ?? "Answer")}`,
    `fields: ${indented(zodFieldsSchema(definition.fields))}`,
  ];
  if (definition.groundTruth !== undefined) {
    members.push(`groundTruth: ${indented(jsonData(definition.groundTruth, "groundTruth"))}`);
  }
  if (definition.regex !== undefined) members.push(`regex: ${indented(jsonData(definition.regex, "regex"))}`);
  if (definition.verify !== undefined) members.push(functionMember("verify", definition.verify));
  if (definition.verifyGranular !== undefined) {
    members.push(functionMember("verifyGranular", definition.verifyGranular));
  }
  return `${HEADER}({\n${members.map((member) => `  ${member},\n`).join("")}})\n`;
}

function indented(value: unknown): string {
  return JSON.stringify(value, null, 2).replaceAll("\n", "\n  ");
}

/** Checks that `value` is JSON data (plain objects, arrays, strings, finite numbers, booleans, null). */
function jsonData(value: unknown, path: string): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item, index) => jsonData(item, `${path}[${index}]`));
  if (typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(
      Object.entries(value as object).map(([key, child]) => [key, jsonData(child, `${path}.${key}`)]),
    );
  }
  const found =
    typeof value === "object"
      ? `an instance of ${(value as object).constructor?.name ?? "a class"}`
      : String(value);
  throw new TemplateError(
    `${path}: expected JSON data (objects, arrays, strings, numbers, booleans, null), found ${found}`,
  );
}

function compiles(code: string): boolean {
  try {
    new Script(code);
    return true;
  } catch {
    return false;
  }
}

/**
 * `name: <function text>` for a function or arrow expression, or the method itself (`name(a, b) { ... }`)
 * for a method written with the shorthand. The text is only compiled here, never run.
 */
function functionMember(name: string, fn: unknown): string {
  if (typeof fn !== "function") {
    throw new TemplateError(`${name}: expected a function, found ${typeof fn}`);
  }
  const text = Function.prototype.toString.call(fn);
  if (compiles(`(${text})`)) return `${name}: ${text}`;
  if (compiles(`({ ${text} })`)) {
    return fn.name === name ? text : `${name}: ({ ${text} })[${JSON.stringify(fn.name)}]`;
  }
  throw new TemplateError(
    `${name}: its source text is not JavaScript (${text.slice(0, 60)}); a bound or built-in function cannot be saved, write the function out`,
  );
}
