import { describe, expect, test } from "vitest";
import { BCL2_TARGET_FIELD } from "../../test-support/template-specs.js";
import { TemplateSplitError } from "./errors.js";
import { joinMixedTemplate, splitMixedTemplate } from "./mixed-template.js";
import { logicalLines } from "./python-source/logical-lines.js";

/** A mixed template with every kind of hand-written part around its VerifiedFields. */
export const MIXED_TEMPLATE = `"""Module docstring."""
from pydantic import Field
from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch
import re


class Answer(BaseAnswer):
    """The answer's docstring, which stays first."""

    rationale: str = Field(description="Why the response names this target")
    target: str = VerifiedField(description="Target protein", ground_truth="BCL2", verify_with=ExactMatch())
    dose: int = VerifiedField(
        description="Dose in mg",
        ground_truth=400,
        verify_with=NumericTolerance(tolerance=10, mode="absolute"),
    )

    def tidy(self):
        text = f"{self.rationale!r:>{10}} {"quote"} }}{{"
        return re.sub(r"\\s+", " ", text)  # a comment with "quotes"
    # trailing comment in the class


HELPER = """a module-level
string with class Answer(BaseAnswer): in it"""
`;

const MIXED_SPEC_FIELDS = [
  { ...BCL2_TARGET_FIELD, description: "Target protein" },
  {
    name: "dose",
    type: "int",
    description: "Dose in mg",
    extraction_hint: null,
    ground_truth: 400,
    literal_values: null,
    verify_with: { tolerance: 10, mode: "absolute", type: "NumericTolerance" },
    weight: 1,
    is_trace: false,
  },
];

describe("logicalLines", () => {
  test("covers the source exactly; strings, f-strings, brackets and continuations join lines", () => {
    const source = 'x = (1,\n     2)\ns = """a\n# not a comment\n"""\nf"{d["k"]:{w}}" \\\n  + "y"\n\n  # c\n';
    const lines = logicalLines(source);
    expect(lines.map((l) => source.slice(l.start, l.end))).toEqual([
      "x = (1,\n     2)\n",
      's = """a\n# not a comment\n"""\n',
      'f"{d["k"]:{w}}" \\\n  + "y"\n',
      "\n",
      "  # c\n",
    ]);
    expect(lines.map((l) => [l.line, l.blank, l.comment])).toEqual([
      [1, false, false],
      [3, false, false],
      [6, false, false],
      [8, true, false],
      [9, true, true],
    ]);
  });

  test("an unterminated string or bracket is a TemplateSplitError with its line", () => {
    expect(() => logicalLines("x = 1\ny = 'abc\n")).toThrow(/line 2\): unterminated string literal/);
    expect(() => logicalLines("x = [1,\n")).toThrow(TemplateSplitError);
  });

  test("f-strings nested past Python's own limit are refused, not a stack overflow", () => {
    expect(() => logicalLines(`x = ${'f"{'.repeat(60_000)}\n`)).toThrow(
      /\(line 1\): f-string: too many nested expressions/,
    );
  });
});

