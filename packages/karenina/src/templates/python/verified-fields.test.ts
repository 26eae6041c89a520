/**
 * VerifiedField templates (spec 02 §2.4–2.5, §4–§7) and the primitives' Python semantics (§6). Templates are
 * written for these tests; every parsed answer is hand-written, none is real model output.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { pythonCompatSetup } from "./compat/compat-setup.js";
import { loadPythonTemplate } from "./index.js";

let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = PythonSandbox.create();
  await sandbox.start();
});

afterAll(async () => {
  await sandbox.close();
});

const load = (code: string) => loadPythonTemplate(code, { sandbox });

/** Evaluates a Python expression with the compatibility layer's names in scope. */
const python = (expression: string) =>
  sandbox.run({
    setup: pythonCompatSetup(),
    code: "from karenina.schemas.entities import *\nfrom _karenina_primitives import rebuild_primitive\nfrom _karenina_dates import parse_date",
    entry: expression,
  });

const IMPORTS = "from karenina.schemas.entities import *\nfrom typing import Literal\n";

const STRINGS = `${IMPORTS}
class Answer(BaseAnswer):
    target: str = VerifiedField(
        description="Target protein",
        ground_truth="BCL2",
        verify_with=ExactMatch(normalize=["lowercase", "remove_punctuation", SynonymMap(mapping={"bcell lymphoma 2": "bcl2"})]),
        extraction_hint="gene symbol",
    )
    mechanism: str = VerifiedField(description="Mechanism", ground_truth=None,
        verify_with=ContainsAny(substrings=["Apoptosis", "cell death"], normalize=["lowercase"]))
    summary: str = VerifiedField(description="Summary", ground_truth=None,
        verify_with=ContainsAll(substrings=["BCL2", "venetoclax"]))
    code: str = VerifiedField(description="Trial code", ground_truth=None,
        verify_with=RegexMatch(pattern=r"^[a-z]{3}-\\d+$", flags=["IGNORECASE", "ignorecase"]))
    phase: Literal["I", "II", "III"] = VerifiedField(description="Phase", ground_truth="III", verify_with=LiteralMatch())
    approved: bool = VerifiedField(description="Approved", ground_truth=True, verify_with=BooleanMatch())
`;

const NUMBERS = `${IMPORTS}
class Answer(BaseAnswer):
    dose: int = VerifiedField(description="Dose in mg", ground_truth=400, verify_with=NumericExact())
    half_life: float = VerifiedField(description="Half-life in h", ground_truth=26,
        verify_with=NumericTolerance(tolerance=0.1))
    ic50: float = VerifiedField(description="IC50 in nM", ground_truth=None,
        verify_with=NumericRange(min=0, max=10, exclusive_min=True))
    trials: int = VerifiedField(description="Trials", ground_truth=3, verify_with=NumericMinimum())
    price: float = VerifiedField(description="Price", ground_truth=1000, verify_with=NumericMaximum(exclusive=True))
`;

const GRADED = `${IMPORTS}
class Answer(BaseAnswer):
    linear: float = VerifiedField(description="a", ground_truth=100, verify_with=NumericGraded(cutoff=0.2))
    quadratic: float = VerifiedField(description="b", ground_truth=100,
        verify_with=NumericGraded(cutoff=0.2, full_credit=0.05, decay="quadratic"))
    band: float = VerifiedField(description="c", ground_truth=None,
        verify_with=NumericRangeGraded(min=10, max=20, margin=5, exclusive_max=True))
    ceiling: float = VerifiedField(description="d", ground_truth=100,
        verify_with=NumericThresholdGraded(direction="max", margin=0.1))
`;

const LISTS_AND_DATES = `${IMPORTS}
class Answer(BaseAnswer):
    genes: list[str] = VerifiedField(description="Genes", ground_truth=["BCL2", "MCL1"],
        verify_with=SetContainment(mode="superset"))
    steps: list[str] = VerifiedField(description="Steps", ground_truth=["bind", "inhibit"], verify_with=OrderedMatch())
    approval: str = VerifiedField(description="Approval date", ground_truth="2016-04-11", verify_with=DateMatch())
    launch: str = VerifiedField(description="Launch", ground_truth="2016-04-11", verify_with=DateTolerance(tolerance=3))
    trial_end: str = VerifiedField(description="Trial end", ground_truth=None,
        verify_with=DateRange(min="2015-01-01", max="2015-12-31"))
`;

