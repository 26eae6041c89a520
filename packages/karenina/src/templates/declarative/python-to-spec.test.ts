import { describe, expect, test } from "vitest";
import { PyFloat } from "../../python-repr/index.js";
import { NotDeclarativeError } from "./errors.js";
import { isDeclarativePython, pythonToSpec } from "./python-to-spec.js";

/** What the template generator writes (spec 02 §9.6). */
const GENERATED = `from typing import Literal

from karenina.schemas.entities import BaseAnswer, VerifiedField, BooleanMatch, ExactMatch, LiteralMatch, NumericExact, NumericTolerance, SetContainment


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug named in the response', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]), extraction_hint='generic name')
    approved: bool = VerifiedField(description='Whether the response says the drug is approved', ground_truth=True, verify_with=BooleanMatch())
    trials: int = VerifiedField(description='Number of trials', ground_truth=3, verify_with=NumericExact())
    ic50: float = VerifiedField(description='IC50 in nM', ground_truth=0.01, verify_with=NumericTolerance(tolerance=0.001, mode="relative"))
    targets: list[str] = VerifiedField(description='Targets', ground_truth=['BCL2'], verify_with=SetContainment(mode="exact"))
    route: Literal['oral', 'iv'] = VerifiedField(description='Route', ground_truth='oral', verify_with=LiteralMatch())
`;

