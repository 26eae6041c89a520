import { describeValue } from "../../errors/index.js";
import type { JsonSchema } from "../answer-template.js";
import { TemplateError } from "../answer-template.js";
import { answerClassSchema, pydanticTitle, type SchemaField, sortSchemaKeys } from "../judge-schema.js";
import { assertFieldsSchemaWithinLimits } from "./fields-schema-limits.js";

/**
 * Field names an answer class cannot declare: `id` is inherited, `correct` holds the ground truth (spec 02 §2.1),
 * and `__proto__` cannot be a key of the parsed answer (Pydantic refuses it too).
 */
const RESERVED_FIELDS = ["id", "correct", "__proto__"];
/** Keywords that describe a schema rather than constrain it; they stay on the outside of an `anyOf`. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples"]);
const COMBINATORS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SUBSCHEMAS = ["items", "additionalProperties", "not"];

type Json = { [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(path: string, expected: string, found: unknown): never {
  throw new TemplateError(`${path}: expected ${expected}, found ${describeValue(found)}`);
}

/**
 * The Pydantic-shaped schema of an answer class (spec 02 §3.1) from the JSON Schema of its fields, as a
 * JavaScript template stores them: the inherited `id` first, `additionalProperties: true`, a title per
 * property (`gene_symbol` → "Gene Symbol"), an optional field without a default as
 * `{anyOf: [T, {type: "null"}], default: null}`, `type: [T, "null"]` as `anyOf`, integer literals typed
 * `integer`, keys sorted. Nested objects get the same treatment; `$defs` entries are titled by their key.
 * A title given in the fields is replaced by the one Pydantic would derive from the name.
 * @throws {TemplateError} `fields` is not an object schema, declares `id` or `correct`, or is too large,
 * too deep or recursive once its `$ref`s are expanded ({@link assertFieldsSchemaWithinLimits}).
 */
export function answerSchemaFromFields(className: string, fields: unknown): JsonSchema {
  const root = fields ?? { type: "object", properties: {} };
  if (!isObject(root)) fail("fields", "a JSON Schema object", root);
  assertFieldsSchemaWithinLimits(root);
  const properties = root.properties ?? {};
  if (!isObject(properties)) fail("fields.properties", "an object of field schemas", properties);
  const required = root.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === "string")) {
    fail("fields.required", "an array of field names", required);
  }
  const reserved = RESERVED_FIELDS.filter((name) => Object.hasOwn(properties, name));
  if (reserved.length > 0) {
    throw new TemplateError(
      `fields: ${reserved.join(", ")} ${reserved.length === 1 ? "is" : "are"} reserved (id is the question id every answer inherits, correct holds the ground truth, __proto__ cannot be a key); rename the field`,
    );
  }
  const classFields = Object.entries(properties).map(([name, property]): SchemaField => {
    if (!isObject(property)) fail(`fields.properties.${name}`, "a JSON Schema object", property);
    const isRequired = required.includes(name);
    const { title: _title, description, ...type } = nullableWhenOptional(shape(property), isRequired);
    return {
      name,
      schema: type,
      description: typeof description === "string" ? description : null,
      required: isRequired,
    };
  });
  const schema = answerClassSchema(className, classFields);
  if (root.$defs === undefined) return schema;
  if (!isObject(root.$defs)) fail("fields.$defs", "an object of schemas", root.$defs);
  const defs = Object.entries(root.$defs).map(([key, definition]) => {
    if (!isObject(definition)) fail(`fields.$defs.${key}`, "a JSON Schema object", definition);
    return [key, { title: key, ...shape(definition) }];
  });
  return sortSchemaKeys({ ...schema, $defs: Object.fromEntries(defs) }) as JsonSchema;
}

/** Shapes one schema and everything nested in it. */
function shape(schema: Json): Json {
  const out: Json = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === "properties" && isObject(child)) out[key] = child;
    else if (COMBINATORS.includes(key) && Array.isArray(child))
      out[key] = child.map((item) => (isObject(item) ? shape(item) : item));
    else if ((SUBSCHEMAS.includes(key) || key === "$defs") && isObject(child))
      out[key] = key === "$defs" ? mapValues(child, shape) : shape(child);
    else out[key] = child;
  }
  if (isObject(out.properties)) {
    const required = Array.isArray(out.required) ? out.required : [];
    out.properties = mapValues(out.properties, (property, name) =>
      nullableWhenOptional({ ...shape(property), title: pydanticTitle(name) }, required.includes(name)),
    );
  }
  return integerLiterals(typeListAsAnyOf(out));
}

function mapValues(object: Json, map: (value: Json, key: string) => Json): Json {
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [key, isObject(value) ? map(value, key) : value]),
  );
}

/** `{type: ["number", "null"], minimum: 0}` → `{anyOf: [{type: "number", minimum: 0}, {type: "null"}]}`. */
function typeListAsAnyOf(schema: Json): Json {
  if (!Array.isArray(schema.type)) return schema;
  const { type: types, ...rest } = schema;
  const annotations = Object.fromEntries(Object.entries(rest).filter(([key]) => ANNOTATIONS.has(key)));
  const constraints = Object.fromEntries(Object.entries(rest).filter(([key]) => !ANNOTATIONS.has(key)));
  const branches = (types as unknown[]).map((type) =>
    type === "null" ? { type } : { ...constraints, type },
  );
  return { anyOf: branches, ...annotations };
}

/** Pydantic types `Literal[3]` as `integer`; Zod says `number`. */
function integerLiterals(schema: Json): Json {
  if (schema.type !== "number") return schema;
  const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  return values.length > 0 && values.every((value) => Number.isInteger(value))
    ? { ...schema, type: "integer" }
    : schema;
}

function isNullable(schema: Json): boolean {
  return (
    schema.type === "null" ||
    (Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => isObject(branch) && branch.type === "null"))
  );
}

/** An optional field without a default is Pydantic's `Optional[T] = None`: nullable, default null. */
function nullableWhenOptional(schema: Json, required: boolean): Json {
  if (required || "default" in schema) return schema;
  if (isNullable(schema)) return { ...schema, default: null };
  const annotations = Object.fromEntries(Object.entries(schema).filter(([key]) => ANNOTATIONS.has(key)));
  const type = Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)));
  return { anyOf: [type, { type: "null" }], ...annotations, default: null };
}