/** The worked example of spec 02 §2.5: weights 2, 2, 1. */
const weighted = (strategy: string) => `${IMPORTS}
class Answer(BaseAnswer):
    gene: str = VerifiedField(description="Gene", ground_truth="BCL2", verify_with=ExactMatch(), weight=2)
    organism: str = VerifiedField(description="Organism", ground_truth="human", verify_with=ExactMatch(), weight=2)
    dose: int = VerifiedField(description="Dose", ground_truth=400, verify_with=NumericExact())
${strategy ? `\n    class VerificationStrategy:\n        verify_strategy = ${strategy}\n` : ""}`;

describe("primitive families through templates", () => {
  test("strings and categories: normalizers, synonym maps, substrings, regex flags, literals, booleans", async () => {
    const template = await load(STRINGS);
    expect([template.mode, template.extractionHints]).toEqual(["verified", { target: "gene symbol" }]);
    // Hand-written parsed answer, all right.
    const right = {
      target: "B-cell lymphoma 2",
      mechanism: "induces APOPTOSIS",
      summary: "venetoclax inhibits BCL2",
      code: "ABC-123",
      phase: "III",
      approved: "yes",
    };
    expect(await template.evaluate(right)).toEqual({
      verify: true,
      fieldVerify: true,
      verifyGranular: 1,
      fieldResults: { target: true, mechanism: true, summary: true, code: true, phase: true, approved: true },
      regex: { success: true, results: {}, details: {} },
      error: null,
    });
    // Hand-written parsed answer, every field wrong in a way the primitive catches.
    const wrong = {
      target: "BCL-XL",
      mechanism: "blocks necrosis",
      summary: "Venetoclax inhibits BCL2",
      code: "ABC-12X",
      phase: "II",
      approved: false,
    };
    const evaluation = await template.evaluate(wrong);
    expect(evaluation.fieldResults).toEqual({
      target: false,
      mechanism: false,
      summary: false,
      code: false,
      phase: false,
      approved: false,
    });
    expect([evaluation.verify, evaluation.verifyGranular]).toEqual([false, 0]);
  });

  test("numbers: exact, relative tolerance, exclusive range, minimum, exclusive maximum", async () => {
    const template = await load(NUMBERS);
    // Hand-written parsed answers.
    const right = await template.evaluate({
      dose: "400",
      half_life: 28.5,
      ic50: 10,
      trials: 3,
      price: 999.5,
    });
    expect(right.fieldResults).toEqual({
      dose: true,
      half_life: true,
      ic50: true,
      trials: true,
      price: true,
    });
    const wrong = await template.evaluate({ dose: 401, half_life: 29, ic50: 0, trials: 2, price: 1000 });
    expect(wrong.fieldResults).toEqual({
      dose: false,
      half_life: false,
      ic50: false,
      trials: false,
      price: false,
    });
    expect(wrong.verify).toBe(false);
  });

  test("graded numbers: the worked examples of spec 02 §6.4", async () => {
    const template = await load(GRADED);
    // Hand-written parsed answer: 110 against 100, 22 in a 10–20 band with a margin of 5, 105 against a max of 100.
    const evaluation = await template.evaluate({ linear: 110, quadratic: 110, band: 22, ceiling: 105 });
    expect(evaluation.fieldResults).toEqual({ linear: true, quadratic: false, band: false, ceiling: false });
    // Scores 0.5, 1 − (0.05/0.15)² ≈ 0.8889, 1 − 2/5 = 0.6, 0.5; equal weights.
    expect(evaluation.verifyGranular).toBeCloseTo((0.5 + (1 - (1 / 3) ** 2) + 0.6 + 0.5) / 4, 10);
    // Hand-written parsed answer at the exclusive edge of the band: check false, score 1.
    const edge = await template.evaluate({ linear: 100, quadratic: 100, band: 20, ceiling: 100 });
    expect(edge.fieldResults.band).toBe(false);
    expect(edge.verifyGranular).toBe(1);
  });

  test("lists and dates: superset, ordered match, lenient date parsing, tolerance, range", async () => {
    const template = await load(LISTS_AND_DATES);
    // Hand-written parsed answers.
    const right = await template.evaluate({
      genes: ["MCL1", "BCL2", "BCL2", "BAX"],
      steps: [" Bind", "INHIBIT "],
      approval: "April 11, 2016",
      launch: "2016/04/14",
      trial_end: "31 Dec 2015",
    });
    expect(right.fieldResults).toEqual({
      genes: true,
      steps: true,
      approval: true,
      launch: true,
      trial_end: true,
    });
    const wrong = await template.evaluate({
      genes: ["bcl2", "mcl1"],
      steps: ["inhibit", "bind"],
      approval: "11/04/2016",
      launch: "2016-04-15",
      trial_end: "2015-12-31T10:00",
    });
    expect(wrong.fieldResults).toEqual({
      genes: false,
      steps: false,
      approval: false,
      launch: false,
      trial_end: false,
    });
  });
});