const field = (code: string, name = "x") => {
  const found = pythonToSpec(code).spec.fields.find((f) => f.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

describe("generator output (spec 02 §9.6) reads as a TemplateSpec", () => {
  test("every field, typed from its annotation, with canonical primitives", () => {
    const { spec, strategy, lossy } = pythonToSpec(GENERATED);
    expect(lossy).toEqual([]);
    expect(strategy).toBeNull();
    expect(spec.class_name).toBe("Answer");
    expect(spec.fields.map((f) => [f.name, f.type])).toEqual([
      ["drug", "str"],
      ["approved", "bool"],
      ["trials", "int"],
      ["ic50", "float"],
      ["targets", "list_str"],
      ["route", "literal"],
    ]);
    expect(spec.fields[0]).toEqual({
      name: "drug",
      type: "str",
      description: "The drug named in the response",
      extraction_hint: "generic name",
      ground_truth: "venetoclax",
      literal_values: null,
      verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
      weight: 1,
      is_trace: false,
    });
    expect(spec.fields[3]?.verify_with).toEqual({
      tolerance: 0.001,
      mode: "relative",
      type: "NumericTolerance",
    });
    expect(spec.fields[5]?.literal_values).toEqual(["oral", "iv"]);
    expect(isDeclarativePython(GENERATED)).toBe(true);
  });
});

describe("hand-written variants", () => {
  test("comments, docstrings, single quotes, trailing commas and multi-line calls", () => {
    const code = `"""Module docstring."""
# a comment
from karenina.schemas.entities import (
    BaseAnswer,
    VerifiedField,
    ExactMatch,
)

class GeneAnswer(BaseAnswer):  # custom name, kept
    """Class docstring."""

    gene: str = VerifiedField(  # the gene
        description='Gene symbol',
        ground_truth='TP53',  # ground truth
        verify_with=ExactMatch(
            normalize=[
                'lowercase',
                SynonymMap(mapping={'p53': 'tp53',}),
            ],
        ),
        weight=2,
    )
    pass
`;
    const { spec } = pythonToSpec(code);
    expect(spec.class_name).toBe("GeneAnswer");
    expect(spec.fields[0]?.verify_with).toEqual({
      normalize: ["lowercase", { mapping: { p53: "tp53" } }],
      type: "ExactMatch",
    });
    expect(spec.fields[0]?.weight).toBe(2);
  });

  test("string literals: prefixes, escapes, triple quotes and implicit concatenation", () => {
    const code = String.raw`class Answer(BaseAnswer):
    x: str = VerifiedField(
        description="""Multi
line""" ' and ' "more",
        ground_truth=[r'\d+\.', '\x41\u00e9\U0001F600\101\n', u'unicode', R"raw\"q", 'tab\tend', '\q'],
        verify_with=RegexMatch(pattern=r'\[\d+\]', flags=("IGNORECASE",)),
    )
`;
    const x = field(code);
    expect(x.description).toBe("Multi\nline and more");
    expect(x.ground_truth).toEqual(["\\d+\\.", "Aé😀A\n", "unicode", 'raw\\"q', "tab\tend", "\\q"]);
    expect(x.verify_with).toEqual({ pattern: "\\[\\d+\\]", flags: ["IGNORECASE"], type: "RegexMatch" });
  });

  test("numbers: negatives, floats, exponents, underscores, hex; integral floats stay floats", () => {
    const x = field(`class Answer(BaseAnswer):
    x: float = VerifiedField(description="X", ground_truth=[-3, 2.0, 1e16, 1_000, 0x1F, -.5, 1E-3, +4], verify_with=NumericExact())
`);
    expect(x.ground_truth).toEqual([-3, new PyFloat(2), new PyFloat(1e16), 1000, 31, -0.5, 0.001, 4]);
  });

  test("positional VerifiedField arguments, None hint, tuples and dicts", () => {
    const x = field(`class Answer(BaseAnswer):
    x: str = VerifiedField("X", {"a": (1, 2), "b": None, "c": False}, ExactMatch(), 0.5, None)
`);
    expect(x).toMatchObject({
      description: "X",
      ground_truth: { a: [1, 2], b: null, c: false },
      weight: 0.5,
      extraction_hint: null,
    });
  });

  test("an inner VerificationStrategy is read", () => {
    const { spec, strategy } = pythonToSpec(`class Answer(BaseAnswer):
    a: str = VerifiedField(description="A", ground_truth="x", verify_with=ExactMatch())
    b: str = VerifiedField(description="B", ground_truth="y", verify_with=ExactMatch())

    class VerificationStrategy:
        """Either will do."""
        verify_strategy = AtLeastN(n=1, conditions=[FieldCheck(field="a"), AnyOf(conditions=[FieldCheck(field="b")])])
`);
    expect(strategy).toEqual({
      type: "at_least_n",
      n: 1,
      conditions: [
        { type: "field_check", field: "a" },
        { type: "any_of", conditions: [{ type: "field_check", field: "b" }] },
      ],
    });
    expect(spec.verify_strategy?.conditions[0]).toEqual({
      type: "field_check",
      n: null,
      field_name: "a",
      conditions: [],
    });
  });

  test("ConditionalGroundTruth calls become the serialized form", () => {
    const x = field(`class Answer(BaseAnswer):
    x: int = VerifiedField(
        description="Severity",
        ground_truth=ConditionalGroundTruth(
            source="node_results.triage.parsed.severity",
            cases={"high": GroundTruthCase(value=3, verify_with=NumericMinimum()), "low": GroundTruthCase(value=1)},
            default=GroundTruthCase(value=2, verify_with=None),
        ),
        verify_with=NumericExact(),
    )
`);
    expect(x.ground_truth).toEqual({
      source: "node_results.triage.parsed.severity",
      cases: {
        high: { value: 3, verify_with: { exclusive: false, type: "NumericMinimum" } },
        low: { value: 1, verify_with: null },
      },
      default: { value: 2, verify_with: null },
      __conditional__: true,
    });
  });

  test("a trace field may have a default", () => {
    const code = `class Answer(BaseAnswer):
    cites: bool = VerifiedField(description="Cites", ground_truth=True, verify_with=TraceRegex(pattern="\\\\[\\\\d\\\\]"), default=False)
`;
    expect(pythonToSpec(code).lossy).toEqual([]);
    expect(field(code, "cites").is_trace).toBe(true);
  });
});

describe("what the spec cannot express is reported as lossy", () => {
  test("annotations outside §9.2's exact forms map to str", () => {
    const { spec, lossy } = pythonToSpec(`class Answer(BaseAnswer):
    x: Optional[int] = VerifiedField(description="X", ground_truth=1, verify_with=NumericExact())
    y: list[int] = VerifiedField(description="Y", ground_truth=[1], verify_with=SetContainment())
    z: str = VerifiedField(description="Z", ground_truth="a", verify_with=ExactMatch(), ge=1)
`);
    expect(spec.fields.map((f) => f.type)).toEqual(["str", "list_str", "str"]);
    expect(lossy).toEqual([
      "field 'x': annotation read as 'str'",
      "field 'y': annotation read as 'list_str'",
      "field 'z': VerifiedField argument 'ge' dropped",
    ]);
  });
});

describe("classic and other non-declarative templates are refused", () => {
  const refused = (code: string, reason: RegExp) => {
    expect(() => pythonToSpec(code)).toThrow(NotDeclarativeError);
    expect(() => pythonToSpec(code)).toThrow(reason);
    expect(isDeclarativePython(code)).toBe(false);
  };

  test("a classic Field template with verify()", () => {
    refused(
      `from pydantic import Field

class Answer(BaseAnswer):
    target: str = Field(description="The target")

    def verify(self) -> bool:
        return self.target == "BCL2"
`,
      /methods are not declarative/,
    );
    refused(
      `class Answer(BaseAnswer):\n    target: str = Field(description="The target")\n`,
      /not a VerifiedField/,
    );
  });

  test("methods next to VerifiedFields", () => {
    refused(
      `class Answer(BaseAnswer):
    x: str = VerifiedField(description="X", ground_truth="a", verify_with=ExactMatch())

    def verify_granular(self):
        return 1.0
`,
      /methods are not declarative/,
    );
  });

  test("top-level code, other imports, other bases, several classes", () => {
    refused("import re\nclass Answer(BaseAnswer):\n    pass\n", /import of 're'/);
    refused("X = 1\n", /unexpected statement at module level/);
    refused("class Answer(Base):\n    pass\n", /derives from 'Base'/);
    refused(
      "class A(BaseAnswer):\n    x: str = VerifiedField(description='X', ground_truth='a', verify_with=ExactMatch())\nclass B(BaseAnswer):\n    pass\n",
      /more than one class/,
    );
  });

  test("non-literal values, unknown primitives, empty descriptions, invalid parameters", () => {
    const with_ = (args: string) => `class Answer(BaseAnswer):\n    x: str = VerifiedField(${args})\n`;
    refused(with_("description='X', ground_truth=GT, verify_with=ExactMatch()"), /only Python literals/);
    refused(with_("description='X', ground_truth='a', verify_with=Fuzzy()"), /one of the 23 primitives/);
    refused(with_("description='  ', ground_truth='a', verify_with=ExactMatch()"), /non-empty description/);
    refused(with_("description='X', ground_truth='a', verify_with=NumericTolerance()"), /Field required/);
    refused(
      with_("description='X', verify_with=ExactMatch()"),
      /needs description, ground_truth and verify_with/,
    );
    refused(with_("description=f'X', ground_truth='a', verify_with=ExactMatch()"), /f-strings/);
  });

  test("a class with no VerifiedField, reserved names, duplicates", () => {
    refused("class Answer(BaseAnswer):\n    pass\n", /has no VerifiedField/);
    const one = (name: string) =>
      `    ${name}: str = VerifiedField(description='X', ground_truth='a', verify_with=ExactMatch())\n`;
    refused(`class Answer(BaseAnswer):\n${one("correct")}`, /reserved/);
    refused(`class Answer(BaseAnswer):\n${one("a")}${one("a")}`, /declared twice/);
  });

  test("syntax errors are refused with their line", () => {
    const error = (() => {
      try {
        pythonToSpec("class Answer(BaseAnswer):\n    x: str = VerifiedField(description='X\n");
      } catch (e) {
        return e as NotDeclarativeError;
      }
    })();
    expect(error?.line).toBe(2);
    expect(error?.message).toContain("unterminated string literal");
  });
});
