/**
 * Test data shared by the template editor's unit tests: primitives as `GET /api/v2/templates/builder/primitives`
 * lists them (a subset, verbatim) and a field spec to vary.
 */
import type { BuilderFieldSpec, BuilderPrimitiveInfo } from "../../library-types/index.js";

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/** A primitive's parameters as the server writes their JSON Schema. */
const parameters = (properties: Record<string, unknown>, required?: string[]) => ({
  $schema: SCHEMA,
  type: "object",
  properties,
  ...(required ? { required } : {}),
});

const parsedPrimitive = (
  name: string,
  appliesTo: string[] | null,
  params: ReturnType<typeof parameters>,
): BuilderPrimitiveInfo => ({ name, description: "", parameters: params, applies_to: appliesTo, is_trace: false });

export const PRIMITIVES: readonly BuilderPrimitiveInfo[] = [
  parsedPrimitive("BooleanMatch", ["bool"], parameters({})),
  parsedPrimitive(
    "ExactMatch",
    ["str", "int", "float"],
    parameters({
      normalize: {
        default: ["lowercase", "strip"],
        type: "array",
        items: {
          anyOf: [{ type: "string" }, { type: "object", properties: { mapping: { type: "object" } } }],
        },
      },
    }),
  ),
  parsedPrimitive("NumericExact", ["int", "float"], parameters({})),
  parsedPrimitive(
    "NumericTolerance",
    ["float"],
    parameters(
      {
        tolerance: { type: "number" },
        mode: { default: "relative", type: "string", enum: ["relative", "absolute"] },
      },
      ["tolerance"],
    ),
  ),
  parsedPrimitive("NumericMinimum", null, parameters({ exclusive: { default: false, type: "boolean" } })),
  {
    name: "TraceRegex",
    description: "",
    parameters: parameters(
      {
        pattern: { type: "string" },
        count_min: {
          default: null,
          anyOf: [
            { type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
            { type: "null" },
          ],
        },
      },
      ["pattern"],
    ),
    applies_to: ["bool"],
    is_trace: true,
  },
  parsedPrimitive(
    "RegexMatch",
    ["str"],
    parameters({ pattern: { type: "string" }, flags: { default: [], type: "array", items: { type: "string" } } }, [
      "pattern",
    ]),
  ),
];

export const primitive = (name: string) => PRIMITIVES.find((p) => p.name === name) as BuilderPrimitiveInfo;

/** The `target` field (ExactMatch on BCL2), with `overrides`. */
export const fieldSpec = (overrides: Partial<BuilderFieldSpec> = {}): BuilderFieldSpec => ({
  name: "target",
  type: "str",
  description: "Target protein named in the response",
  extraction_hint: null,
  ground_truth: "BCL2",
  literal_values: null,
  verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
  weight: 1,
  is_trace: false,
  ...overrides,
});
