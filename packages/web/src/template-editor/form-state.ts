/**
 * The form editor's mapping between a TemplateSpec (spec 02 §9.1, as the builder routes send it) and what its
 * inputs show: ground truths and primitive parameters as text, field types and primitives with their defaults,
 * the composition strategy. Pure functions: the form holds the spec, the inputs hold text.
 */
import type {
  BuilderFieldSpec,
  BuilderPrimitiveInfo,
  BuilderStrategySpec,
  BuilderTemplateSpec,
} from "../library-types/index.js";
import { checkFieldName } from "./field-names.js";

export type FieldType = "bool" | "str" | "int" | "float" | "list_str" | "literal" | "date";

/** The seven field types of a TemplateSpec, with the form's labels. */
export const FIELD_TYPES: readonly { readonly type: FieldType; readonly label: string }[] = [
  { type: "str", label: "String" },
  { type: "int", label: "Integer" },
  { type: "float", label: "Float" },
  { type: "bool", label: "Boolean" },
  { type: "date", label: "Date" },
  { type: "literal", label: "Multiple choice" },
  { type: "list_str", label: "List of strings" },
];

/** The primitive a new field of each type gets: the template generator's choice (spec 02 §9.6). */
const DEFAULT_VERIFY_WITH: Readonly<Record<FieldType, Record<string, unknown>>> = {
  bool: { type: "BooleanMatch" },
  str: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
  int: { type: "NumericExact" },
  float: { tolerance: 0.001, mode: "relative", type: "NumericTolerance" },
  list_str: { mode: "exact", min_overlap: null, type: "SetContainment" },
  literal: { type: "LiteralMatch" },
  date: { format: null, type: "DateMatch" },
};

export type Parsed<T> =
  | { readonly ok: true; readonly value: T; readonly warning?: string }
  | { readonly ok: false; readonly error: string };
const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const failed = (error: string): Parsed<never> => ({ ok: false, error });

const isFieldType = (type: string): type is FieldType => FIELD_TYPES.some((t) => t.type === type);

// ---- ground truth -----------------------------------------------------------------------------------------

/** How a ground truth is edited: by its type's input, or as JSON when it does not fit the type (a conditional). */
export interface GroundTruthText {
  readonly kind: "typed" | "json";
  readonly text: string;
}

/** The text of a field's ground truth in its input. */
export function groundTruthText(field: Pick<BuilderFieldSpec, "type" | "ground_truth">): GroundTruthText {
  const value = field.ground_truth;
  const typed = (text: string): GroundTruthText => ({ kind: "typed", text });
  switch (field.type) {
    case "bool":
      if (typeof value === "boolean") return typed(value ? "true" : "false");
      break;
    case "int":
    case "float":
      if (typeof value === "number") return typed(String(value));
      break;
    case "list_str":
      if (Array.isArray(value) && value.every((item) => typeof item === "string"))
        return typed(value.join("\n"));
      break;
    default:
      if (typeof value === "string") return typed(value);
  }
  return { kind: "json", text: JSON.stringify(value ?? null, null, 2) };
}

/** The ground truth of a field of `type` from its input's text. */
export function parseGroundTruth(type: string, input: GroundTruthText): Parsed<unknown> {
  const text = input.text;
  if (input.kind === "json") {
    try {
      return ok(JSON.parse(text) as unknown);
    } catch {
      return failed("Not valid JSON");
    }
  }
  switch (type) {
    case "bool":
      return text === "true" || text === "false" ? ok(text === "true") : failed("Choose True or False");
    case "int": {
      const trimmed = text.trim();
      if (!/^[+-]?\d+$/.test(trimmed)) return failed("Enter a whole number");
      const value = Number(trimmed);
      return Number.isSafeInteger(value) ? ok(value) : failed("The number is too large");
    }
    case "float": {
      const trimmed = text.trim();
      const value = Number(trimmed);
      return trimmed !== "" && Number.isFinite(value) ? ok(value) : failed("Enter a number");
    }
    case "list_str":
      return ok(
        text
          .split("\n")
          .map((line) => line.trim())
          .filter((line) => line !== ""),
      );
    default:
      return ok(text);
  }
}

