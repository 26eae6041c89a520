import { describe, expect, test } from "vitest";
import { TemplateSpecError } from "./errors.js";
import { PRIMITIVE_NAMES } from "./primitives/registry.js";
import { pythonToSpec } from "./python-to-spec.js";
import { specToPython } from "./spec-to-python.js";
import { type TemplateSpec, type TemplateSpecInput, TemplateSpecSchema } from "./template-spec.js";
import { validateSpec } from "./validate-spec.js";

/** The TemplateSpec example of spec 02 §9.1. */
const EXAMPLE: TemplateSpecInput = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [
    {
      name: "target",
      type: "str",
      description: "Target protein named in the response",
      extraction_hint: "gene symbol",
      ground_truth: "BCL2",
      literal_values: null,
      verify_with: { normalize: ["lowercase", { mapping: { "bcl-2": "bcl2" } }], type: "ExactMatch" },
      weight: 2.0,
      is_trace: false,
    },
    {
      name: "cites",
      type: "bool",
      description: "Cites a reference",
      extraction_hint: null,
      ground_truth: true,
      literal_values: null,
      verify_with: { pattern: "\\[\\d+\\]", count_min: null, type: "TraceRegex" },
      weight: 1.0,
      is_trace: true,
    },
  ],
};

/** The generated code of spec 02 §9.4 for that example. */
const EXAMPLE_CODE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch, TraceRegex


class Answer(BaseAnswer):
    target: str = VerifiedField(
        description="Target protein named in the response",
        extraction_hint="gene symbol",
        ground_truth='BCL2',
        verify_with=ExactMatch(normalize=['lowercase', {'mapping': {'bcl-2': 'bcl2'}}]),
        weight=2.0,
    )
    cites: bool = VerifiedField(
        description="Cites a reference",
        ground_truth=True,
        verify_with=TraceRegex(pattern='\\\\[\\\\d+\\\\]', count_min=None),
    )
`;

const spec = (input: TemplateSpecInput): TemplateSpec => TemplateSpecSchema.parse(input);
const oneField = (overrides: Record<string, unknown>) =>
  spec({
    fields: [
      {
        name: "x",
        type: "str",
        description: "X",
        ground_truth: "a",
        verify_with: { type: "ExactMatch" },
        ...overrides,
      },
    ],
  });

describe("validateSpec (spec 02 §9.3 messages)", () => {
  test("the example is valid", () => expect(validateSpec(spec(EXAMPLE))).toEqual([]));

  test("each rule's message, verbatim", () => {
    expect(validateSpec(oneField({ type: "text" }))).toEqual([
      "Field 'x': invalid field type 'text'. Must be one of: ['bool', 'date', 'float', 'int', 'list_str', 'literal', 'str']",
      "Field 'x': primitive 'ExactMatch' is not compatible with field type 'text'. Compatible types: ['float', 'int', 'str']",
    ]);
    expect(validateSpec(oneField({ type: "literal", verify_with: { type: "LiteralMatch" } }))).toEqual([
      "Field 'x': literal type requires 'literal_values'",
    ]);
    expect(validateSpec(oneField({ verify_with: { normalize: [] } }))).toEqual([
      "Field 'x': 'verify_with' must include a 'type' key",
    ]);
    expect(validateSpec(oneField({ verify_with: { type: "Fuzzy" } }))).toEqual([
      `Field 'x': unknown primitive 'Fuzzy'. Available: [${PRIMITIVE_NAMES.map((n) => `'${n}'`).join(", ")}]`,
    ]);
    expect(validateSpec(oneField({ type: "float", verify_with: { type: "NumericTolerance" } }))).toEqual([
      "Field 'x': invalid parameters for 'NumericTolerance': 1 validation error for NumericTolerance\ntolerance\n  Field required",
    ]);
    expect(validateSpec(oneField({ type: "int", verify_with: { type: "SetContainment" } }))).toEqual([
      "Field 'x': primitive 'SetContainment' is not compatible with field type 'int'. Compatible types: ['list_str']",
    ]);
    expect(
      validateSpec(
        oneField({ type: "str", verify_with: { type: "TraceContains", substring: "a" }, is_trace: true }),
      ),
    ).toEqual([
      "Field 'x': primitive 'TraceContains' is not compatible with field type 'str'. Compatible types: ['bool']",
      "Field 'x': trace primitives require field type 'bool', got 'str'",
    ]);
  });

  test("primitives outside the compatibility table are not checked", () => {
    expect(validateSpec(oneField({ type: "str", verify_with: { type: "NumericMinimum" } }))).toEqual([]);
  });

  test("a strategy must convert to runtime nodes", () => {
    expect(
      validateSpec(
        spec({ ...EXAMPLE, verify_strategy: { type: "any_of", conditions: [{ type: "field_check" }] } }),
      ),
    ).toEqual(["verify_strategy.conditions[0]: 'field_check' requires 'field_name'"]);
  });
});

describe("specToPython (spec 02 §9.4)", () => {
  test("reproduces the generated example byte for byte", () => {
    expect(specToPython(spec(EXAMPLE))).toBe(EXAMPLE_CODE);
  });

  test("an invalid spec is a ValueError-style message listing the problems", () => {
    expect(() => specToPython(oneField({ type: "text" }))).toThrow(TemplateSpecError);
    expect(() => specToPython(oneField({ type: "text" }))).toThrow(
      /^Invalid TemplateSpec:\n {2}- Field 'x': invalid field type/,
    );
  });

  test("literals import Literal; float parameters print as floats; only double quotes are escaped", () => {
    const code = specToPython(
      spec({
        fields: [
          {
            name: "level",
            type: "literal",
            literal_values: ["low", "it's"],
            description: 'Say "level"',
            ground_truth: "low",
            verify_with: { type: "LiteralMatch" },
          },
          {
            name: "dose",
            type: "float",
            description: "Dose",
            ground_truth: 2.5,
            verify_with: { type: "NumericTolerance", tolerance: 1, mode: "absolute" },
            weight: 0.00001,
          },
        ],
      }),
    );
    expect(code).toBe(`from typing import Literal