describe("splitMixedTemplate and joinMixedTemplate", () => {
  test("a mixed template splits into the spec of its VerifiedFields and the rest, byte for byte", () => {
    const mixed = splitMixedTemplate(MIXED_TEMPLATE);
    expect(mixed?.spec).toEqual({ class_name: "Answer", verify_strategy: null, fields: MIXED_SPEC_FIELDS });
    expect(mixed?.remainder).toEqual({
      module_head: MIXED_TEMPLATE.slice(0, MIXED_TEMPLATE.indexOf("class Answer")),
      class_body_head:
        '    """The answer\'s docstring, which stays first."""\n\n    rationale: str = Field(description="Why the response names this target")\n',
      class_body_tail: MIXED_TEMPLATE.slice(
        MIXED_TEMPLATE.indexOf("\n    def tidy"),
        MIXED_TEMPLATE.indexOf("    # trailing"),
      ),
      module_tail: MIXED_TEMPLATE.slice(MIXED_TEMPLATE.indexOf("    # trailing")),
      body_indent: "    ",
    });
    expect(mixed?.lossy).toEqual([]);
  });

  test("joining the unchanged spec keeps every hand-written byte and reads back to the same parts", () => {
    const mixed = splitMixedTemplate(MIXED_TEMPLATE);
    if (!mixed) throw new Error("not split");
    const code = joinMixedTemplate(mixed.spec, mixed.remainder);
    expect(code.startsWith(mixed.remainder.module_head)).toBe(true);
    expect(code).toContain(`${mixed.remainder.class_body_head}    target: str = VerifiedField(\n`);
    expect(code.endsWith(mixed.remainder.class_body_tail + mixed.remainder.module_tail)).toBe(true);
    const again = splitMixedTemplate(code);
    expect(again?.spec).toEqual(mixed.spec);
    expect(again?.remainder).toEqual(mixed.remainder);
  });

  test("an edited ground truth changes only that field's code", () => {
    const mixed = splitMixedTemplate(MIXED_TEMPLATE);
    if (!mixed) throw new Error("not split");
    const before = joinMixedTemplate(mixed.spec, mixed.remainder);
    const fields = mixed.spec.fields.map((f) => (f.name === "target" ? { ...f, ground_truth: "MCL1" } : f));
    const after = joinMixedTemplate({ ...mixed.spec, fields }, mixed.remainder);
    expect(after).toBe(before.replace("ground_truth='BCL2'", "ground_truth='MCL1'"));
    expect(splitMixedTemplate(after)?.spec.fields.map((f) => f.ground_truth)).toEqual(["MCL1", 400]);
  });

  test("fields are written in the body's own indentation, and a strategy class is kept in the spec", () => {
    const code =
      "class Answer(BaseAnswer):\n  a: bool = VerifiedField(description='A', ground_truth=True, verify_with=BooleanMatch())\n  b: bool = VerifiedField(description='B', ground_truth=True, verify_with=BooleanMatch())\n  class VerificationStrategy:\n    verify_strategy = AnyOf(conditions=[FieldCheck(field='a'), FieldCheck(field='b')])\n  def verify(self):\n    return True\n";
    const mixed = splitMixedTemplate(code);
    expect(mixed?.spec.verify_strategy?.type).toBe("any_of");
    expect(mixed?.remainder.body_indent).toBe("  ");
    if (!mixed) throw new Error("not split");
    const joined = joinMixedTemplate(mixed.spec, mixed.remainder);
    expect(joined).toContain("\n  a: bool = VerifiedField(\n      description=");
    expect(joined).toContain("\n  class VerificationStrategy:\n      verify_strategy = AnyOf(");
    expect(joined.endsWith("  def verify(self):\n    return True\n")).toBe(true);
    expect(splitMixedTemplate(joined)?.spec).toEqual(mixed.spec);
  });

  test("dropped comments, moved lines and a rewritten class line are listed as lossy", () => {
    const code =
      "class Answer( BaseAnswer ):  # note\n    # about a\n    a: bool = VerifiedField(description='A', ground_truth=True, verify_with=BooleanMatch())\n    x: int = 1\n    b: bool = VerifiedField(description='B', ground_truth=True, verify_with=BooleanMatch())\n";
    expect(splitMixedTemplate(code)?.lossy).toEqual([
      "the class line is rewritten as 'class Answer(BaseAnswer):'",
      "field 'a': its comments (line 3) are dropped",
      "the hand-written line 4 between VerifiedFields moves after them",
    ]);
  });

  test("a template without VerifiedFields is not mixed", () => {
    expect(splitMixedTemplate("class Answer(BaseAnswer):\n    x: int = Field(description='X')\n")).toBeNull();
  });

  test.each([
    [
      "a VerifiedField the reader cannot read",
      "class Answer(BaseAnswer):\n    a: int = VerifiedField(description='A', ground_truth=compute(), verify_with=NumericExact())\n    def m(self):\n        pass\n",
      /\(line 2\): call to 'compute' where a literal is expected/,
    ],
    [
      "two classes with VerifiedFields",
      "class A(BaseAnswer):\n    a: bool = VerifiedField(description='A', ground_truth=True, verify_with=BooleanMatch())\nclass B(BaseAnswer):\n    b: bool = VerifiedField(description='B', ground_truth=True, verify_with=BooleanMatch())\n",
      /more than one class declares VerifiedFields \(A, B\)/,
    ],
    [
      "a class line with another base",
      "class Answer(BaseAnswer, Mixin):\n    a: bool = VerifiedField(description='A', ground_truth=True, verify_with=BooleanMatch())\n",
      /the class line 'class Answer\(BaseAnswer, Mixin\):' is not 'class <Name>\(BaseAnswer\):'/,
    ],
    [
      "a name declared both ways",
      "class Answer(BaseAnswer):\n    a: bool = VerifiedField(description='A', ground_truth=True, verify_with=BooleanMatch())\n    a: bool = Field(description='A')\n",
      /'a' is declared both as a VerifiedField and by hand/,
    ],
  ])("%s is refused with the construct named", (_, code, message) => {
    expect(() => splitMixedTemplate(code)).toThrow(message);
  });
});