function defaultGroundTruth(type: FieldType, literalValues: readonly string[] | null): unknown {
  switch (type) {
    case "bool":
      return true;
    case "int":
    case "float":
      return 0;
    case "list_str":
      return [];
    case "literal":
      return literalValues?.[0] ?? "";
    default:
      return "";
  }
}

// ---- primitives -------------------------------------------------------------------------------------------

/** The primitives that apply to a field type (those with no list apply to any). */
export function primitivesFor(
  type: string,
  primitives: readonly BuilderPrimitiveInfo[],
): BuilderPrimitiveInfo[] {
  return primitives.filter((p) => p.applies_to === null || p.applies_to.includes(type));
}

/** One parameter of a primitive as the form edits it, read from the primitive's JSON Schema. */
export interface ParamControl {
  readonly name: string;
  readonly control: "boolean" | "number" | "integer" | "enum" | "text" | "lines" | "json";
  readonly nullable: boolean;
  readonly required: boolean;
  readonly options: readonly string[];
  readonly defaultValue: unknown;
}

type JsonSchemaNode = Readonly<Record<string, unknown>>;

function schemaTypes(node: JsonSchemaNode): string[] {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === "string");
  if (Array.isArray(node.anyOf)) return (node.anyOf as JsonSchemaNode[]).flatMap(schemaTypes);
  return [];
}

function controlOf(node: JsonSchemaNode, types: readonly string[]): ParamControl["control"] {
  const solid = types.filter((t) => t !== "null");
  if (solid.length !== 1) return "json";
  const [type] = solid;
  if (type === "boolean") return "boolean";
  if (type === "integer") return "integer";
  if (type === "number") return "number";
  if (type === "string") return Array.isArray(node.enum) ? "enum" : "text";
  if (type === "array") {
    const items = (node.items ?? {}) as JsonSchemaNode;
    return schemaTypes(items).join() === "string" ? "lines" : "json";
  }
  return "json";
}

/** The form controls of a primitive's parameters (spec 02 §6), in the schema's order. */
export function paramControls(primitive: BuilderPrimitiveInfo): ParamControl[] {
  const schema = primitive.parameters as JsonSchemaNode;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaNode>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, node]) => {
    const types = schemaTypes(node);
    return {
      name,
      control: controlOf(node, types),
      nullable: types.includes("null"),
      required: required.has(name),
      options: Array.isArray(node.enum) ? node.enum.map(String) : [],
      defaultValue: "default" in node ? node.default : undefined,
    };
  });
}

/** The text of a parameter's value in its input. */
export function paramText(control: ParamControl, value: unknown): string {
  if (value === null || value === undefined) return "";
  switch (control.control) {
    case "lines":
      return Array.isArray(value) ? value.map(String).join("\n") : JSON.stringify(value);
    case "json":
      return JSON.stringify(value);
    default:
      return String(value);
  }
}

/** A parameter's value from its input's text; empty text is null for a nullable parameter. */
export function parseParam(control: ParamControl, text: string): Parsed<unknown> {
  const trimmed = text.trim();
  if (trimmed === "" && control.nullable) return ok(null);
  switch (control.control) {
    case "boolean":
      return ok(text === "true");
    case "integer":
      return /^[+-]?\d+$/.test(trimmed) ? ok(Number(trimmed)) : failed("Enter a whole number");
    case "number":
      return trimmed !== "" && Number.isFinite(Number(trimmed))
        ? ok(Number(trimmed))
        : failed("Enter a number");
    case "lines":
      return ok(
        text
          .split("\n")
          .map((line) => line.trim())
          .filter((line) => line !== ""),
      );
    case "json":
      try {
        return ok(JSON.parse(trimmed === "" ? "null" : trimmed) as unknown);
      } catch {
        return failed("Not valid JSON");
      }
    default:
      return ok(text);
  }
}

/** A placeholder for a required parameter without a default (the user fills it in). */
function placeholderOf(control: ParamControl): unknown {
  switch (control.control) {
    case "boolean":
      return false;
    case "integer":
    case "number":
      return 1;
    case "enum":
      return control.options[0] ?? "";
    case "lines":
      return [];
    case "json":
      return null;
    default:
      return "";
  }
}