describe("combining field results", () => {
  test("weights: 2, 2, 1 with scores 1, 0, 1 give 0.6; verify needs every field", async () => {
    const evaluation = await (await load(weighted(""))).evaluate({
      gene: "bcl2",
      organism: "mouse",
      dose: 400,
    });
    expect(evaluation).toMatchObject({ verify: false, verifyGranular: 0.6, error: null });
  });

  test("AnyOf: verify passes with one field; granular is the best weighted score, 0.4", async () => {
    const template = await load(
      weighted("AnyOf(conditions=[FieldCheck(field='gene'), FieldCheck(field='organism')])"),
    );
    const evaluation = await template.evaluate({ gene: "bcl2", organism: "mouse", dose: 400 });
    expect(evaluation).toMatchObject({ verify: true, verifyGranular: 0.4 });
  });

  test("AtLeastN: counts passing children; granular sums the n best weighted scores", async () => {
    const template = await load(
      weighted(
        "AtLeastN(n=2, conditions=[FieldCheck(field='gene'), FieldCheck(field='organism'), AnyOf(conditions=[FieldCheck(field='dose')])])",
      ),
    );
    const twoOfThree = await template.evaluate({ gene: "bcl2", organism: "mouse", dose: 400 });
    expect(twoOfThree).toMatchObject({ verify: true, verifyGranular: 0.6 });
    const oneOfThree = await template.evaluate({ gene: "bcl2", organism: "mouse", dose: 1 });
    expect(oneOfThree).toMatchObject({ verify: false, verifyGranular: 0.4 });
  });

  test("a FieldCheck on an unknown field makes verify() raise", async () => {
    const template = await load(weighted("AllOf(conditions=[FieldCheck(field='nope')])"));
    expect(await template.evaluate({ gene: "bcl2", organism: "human", dose: 400 })).toMatchObject({
      verify: false,
      verifyGranular: null,
      error: "Field verification failed: 'nope'",
    });
  });

  test("a null from the judge is a null field result, never a pass", async () => {
    const template = await load(weighted(""));
    // Hand-written parsed answer where the judge found no organism.
    const evaluation = await template.evaluate({ gene: "BCL2", organism: null, dose: 400 });
    expect(evaluation.fieldResults).toEqual({ gene: true, organism: null, dose: true });
    expect([evaluation.verify, evaluation.verifyGranular]).toEqual([false, 0.6]);
  });

  test("the relaxed structured-output schema makes verified fields nullable and drops their descriptions", async () => {
    const template = await load(weighted(""));
    expect(template.structuredOutputSchema).toEqual({
      additionalProperties: true,
      properties: {
        id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
        gene: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Gene" },
        organism: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Organism" },
        dose: { anyOf: [{ type: "integer" }, { type: "null" }], default: null, title: "Dose" },
      },
      title: "Answer__Relaxed",
      type: "object",
    });
    expect(template.judgeSchema.required).toEqual(["gene", "organism", "dose"]);
    expect(JSON.stringify(template.judgeSchema)).not.toContain("BCL2");
    expect(template.groundTruth).toEqual({ gene: "BCL2", organism: "human", dose: 400 });
  });

  test("a mixed template keeps its own verify(); field results are still reported", async () => {
    const code = `${IMPORTS}
class Answer(BaseAnswer):
    gene: str = VerifiedField(description="Gene", ground_truth="BCL2", verify_with=ExactMatch())
    note: str = Field(description="Any note")

    def verify(self):
        return self.note == "ok"
`;
    const template = await load(code);
    expect(template.mode).toBe("mixed");
    const evaluation = await template.evaluate({ gene: "MCL1", note: "ok" });
    expect(evaluation).toMatchObject({ verify: true, fieldResults: { gene: false }, verifyGranular: 0 });
  });

  test("SemanticMatch cannot be checked: verify() raises", async () => {
    const code = `${IMPORTS}
class Answer(BaseAnswer):
    summary: str = VerifiedField(description="Summary", ground_truth="x", verify_with=SemanticMatch())
`;
    const evaluation = await (await load(code)).evaluate({ summary: "x" });
    expect(evaluation.verify).toBe(false);
    expect(evaluation.error).toMatch(/^Field verification failed: SemanticMatch needs an embedding model/);
  });
});

