import type { JsonSchema } from "./answer-template.js";

/**
 * Pydantic's field title: Python `str.title()` of the name, then `_` → space (`gene_symbol` → "Gene Symbol",
 * `geneID` → "Geneid", `x2y_z` → "X2Y Z").
 * @example
 * pydanticTitle("gene_symbol"); // "Gene Symbol"
 */
export function pydanticTitle(name: string): string {
  let out = "";
  let previousIsLetter = false;
  for (const char of name) {
    const isLetter = char.toLowerCase() !== char.toUpperCase();
    out += isLetter ? (previousIsLetter ? char.toLowerCase() : char.toUpperCase()) : char;
    previousIsLetter = isLetter;
  }
  return out.replaceAll("_", " ");
}

/** The `id` property every answer class inherits from `BaseAnswer` (spec 02 §3.1). */
export const INHERITED_ID_PROPERTY: JsonSchema = {
  anyOf: [{ type: "string" }, { type: "null" }],
  default: null,
  title: "Id",
};

/** Sorts the keys of every schema object alphabetically, as Pydantic emits them; `properties` keep field order. */
export function sortSchemaKeys(value: unknown, parentKey?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => sortSchemaKeys(item));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const keepOrder = parentKey === "properties" || parentKey === "$defs";
  const ordered = keepOrder ? entries : entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(ordered.map(([key, child]) => [key, sortSchemaKeys(child, key)]));
}

/** One field of an answer class as the schema shows it. */
export interface SchemaField {
  name: string;
  /** The type part of the property (`{type: "string"}`, `{anyOf: [...], default: null}`, ...), without title. */
  schema: JsonSchema;
  description?: string | null;
  required: boolean;
}

/**
 * The JSON Schema Pydantic produces for an answer class (`model_json_schema()`): inherited `id` first, then the
 * fields in order, `additionalProperties: true`, `required` for fields without a default, keys sorted.
 */
export function answerClassSchema(className: string, fields: readonly SchemaField[]): JsonSchema {
  const properties: Record<string, unknown> = { id: INHERITED_ID_PROPERTY };
  for (const field of fields) {
    properties[field.name] = {
      ...field.schema,
      ...(field.description ? { description: field.description } : {}),
      title: pydanticTitle(field.name),
    };
  }
  const required = fields.filter((field) => field.required).map((field) => field.name);
  const schema: JsonSchema = {
    additionalProperties: true,
    properties,
    ...(required.length > 0 ? { required } : {}),
    title: className,
    type: "object",
  };
  return sortSchemaKeys(schema) as JsonSchema;
}

/**
 * What the judge's prompt embeds (spec 02 §3.1): every `__verification__` key removed, no top-level
 * `description` (the original builds it from an id-injecting subclass, which has no docstring), and the named
 * trace fields dropped from `properties` and `required`. A `required` list the trace fields empty stays, as
 * `required: []`, as the original's filter leaves it.
 */
export function judgeSchemaOf(schema: JsonSchema, traceFields: readonly string[] = []): JsonSchema {
  const { description: _description, ...stripped } = stripVerification(schema) as JsonSchema;
  if (traceFields.length === 0) return stripped;
  const properties = { ...(stripped.properties as Record<string, unknown>) };
  for (const name of traceFields) delete properties[name];
  const required = (stripped.required as string[] | undefined)?.filter((name) => !traceFields.includes(name));
  const { required: _required, ...rest } = stripped;
  return sortSchemaKeys({ ...rest, properties, ...(required ? { required } : {}) }) as JsonSchema;
}

function stripVerification(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripVerification);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== "__verification__")
      .map(([key, child]) => [key, stripVerification(child)]),
  );
}

/**
 * The relaxed sibling class used for structured output (spec 02 §3.1): title `<Class>__Relaxed`; each named
 * verified field becomes nullable, optional and loses its description; other fields are unchanged.
 */
export function relaxedSchemaOf(schema: JsonSchema, verifiedFields: readonly string[]): JsonSchema {
  const stripped = stripVerification(schema) as JsonSchema;
  const properties: Record<string, unknown> = { ...(stripped.properties as Record<string, unknown>) };
  for (const name of verifiedFields) {
    const property = properties[name] as JsonSchema | undefined;
    if (!property) continue;
    const { title, description: _description, default: _default, ...type } = property;
    const alreadyNullable =
      Array.isArray(type.anyOf) && (type.anyOf as JsonSchema[]).some((branch) => branch.type === "null");
    properties[name] = {
      ...(alreadyNullable ? type : { anyOf: [type, { type: "null" }] }),
      default: null,
      title,
    };
  }
  const required = (stripped.required as string[] | undefined)?.filter(
    (name) => !verifiedFields.includes(name),
  );
  const { required: _required, title, ...rest } = stripped;
  return sortSchemaKeys({
    ...rest,
    properties,
    ...(required && required.length > 0 ? { required } : {}),
    title: `${String(title)}__Relaxed`,
  }) as JsonSchema;
}