/** The serialized primitive `name` with its defaults (`verify_with` of a field, spec 02 §4). */
export function defaultVerifyWith(primitive: BuilderPrimitiveInfo): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const control of paramControls(primitive)) {
    params[control.name] = control.defaultValue !== undefined ? control.defaultValue : placeholderOf(control);
  }
  return { ...params, type: primitive.name };
}

/** The field with primitive `name` (its default parameters); trace primitives make it a trace field. */
export function withPrimitive(field: BuilderFieldSpec, primitive: BuilderPrimitiveInfo): BuilderFieldSpec {
  return { ...field, verify_with: defaultVerifyWith(primitive), is_trace: primitive.is_trace };
}

/**
 * The field retyped to `type`: the ground truth kept when it still reads as the new type (else the type's
 * default), the primitive kept when it applies to the new type (else the generator's choice for the type).
 */
export function withFieldType(
  field: BuilderFieldSpec,
  type: FieldType,
  primitives: readonly BuilderPrimitiveInfo[],
): BuilderFieldSpec {
  const literalValues =
    type === "literal"
      ? field.literal_values?.length
        ? field.literal_values
        : typeof field.ground_truth === "string" && field.ground_truth !== ""
          ? [field.ground_truth]
          : ["option_1"]
      : null;
  const carried = parseGroundTruth(
    type,
    groundTruthText({ type: field.type, ground_truth: field.ground_truth }),
  );
  const groundTruth =
    carried.ok && (type !== "literal" || literalValues?.includes(String(carried.value)))
      ? carried.value
      : defaultGroundTruth(type, literalValues);
  const current = primitives.find((p) => p.name === field.verify_with.type);
  const keepPrimitive =
    current !== undefined && (current.applies_to === null || current.applies_to.includes(type));
  return {
    ...field,
    type,
    literal_values: literalValues,
    ground_truth: groundTruth,
    verify_with: keepPrimitive ? field.verify_with : { ...DEFAULT_VERIFY_WITH[type] },
    is_trace: keepPrimitive ? field.is_trace : false,
  };
}

/** A new field `field_<n>` (string, exact match), named apart from `names`. */
export function newField(names: readonly string[]): BuilderFieldSpec {
  let n = names.length + 1;
  while (names.includes(`field_${n}`)) n++;
  return {
    name: `field_${n}`,
    type: "str",
    description: "",
    extraction_hint: null,
    ground_truth: "",
    literal_values: null,
    verify_with: { ...DEFAULT_VERIFY_WITH.str },
    weight: 1,
    is_trace: false,
  };
}

/** Field type as the form shows it: unknown types read as String (as the generator writes them). */
export function fieldTypeOf(field: BuilderFieldSpec): FieldType {
  return isFieldType(field.type) ? field.type : "str";
}

// ---- warnings ---------------------------------------------------------------------------------------------

export const SHORT_DESCRIPTION = 10;
export const LONG_DESCRIPTION = 500;
export const MANY_FIELDS = 10;

/** Advice on a field's description (the judge's instruction). */
export function descriptionWarnings(description: string): string[] {
  const text = description.trim();
  if (text === "") return ["The description is missing: the judge reads it to extract the field"];
  if (text.length < SHORT_DESCRIPTION) return ["The description is very short"];
  if (text.length > LONG_DESCRIPTION)
    return [`The description is very long (over ${LONG_DESCRIPTION} characters)`];
  return [];
}

/** Advice on the template as a whole. */
export function classWarnings(spec: BuilderTemplateSpec): string[] {
  const warnings: string[] = [];
  const count = spec.fields.length;
  if (count === 0) warnings.push("The template has no fields: add one");
  if (count > MANY_FIELDS) warnings.push(`The template has many fields (${count}): the judge may miss some`);
  if (count >= 3 && new Set(spec.fields.map((f) => f.type)).size === 1)
    warnings.push("All fields have the same type: check that each is what you mean");
  return warnings;
}

// ---- fields and composition -------------------------------------------------------------------------------