/** Splits a hostile template: a result or a TemplateSplitError, within 5 s; anything else (a RangeError) fails. */
function splitsOrRefuses(source: string): "split" | "refused" | "classic" {
  const started = Date.now();
  try {
    return splitMixedTemplate(source) === null ? "classic" : "split";
  } catch (error) {
    if (error instanceof TemplateSplitError) return "refused";
    throw error;
  } finally {
    expect(Date.now() - started).toBeLessThan(5000);
  }
}

const VERIFIED_LINE =
  "    ok: bool = VerifiedField(description='Says yes', ground_truth=True, verify_with=BooleanMatch())\n";

describe("attack: hostile sources are refused or split, never a stack overflow, never run", () => {
  test("200 kB of unclosed brackets", () => {
    expect(splitsOrRefuses(`class Answer(BaseAnswer):\n${VERIFIED_LINE}x = ${"(".repeat(200_000)}\n`)).toBe(
      "refused",
    );
    expect(splitsOrRefuses(`${"(".repeat(200_000)}`)).toBe("refused");
  });

  test("200 kB of nested square brackets, in the module and in a VerifiedField's ground truth", () => {
    const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(splitsOrRefuses(`class Answer(BaseAnswer):\n${VERIFIED_LINE}\nx = ${nested}\n`)).not.toBe(
      "classic",
    );
    // Before the fix the declarative reader's recursive descent overflowed the stack (a RangeError).
    const inGroundTruth = `class Answer(BaseAnswer):\n    ok: list = VerifiedField(description='d', ground_truth=${nested}, verify_with=ExactMatch())\n`;
    expect(splitsOrRefuses(inGroundTruth)).toBe("refused");
    expect(() => splitMixedTemplate(inGroundTruth)).toThrow(/nested more than 200 deep/);
    expect(
      splitsOrRefuses(
        `class Answer(BaseAnswer):\n    ok: ${nested} = VerifiedField(description='d', ground_truth=1, verify_with=ExactMatch())\n`,
      ),
    ).toBe("refused");
    expect(
      splitsOrRefuses(
        `class Answer(BaseAnswer):\n    ok: int = VerifiedField(description='d', ground_truth=${"-".repeat(200_000)}1, verify_with=ExactMatch())\n`,
      ),
    ).toBe("refused");
  });

  test("100 kB of triple-quoted strings", () => {
    const strings = '"""a\nb"""\n'.repeat(10_000);
    expect(strings.length).toBeGreaterThanOrEqual(100_000);
    expect(
      splitsOrRefuses(`class Answer(BaseAnswer):\n${VERIFIED_LINE}${strings.replace(/^/gm, "    ")}`),
    ).not.toBe("classic");
    expect(splitsOrRefuses(`x = ${'"""'.repeat(33_334)}\n`)).not.toBe("split");
  });

  test("a class body that would loop forever is split, not run", () => {
    const source = `while True:\n    pass\n\nclass Answer(BaseAnswer):\n${VERIFIED_LINE}    while True:\n        pass\n`;
    expect(splitsOrRefuses(source)).not.toBe("classic");
  });
});