describe("trace primitives", () => {
  const TRACE_ONLY = `${IMPORTS}
class Answer(BaseAnswer):
    cites: bool = VerifiedField(description="Cites", ground_truth=True, verify_with=TraceRegex(pattern=r"\\[\\d+\\]", count_min=2))
    short: bool = VerifiedField(description="Short", ground_truth=True, verify_with=TraceLength(max=12, unit="words"))
    hedges: bool = VerifiedField(description="Hedges", ground_truth=False, verify_with=TraceContains(substring="might"))
`;

  test("a trace-only template needs no judge; its fields are checked against the raw response", async () => {
    const template = await load(TRACE_ONLY);
    expect(template.needsNoJudge).toBe(true);
    expect(template.judgeSchema.properties).toEqual({
      id: { anyOf: [{ type: "string" }, { type: "null" }], default: null, title: "Id" },
    });
    // The original's trace filter leaves the emptied list: `required: []` (spec 02 §3.1).
    expect(template.judgeSchema.required).toEqual([]);
    expect(Object.keys(template.structuredOutputSchema.properties as object)).toEqual([
      "id",
      "cites",
      "short",
      "hedges",
    ]);
    // Hand-written raw responses.
    const good = await template.evaluate({}, { rawResponse: "BCL2 is the target [1], see also [2]." });
    expect(good).toMatchObject({ verify: true, verifyGranular: 1 });
    const bad = await template.evaluate(
      {},
      { rawResponse: "It might be BCL2 [1] but it could be any of many other genes" },
    );
    expect(bad.fieldResults).toEqual({ cites: false, short: false, hedges: false });
  });

  test("a trace primitive without a raw response makes verify() raise", async () => {
    const evaluation = await (await load(TRACE_ONLY)).evaluate({});
    expect(evaluation.error).toBe(
      "Field verification failed: Field 'cites' uses a TracePrimitive but requires _raw_trace to be set",
    );
  });
});

describe("conditional ground truth", () => {
  const CONDITIONAL = `${IMPORTS}
class Answer(BaseAnswer):
    severity: int = VerifiedField(
        description="Severity score",
        ground_truth=ConditionalGroundTruth(
            source="node_results.triage.parsed.severity",
            cases={"high": GroundTruthCase(value=3, verify_with=NumericMinimum()), "True": GroundTruthCase(value=9)},
            default=GroundTruthCase(value=2),
        ),
        verify_with=NumericExact(),
    )
`;
  const scenario = (severity: unknown) => ({
    scenarioContext: { node_results: { triage: { parsed: { severity } } } },
  });

  test("outside a scenario the default case applies", async () => {
    const template = await load(CONDITIONAL);
    expect(template.groundTruth).toEqual({});
    expect((await template.evaluate({ severity: 2 })).verify).toBe(true);
    expect((await template.evaluate({ severity: 3 })).verify).toBe(false);
  });

  test("a case can replace the primitive; the case key is Python's str() of the value", async () => {
    const template = await load(CONDITIONAL);
    expect((await template.evaluate({ severity: 5 }, scenario("high"))).verify).toBe(true);
    expect((await template.evaluate({ severity: 2 }, scenario("high"))).verify).toBe(false);
    expect((await template.evaluate({ severity: 9 }, scenario(true))).verify).toBe(true);
    expect((await template.evaluate({ severity: 2 }, scenario("unknown"))).verify).toBe(true);
    expect((await template.evaluate({ severity: 2 }, scenario(null))).verify).toBe(true);
  });
});