/** How the verdict combines the fields: the default (all of them) or a flat strategy over field checks. */
export type StrategyMode =
  | { readonly kind: "default" }
  | {
      readonly kind: "all_of" | "any_of" | "at_least_n";
      readonly n: number;
      readonly fields: readonly string[];
    }
  | { readonly kind: "nested" };

/** The strategy as the form edits it; a tree deeper than one level of field checks is `nested` (code only). */
export function strategyMode(strategy: BuilderStrategySpec | null): StrategyMode {
  if (strategy === null) return { kind: "default" };
  if (strategy.type === "field_check") return { kind: "nested" };
  const leaves = strategy.conditions;
  if (!leaves.every((c) => c.type === "field_check" && c.field_name !== null)) return { kind: "nested" };
  return {
    kind: strategy.type,
    n: strategy.n ?? 1,
    fields: leaves.map((c) => c.field_name as string),
  };
}

/** The spec's strategy for a mode (null for the default). */
export function strategyOf(
  mode: StrategyMode,
  current: BuilderStrategySpec | null,
): BuilderStrategySpec | null {
  if (mode.kind === "default") return null;
  if (mode.kind === "nested") return current;
  return {
    type: mode.kind,
    n: mode.kind === "at_least_n" ? mode.n : null,
    field_name: null,
    conditions: mode.fields.map((name) => ({
      type: "field_check",
      n: null,
      field_name: name,
      conditions: [],
    })),
  };
}

function mapLeaves(
  node: BuilderStrategySpec,
  leaf: (name: string) => string | null,
): BuilderStrategySpec | null {
  if (node.type === "field_check") {
    const name = node.field_name === null ? null : leaf(node.field_name);
    return name === null ? null : { ...node, field_name: name };
  }
  const conditions = node.conditions
    .map((child) => mapLeaves(child, leaf))
    .filter((child): child is BuilderStrategySpec => child !== null);
  return { ...node, conditions };
}

/** The spec with field `index` replaced by `next`; a rename follows into the strategy's field checks. */
export function replaceField(
  spec: BuilderTemplateSpec,
  index: number,
  next: BuilderFieldSpec,
): BuilderTemplateSpec {
  const previous = spec.fields[index];
  const fields = spec.fields.map((field, i) => (i === index ? next : field));
  const renamed = previous !== undefined && previous.name !== next.name;
  const strategy =
    renamed && spec.verify_strategy
      ? mapLeaves(spec.verify_strategy, (name) => (name === previous.name ? next.name : name))
      : spec.verify_strategy;
  return { ...spec, fields, verify_strategy: strategy };
}

/** The spec without field `index`; its field checks leave the strategy too. */
export function removeField(spec: BuilderTemplateSpec, index: number): BuilderTemplateSpec {
  const removed = spec.fields[index];
  const fields = spec.fields.filter((_, i) => i !== index);
  const strategy =
    removed && spec.verify_strategy
      ? mapLeaves(spec.verify_strategy, (name) => (name === removed.name ? null : name))
      : spec.verify_strategy;
  return { ...spec, fields, verify_strategy: strategy };
}

/** The spec with a new field at the end. */
export function addField(spec: BuilderTemplateSpec): BuilderTemplateSpec {
  return { ...spec, fields: [...spec.fields, newField(spec.fields.map((f) => f.name))] };
}

/** The name errors of every field (`Field <n>: …`); the form applies nothing while there is one. */
export function nameErrorsOf(spec: BuilderTemplateSpec): string[] {
  const names = spec.fields.map((f) => f.name);
  return spec.fields.flatMap((field, i) =>
    checkFieldName(
      field.name,
      names.filter((_, j) => j !== i),
    ).errors.map((error) => `Field ${i + 1}: ${error}`),
  );
}

/**
 * The choices of a Multiple Choice field, one per line (spec 07 §1.3.6): blanks dropped, at least one; a
 * repeated choice is kept once, with a warning naming it.
 */
export function parseChoices(text: string): Parsed<string[]> {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines.length === 0) return failed("Give at least one choice");
  const values = [...new Set(lines)];
  const repeated = [...new Set(lines.filter((line, index) => lines.indexOf(line) !== index))];
  return repeated.length === 0
    ? ok(values)
    : { ok: true, value: values, warning: `Repeated, kept once: ${repeated.join(", ")}` };
}
