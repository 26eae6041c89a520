import { floatRepr, pyRepr, stringRepr } from "../../python-repr/index.js";
import { type StrategyNode, strategyFromSpec } from "./composition.js";
import { TemplateSpecError } from "./errors.js";
import { primitiveFloatParameters } from "./primitives/registry.js";
import { pyStr } from "./python-values.js";
import type { TemplateFieldSpec, TemplateSpec } from "./template-spec.js";
import { validateSpec } from "./validate-spec.js";

/** Characters the original's `"…"` quoting (only `"` escaped) cannot carry. */
const NEEDS_FULL_ESCAPE = /[\\\n\r\0]/;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\0": "\\x00", '"': '\\"' };

/**
 * The original's quoting of descriptions and hints: `"` preceded by a backslash, nothing else. Text with a
 * backslash, a line break or a NUL (which that quoting would break or alter) is escaped fully instead.
 */
function quoted(text: string): string {
  const special = NEEDS_FULL_ESCAPE.test(text) ? /[\\\n\r\0"]/g : /"/g;
  return `"${text.replace(special, (char) => ESCAPES[char] ?? char)}"`;
}

function annotation(field: TemplateFieldSpec): string {
  switch (field.type) {
    case "bool":
    case "str":
    case "int":
    case "float":
      return field.type;
    case "list_str":
      return "list[str]";
    case "literal":
      return `Literal[${(field.literal_values ?? []).map(stringRepr).join(", ")}]`;
    default:
      return "str";
  }
}

/** `Primitive(k=v, …)` with the spec's parameters in their order; float parameters print as floats. */
function primitiveCall(verifyWith: Record<string, unknown>): string {
  const { type, ...params } = verifyWith;
  const name = pyStr(type);
  const floats = primitiveFloatParameters(name);
  const args = Object.entries(params).map(([key, value]) => {
    const text = floats.has(key) && typeof value === "number" ? floatRepr(value) : pyRepr(value);
    return `${key}=${text}`;
  });
  return `${name}(${args.join(", ")})`;
}

function fieldLines(field: TemplateFieldSpec): string[] {
  return [
    `    ${field.name}: ${annotation(field)} = VerifiedField(`,
    `        description=${quoted(field.description)},`,
    ...(field.extraction_hint ? [`        extraction_hint=${quoted(field.extraction_hint)},`] : []),
    `        ground_truth=${pyRepr(field.ground_truth)},`,
    `        verify_with=${primitiveCall(field.verify_with)},`,
    ...(field.weight !== 1 ? [`        weight=${floatRepr(field.weight)},`] : []),
    "    )",
  ];
}

const NODE_CLASSES = { all_of: "AllOf", any_of: "AnyOf", at_least_n: "AtLeastN", field_check: "FieldCheck" };

/** A strategy node as Python constructor calls, one child per line; `indent` is that of the node's line. */
function nodeLines(node: StrategyNode, indent: string): string[] {
  const name = NODE_CLASSES[node.type];
  if (node.type === "field_check") return [`${name}(field=${stringRepr(node.field)})`];
  const n = node.type === "at_least_n" ? `n=${node.n}, ` : "";
  if (node.conditions.length === 0) return [`${name}(${n}conditions=[])`];
  const inner = `${indent}    `;
  const children = node.conditions.flatMap((child) => {
    const [first, ...rest] = nodeLines(child, inner);
    const lines = [`${inner}${first}`, ...rest];
    lines[lines.length - 1] += ",";
    return lines;
  });
  return [`${name}(${n}conditions=[`, ...children, `${indent}])`];
}

function strategyLines(node: StrategyNode): string[] {
  const [first, ...rest] = nodeLines(node, "        ");
  return ["", "    class VerificationStrategy:", `        verify_strategy = ${first}`, ...rest];
}

/**
 * The class-body lines of a spec (its fields, then its inner `VerificationStrategy` class, if any), indented by
 * four spaces; empty for a spec with neither. The spec must be valid (`validateSpec`).
 */
export function specClassBodyLines(spec: TemplateSpec): string[] {
  return [
    ...spec.fields.flatMap(fieldLines),
    ...(spec.verify_strategy ? strategyLines(strategyFromSpec(spec.verify_strategy)) : []),
  ];
}

/**
 * The original's `spec_to_python` (spec 02 §9.4): VerifiedField Python source for a TemplateSpec, byte for
 * byte. Beyond the original, a `verify_strategy` is kept as an inner `VerificationStrategy` class (so a saved
 * template keeps its strategy), and a spec without fields gets a `pass` body.
 * @throws TemplateSpecError `Invalid TemplateSpec:\n  - <problem>…` when `validateSpec` finds problems.
 * @example
 * specToPython({ class_name: "Answer", verify_strategy: null, fields: [{ name: "ok", type: "bool", description: "Says yes", extraction_hint: null, ground_truth: true, literal_values: null, verify_with: { type: "BooleanMatch" }, weight: 1, is_trace: false }] }).split("\n")[6];
 * // "        ground_truth=True,"
 */
export function specToPython(spec: TemplateSpec): string {
  const problems = validateSpec(spec);
  if (problems.length > 0) throw new TemplateSpecError(problems);
  const primitives = [...new Set(spec.fields.map((field) => pyStr(field.verify_with.type)))].sort();
  const lines = [
    ...(spec.fields.some((field) => field.type === "literal") ? ["from typing import Literal", ""] : []),
    `from karenina.schemas.entities import ${["BaseAnswer", "VerifiedField", ...primitives].join(", ")}`,
    "",
    "",
    `class ${spec.class_name}(BaseAnswer):`,
    ...(spec.fields.length > 0 ? specClassBodyLines(spec) : ["    pass"]),
  ];
  return `${lines.join("\n")}\n`;
}