describe("primitive semantics (Python values)", () => {
  test.each([
    ["ExactMatch().check(5, 5.0)", false],
    ["ExactMatch().check(None, ' None ')", true],
    ["ExactMatch(normalize=['collapse_whitespace']).check('a \\t\\n b', 'a b')", true],
    ["BooleanMatch().check('false', True)", true],
    ["BooleanMatch().check(None, False)", false],
    ["LiteralMatch().check(1, 1.0)", true],
    ["LiteralMatch().check('a', 'A')", false],
    ["NumericExact().check('1e3', 1000)", true],
    ["NumericExact().check(' 1_000 ', 1000)", true],
    ["NumericTolerance(tolerance=0.5).check(0.1, 0)", false],
    ["SetContainment().check('ab', ['b', 'a'])", true],
    ["SetContainment().check([1, True], [1.0])", true],
    ["SetContainment(mode='overlap', min_overlap=0).check(['x'], ['y'])", false],
    ["OrderedMatch().check(['A'], ['a', 'b'])", false],
    ["DateMatch().check('2020-03-05T23:59:00', 'March 5, 2020')", true],
    ["DateMatch(format='%d/%m/%Y').check('05/03/2020', '2020-03-05')", false],
    ["DateMatch(format='%d/%m/%Y').check('05/03/2020', '05/03/2020')", true],
    ["DateTolerance(tolerance=2, unit='hours').check('2020-03-05T10:00Z', '2020-03-05T11:00+00:00')", true],
    ["DateTolerance(tolerance=2, unit='hours').check('2020-03-05T10:00Z', '2020-03-05T11:00')", false],
    ["TraceLength(min=3, unit='tokens').check_trace('héé')", true],
  ])("%s is %s", async (expression, expected) => {
    expect(await python(expression)).toBe(expected);
  });

  test.each([
    ["NumericExact().check('1,000', 1000)", "ValueError"],
    ["NumericExact().check(None, 1)", "TypeError"],
    ["SetContainment(mode='same').check([1], [1])", "ValueError: Unknown mode: same"],
    ["ExactMatch(normalize=['upper']).check('a', 'a')", "ValueError: Unknown normalizer: 'upper'"],
    ["TraceRegex(pattern='x').check('x', True)", "NotImplementedError"],
    ["rebuild_primitive({'pattern': 'x'})", "ValueError: Primitive data missing 'type' key"],
    ["rebuild_primitive({'type': 'Fuzzy'})", "ValueError: Unknown primitive type: 'Fuzzy'"],
    ["NumericGraded(cutoff=0)", "ValidationError"],
    ["DateMatch().check('12345678901234567890', '2020')", "OverflowError"],
  ])("%s raises %s", async (expression, message) => {
    await expect(python(expression)).rejects.toThrow(message);
  });

  test("VerifiedField stores the primitive with every parameter, then `type`", async () => {
    const expression =
      "[f.json_schema_extra['__verification__'] for f in [VerifiedField('d', ground_truth=('a', 1), verify_with=SetContainment(mode='superset'), extraction_hint='h')]]";
    expect(await python(expression)).toEqual([
      {
        ground_truth: ["a", 1],
        verify_with: { mode: "superset", min_overlap: null, type: "SetContainment" },
        weight: 1,
        extraction_hint: "h",
      },
    ]);
    expect(await python("ExactMatch(normalize=['lowercase', {'mapping': {'a': 'b'}}]).serialize()")).toEqual({
      normalize: ["lowercase", { mapping: { a: "b" } }],
      type: "ExactMatch",
    });
    expect(await python("BooleanMatch().serialize()")).toEqual({ type: "BooleanMatch" });
  });

  test.each([
    ["2020-03-05", "2020-03-05"],
    ["2020-03-05T10:30:00Z", "2020-03-05"],
    ["March 5, 2020", "2020-03-05"],
    ["5 Mar 2020", "2020-03-05"],
    ["Thursday, 5th of March 2020", "2020-03-05"],
    ["2020/03/05", "2020-03-05"],
    ["05/03/2020", "2020-05-03"],
    ["13/03/2020", "2020-03-13"],
    ["3/5/20", "2020-03-05"],
    ["20200305", "2020-03-05"],
    ["March 5, 2020 3 pm", "2020-03-05T15:00:00"],
  ])("the date parser reads %s as %s", async (text, iso) => {
    const parsed = await python(`parse_date(${JSON.stringify(text)}).isoformat()`);
    expect(parsed).toContain(iso);
  });

  test.each(["yesterday", "5 Marzo 2020", "", "2020-02-30", "5/3/2020/1"])(
    "the date parser refuses %j",
    async (text) => {
      await expect(python(`parse_date(${JSON.stringify(text)})`)).rejects.toThrow(/ValueError/);
    },
  );
});
