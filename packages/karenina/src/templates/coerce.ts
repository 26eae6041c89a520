import { describeValue } from "../errors/index.js";
import { ownValue, setOwn } from "../plain-data/index.js";
import type { JsonSchema } from "./answer-template.js";

/** A value the judge returned that does not fit the field, with where it is (`citation.page`). */
export interface CoercionProblem {
  path: string;
  message: string;
}

export type Coerced = { ok: true; value: unknown } | { ok: false; problems: CoercionProblem[] };

const TRUE_WORDS = new Set(["true", "t", "yes", "y", "on", "1"]);
const FALSE_WORDS = new Set(["false", "f", "no", "n", "off", "0"]);
const NUMERIC = /^[+-]?(\d(_?\d)*(\.(\d(_?\d)*)?)?|\.\d(_?\d)*)([eE][+-]?\d(_?\d)*)?$/;

function fail(path: string, message: string, value: unknown): Coerced {
  return { ok: false, problems: [{ path, message: `${message}, found ${describeValue(value)}` }] };
}

function numberFromString(text: string): number | null {
  const trimmed = text.trim();
  return NUMERIC.test(trimmed) ? Number(trimmed.replaceAll("_", "")) : null;
}

function coerceScalar(type: string, value: unknown, path: string): Coerced {
  switch (type) {
    case "string":
      return typeof value === "string"
        ? { ok: true, value }
        : fail(path, "Input should be a valid string", value);
    case "integer": {
      if (typeof value === "boolean") return { ok: true, value: Number(value) };
      const n =
        typeof value === "number" ? value : typeof value === "string" ? numberFromString(value) : null;
      return n !== null && Number.isInteger(n)
        ? { ok: true, value: n }
        : fail(path, "Input should be a valid integer", value);
    }
    case "number": {
      if (typeof value === "boolean") return { ok: true, value: Number(value) };
      const n =
        typeof value === "number" ? value : typeof value === "string" ? numberFromString(value) : null;
      return n !== null ? { ok: true, value: n } : fail(path, "Input should be a valid number", value);
    }
    case "boolean": {
      if (typeof value === "boolean") return { ok: true, value };
      if (value === 0 || value === 1) return { ok: true, value: value === 1 };
      const word = typeof value === "string" ? value.trim().toLowerCase() : null;
      if (word !== null && TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (word !== null && FALSE_WORDS.has(word)) return { ok: true, value: false };
      return fail(path, "Input should be a valid boolean", value);
    }
    case "null":
      return value === null ? { ok: true, value } : fail(path, "Input should be None", value);
    default:
      return { ok: true, value };
  }
}

const join = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;

/**
 * Coerces a judge's value to a field's schema with Pydantic's lax rules (spec 02 §2.1): `"3"` and `3.0` are
 * the integer 3, `"yes"` is true, numbers are not strings, a `Literal` (enum) takes only its own values, and
 * `anyOf` tries each branch in order. `$ref`s resolve against `defs`.
 * @example
 * coerceToSchema({ type: "integer" }, "3"); // { ok: true, value: 3 }
 * coerceToSchema({ type: "string" }, 3).ok; // false
 */
export function coerceToSchema(
  schema: JsonSchema,
  value: unknown,
  path = "",
  defs: Record<string, JsonSchema> = {},
): Coerced {
  if (typeof schema.$ref === "string") {
    const target = ownValue(defs, schema.$ref.replace(/^#\/\$defs\//, ""));
    return target ? coerceToSchema(target, value, path, defs) : { ok: true, value };
  }
  if (Array.isArray(schema.anyOf)) {
    const problems: CoercionProblem[] = [];
    for (const branch of schema.anyOf as JsonSchema[]) {
      const result = coerceToSchema(branch, value, path, defs);
      if (result.ok) return result;
      problems.push(...result.problems);
    }
    return { ok: false, problems };
  }
  if (Array.isArray(schema.enum)) {
    return (schema.enum as unknown[]).some((allowed) => allowed === value)
      ? { ok: true, value }
      : fail(
          path,
          `Input should be ${(schema.enum as unknown[]).map((v) => JSON.stringify(v)).join(" or ")}`,
          value,
        );
  }
  if ("const" in schema) {
    return schema.const === value
      ? { ok: true, value }
      : fail(path, `Input should be ${JSON.stringify(schema.const)}`, value);
  }
  switch (schema.type) {
    case "array":
      return coerceArray(schema, value, path, defs);
    case "object":
      return coerceObject(schema, value, path, defs);
    case undefined:
      return { ok: true, value };
    default:
      return coerceScalar(String(schema.type), value, path);
  }
}

function coerceArray(
  schema: JsonSchema,
  value: unknown,
  path: string,
  defs: Record<string, JsonSchema>,
): Coerced {
  if (!Array.isArray(value)) return fail(path, "Input should be a valid list", value);
  const items = (schema.items as JsonSchema | undefined) ?? {};
  const out: unknown[] = [];
  const problems: CoercionProblem[] = [];
  value.forEach((item, index) => {
    const result = coerceToSchema(items, item, join(path, index), defs);
    if (result.ok) out.push(result.value);
    else problems.push(...result.problems);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: out };
}

function coerceObject(
  schema: JsonSchema,
  value: unknown,
  path: string,
  defs: Record<string, JsonSchema>,
): Coerced {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return fail(path, "Input should be a valid dictionary or object", value);
  }
  const input = value as Record<string, unknown>;
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const extra = schema.additionalProperties;
  const out: Record<string, unknown> = {};
  const problems: CoercionProblem[] = [];
  // Keys are the judge's or the template's data: only own keys count (a field named `constructor` that the
  // judge left out is missing), and every key is written as a key, `__proto__` included.
  for (const [key, property] of Object.entries(properties)) {
    if (!Object.hasOwn(input, key)) {
      if (required.has(key)) problems.push({ path: join(path, key), message: "Field required" });
      else if (Object.hasOwn(property, "default")) setOwn(out, key, structuredClone(property.default));
      continue;
    }
    const result = coerceToSchema(property, input[key], join(path, key), defs);
    if (result.ok) setOwn(out, key, result.value);
    else problems.push(...result.problems);
  }
  for (const [key, child] of Object.entries(input)) {
    if (Object.hasOwn(properties, key)) continue;
    if (typeof extra === "object" && extra !== null) {
      const result = coerceToSchema(extra as JsonSchema, child, join(path, key), defs);
      if (result.ok) setOwn(out, key, result.value);
      else problems.push(...result.problems);
    } else if (extra !== false) {
      setOwn(out, key, child);
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: out };
}

/** `field: message; other: message`, for a template failure. */
export function describeProblems(problems: readonly CoercionProblem[]): string {
  return problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join("; ");
}
