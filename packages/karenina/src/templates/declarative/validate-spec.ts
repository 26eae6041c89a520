import { PROTO_KEY } from "../../plain-data/index.js";
import { pyRepr } from "../../python-repr/index.js";
import { strategySpecProblems } from "./composition.js";
import { FIELD_TYPES } from "./primitives/primitive.js";
import { createPrimitive, PRIMITIVE_NAMES, primitiveDefinition } from "./primitives/registry.js";
import { pyStr } from "./python-values.js";
import type { TemplateFieldSpec, TemplateSpec } from "./template-spec.js";

const SORTED_TYPES = pyRepr([...FIELD_TYPES].sort());

function fieldProblems(field: TemplateFieldSpec): string[] {
  const prefix = `Field '${field.name}'`;
  const problems: string[] = [];
  if (field.name === PROTO_KEY) {
    // Results key every field by name, and this one name cannot be a key (Pydantic refuses it as well).
    problems.push(`${prefix}: '${PROTO_KEY}' cannot be a field name; rename the field`);
  }
  if (!(FIELD_TYPES as readonly string[]).includes(field.type)) {
    problems.push(`${prefix}: invalid field type '${field.type}'. Must be one of: ${SORTED_TYPES}`);
  }
  if (field.type === "literal" && !field.literal_values?.length) {
    problems.push(`${prefix}: literal type requires 'literal_values'`);
  }
  if (!("type" in field.verify_with)) {
    return [...problems, `${prefix}: 'verify_with' must include a 'type' key`];
  }
  const { type, ...params } = field.verify_with;
  const name = pyStr(type);
  const definition = primitiveDefinition(name);
  if (!definition) {
    return [...problems, `${prefix}: unknown primitive '${name}'. Available: ${pyRepr(PRIMITIVE_NAMES)}`];
  }
  try {
    createPrimitive(name, params);
  } catch (error) {
    return [...problems, `${prefix}: invalid parameters for '${name}': ${(error as Error).message}`];
  }
  const compatible = definition.appliesTo;
  if (compatible && !(compatible as readonly string[]).includes(field.type)) {
    problems.push(
      `${prefix}: primitive '${name}' is not compatible with field type '${field.type}'. Compatible types: ${pyRepr([...compatible].sort())}`,
    );
  }
  if (field.is_trace && field.type !== "bool") {
    problems.push(`${prefix}: trace primitives require field type 'bool', got '${field.type}'`);
  }
  return problems;
}

/**
 * The original's `validate_spec` (spec 02 §9.3): one message per problem, empty when the spec is valid.
 * Beyond the original, a `verify_strategy` must be convertible to a runtime strategy (a `field_check` names
 * its field, an `at_least_n` has `n ≥ 0`), since the strategy is kept in the generated code.
 * @example
 * validateSpec({ class_name: "Answer", verify_strategy: null, fields: [{ name: "x", type: "text", description: "X", extraction_hint: null, ground_truth: "a", literal_values: null, verify_with: { type: "ExactMatch" }, weight: 1, is_trace: false }] });
 * // ["Field 'x': invalid field type 'text'. Must be one of: ['bool', 'date', 'float', 'int', 'list_str', 'literal', 'str']", "Field 'x': primitive 'ExactMatch' is not compatible with field type 'text'. Compatible types: ['float', 'int', 'str']"]
 */
export function validateSpec(spec: TemplateSpec): string[] {
  return [
    ...spec.fields.flatMap(fieldProblems),
    ...(spec.verify_strategy ? strategySpecProblems(spec.verify_strategy) : []),
  ];
}
