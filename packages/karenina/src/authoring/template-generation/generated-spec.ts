import { PyFloat, type TemplateSpec, TemplateSpecSchema } from "../../templates/index.js";
import type { AttributeType } from "./attribute-type.js";
import type { GroundTruthAttribute } from "./replies.js";

/** The primitive each attribute type is verified with (spec 02 §9.6). */
const PRIMITIVES: Record<AttributeType["kind"], Record<string, unknown>> = {
  bool: { type: "BooleanMatch" },
  int: { type: "NumericExact" },
  float: { type: "NumericTolerance", tolerance: 0.001, mode: "relative" },
  str: { type: "ExactMatch", normalize: ["lowercase", "strip"] },
  list_str: { type: "SetContainment", mode: "exact" },
  literal: { type: "LiteralMatch" },
};

/** The ground truth as the template stores it: a float attribute's whole number stays a Python float (`26.0`). */
function storedGroundTruth(attribute: GroundTruthAttribute): unknown {
  const value = attribute.groundTruth;
  if (attribute.type.kind === "float" && typeof value === "number" && Number.isInteger(value)) {
    return new PyFloat(value);
  }
  return Array.isArray(value) ? [...value] : value;
}

/**
 * The declarative template of generated attributes: class `Answer`, one VerifiedField per attribute with its
 * judge instruction, its ground truth and the primitive its type calls for (spec 02 §9.6). No strategy: the
 * template passes when every field does.
 * @example
 * const spec = generatedTemplateSpec(
 *   [{ name: "drug", type: { kind: "str" }, typeText: "str", groundTruth: "venetoclax" }],
 *   { drug: "The drug the response names" },
 * );
 * spec.fields[0].verify_with; // { type: "ExactMatch", normalize: ["lowercase", "strip"] }
 */
export function generatedTemplateSpec(
  attributes: readonly GroundTruthAttribute[],
  descriptions: Readonly<Record<string, string>>,
): TemplateSpec {
  return TemplateSpecSchema.parse({
    class_name: "Answer",
    fields: attributes.map((attribute) => ({
      name: attribute.name,
      type: attribute.type.kind,
      description: descriptions[attribute.name] ?? attribute.name,
      ground_truth: storedGroundTruth(attribute),
      literal_values: attribute.type.kind === "literal" ? attribute.type.values : null,
      verify_with: structuredClone(PRIMITIVES[attribute.type.kind]),
    })),
  });
}