from karenina.schemas.entities import BaseAnswer, VerifiedField, LiteralMatch, NumericTolerance


class Answer(BaseAnswer):
    level: Literal['low', "it's"] = VerifiedField(
        description="Say \\"level\\"",
        ground_truth='low',
        verify_with=LiteralMatch(),
    )
    dose: float = VerifiedField(
        description="Dose",
        ground_truth=2.5,
        verify_with=NumericTolerance(tolerance=1.0, mode='absolute'),
        weight=1e-05,
    )
`);
  });

  test("text that the original's quoting would break is escaped fully", () => {
    const code = specToPython(oneField({ description: 'two\nlines \\ "q"' }));
    expect(code).toContain('description="two\\nlines \\\\ \\"q\\"",');
    expect(pythonToSpec(code).spec.fields[0]?.description).toBe('two\nlines \\ "q"');
  });

  test("a strategy is kept as an inner VerificationStrategy class", () => {
    const code = specToPython(
      spec({
        ...EXAMPLE,
        verify_strategy: {
          type: "at_least_n",
          n: 1,
          conditions: [
            { type: "field_check", field_name: "target" },
            { type: "any_of", conditions: [{ type: "field_check", field_name: "cites" }] },
          ],
        },
      }),
    );
    expect(
      code.endsWith(`    )

    class VerificationStrategy:
        verify_strategy = AtLeastN(n=1, conditions=[
            FieldCheck(field='target'),
            AnyOf(conditions=[
                FieldCheck(field='cites'),
            ]),
        ])
`),
    ).toBe(true);
  });
});

describe("spec → Python → spec", () => {
  const specs: TemplateSpecInput[] = [
    EXAMPLE,
    {
      class_name: "VenetoclaxAnswer",
      verify_strategy: {
        type: "all_of",
        conditions: [
          { type: "field_check", field_name: "targets" },
          { type: "at_least_n", n: 1, conditions: [{ type: "field_check", field_name: "when" }] },
        ],
      },
      fields: [
        {
          name: "targets",
          type: "list_str",
          description: "Targets",
          ground_truth: ["BCL2", "MCL1"],
          verify_with: { mode: "overlap", min_overlap: 1, type: "SetContainment" },
        },
        {
          name: "phase",
          type: "literal",
          literal_values: ["I", "II"],
          description: "Phase",
          ground_truth: "II",
          verify_with: { type: "LiteralMatch" },
        },
        {
          name: "when",
          type: "str",
          description: "Approval\tdate",
          ground_truth: "2016-04-11",
          verify_with: { format: null, type: "DateMatch" },
          weight: 0.5,
        },
        {
          name: "dose",
          type: "float",
          description: "Dose 'mg'",
          ground_truth: 400.5,
          verify_with: {
            cutoff: 0.2,
            full_credit: 0.05,
            mode: "relative",
            decay: "quadratic",
            type: "NumericGraded",
          },
        },
        {
          name: "n",
          type: "int",
          description: "Count",
          ground_truth: -3,
          verify_with: { type: "NumericExact" },
        },
        {
          name: "ok",
          type: "bool",
          description: "Says ok",
          ground_truth: { nested: [null, 1.5, "é\u2028"] },
          verify_with: { type: "BooleanMatch" },
        },
        {
          name: "short",
          type: "bool",
          description: "Short",
          ground_truth: false,
          verify_with: { min: null, max: 100, unit: "words", type: "TraceLength" },
          is_trace: true,
        },
        {
          name: "severity",
          type: "int",
          description: "Severity",
          ground_truth: {
            source: "node_results.t.s",
            cases: { high: { value: 3, verify_with: { exclusive: false, type: "NumericMinimum" } } },
            default: { value: 1, verify_with: null },
            __conditional__: true,
          },
          verify_with: { type: "NumericExact" },
        },
      ],
    },
  ];

  test.each(specs.map((s, i) => [i, s] as const))("spec %i comes back unchanged", (_, input) => {
    const original = spec(input);
    expect(pythonToSpec(specToPython(original)).spec).toEqual(original);
  });

  test("a date field reads back as str, as in the original", () => {
    const original = oneField({ type: "date", verify_with: { format: null, type: "DateMatch" } });
    expect(pythonToSpec(specToPython(original)).spec.fields[0]?.type).toBe("str");
  });
});
