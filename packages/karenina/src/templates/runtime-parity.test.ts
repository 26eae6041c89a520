/**
 * The same VerifiedField template gives the same verdicts whether it runs natively (declarative) or in the
 * Pyodide compatibility layer: two implementations of the original's primitives, held to one answer.
 * The parsed answers and responses are written by hand for this test; no model produced them.
 */
import { describe, expect, test } from "vitest";
import type { AnswerTemplate } from "./answer-template.js";
import { loadDeclarativeTemplate } from "./declarative/index.js";
import { loadPythonTemplate } from "./python/index.js";

const CASES: { name: string; code: string; answers: Record<string, unknown>[]; responses?: string[] }[] = [
  {
    name: "strings, numbers and lists",
    code: `from typing import Literal
from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch, NumericTolerance, SetContainment, LiteralMatch, ContainsAny


class Answer(BaseAnswer):
    target: str = VerifiedField(
        description="Target",
        ground_truth="BCL2",
        verify_with=ExactMatch(normalize=["lowercase", "strip", {"mapping": {"bcl-2": "bcl2"}}]),
        weight=2.0,
    )
    dose: float = VerifiedField(
        description="Dose",
        ground_truth=400.0,
        verify_with=NumericTolerance(tolerance=0.05, mode="relative"),
    )
    genes: list[str] = VerifiedField(
        description="Genes",
        ground_truth=["BCL2", "MCL1"],
        verify_with=SetContainment(mode="overlap", min_overlap=0),
    )
    phase: Literal["I", "II", "III"] = VerifiedField(
        description="Trial phase",
        ground_truth="III",
        verify_with=LiteralMatch(),
    )
    mentions: str = VerifiedField(
        description="Mechanism",
        ground_truth="",
        verify_with=ContainsAny(substrings=["BH3", "apoptosis"], normalize=["lowercase"]),
    )
`,
    answers: [
      { target: " BCL-2 ", dose: "410", genes: ["MCL1", "TP53"], phase: "III", mentions: "a bh3 mimetic" },
      { target: "MCL1", dose: 500, genes: ["TP53"], phase: "II", mentions: "kinase" },
      { target: "bcl2", dose: null, genes: [], phase: "I", mentions: "Apoptosis" },
      { target: "bcl2", dose: "four hundred", genes: ["BCL2"], phase: "III", mentions: "x" },
    ],
  },
  {
    name: "graded numbers with a strategy",
    code: `from karenina.schemas.entities import BaseAnswer, VerifiedField, NumericGraded, NumericThresholdGraded, BooleanMatch, AtLeastN, FieldCheck


class Answer(BaseAnswer):
    ic50: float = VerifiedField(
        description="IC50 in nM",
        ground_truth=100,
        verify_with=NumericGraded(cutoff=0.2, full_credit=0.05, decay="quadratic"),
    )
    half_life: float = VerifiedField(
        description="Half-life in hours",
        ground_truth=26,
        verify_with=NumericThresholdGraded(direction="max", margin=0.1),
    )
    oral: bool = VerifiedField(description="Oral?", ground_truth=True, verify_with=BooleanMatch())

    class VerificationStrategy:
        verify_strategy = AtLeastN(n=2, conditions=[FieldCheck(field="ic50"), FieldCheck(field="half_life"), FieldCheck(field="oral")])
`,
    answers: [
      { ic50: 110, half_life: 27, oral: "yes" },
      { ic50: 104, half_life: 20, oral: false },
      { ic50: 300, half_life: 40, oral: 0 },
    ],
  },
  {
    name: "trace primitives and dates",
    code: `from karenina.schemas.entities import BaseAnswer, VerifiedField, TraceRegex, TraceLength, DateMatch, DateTolerance


class Answer(BaseAnswer):
    cites: bool = VerifiedField(description="Cites", ground_truth=True, verify_with=TraceRegex(pattern=r"\\[\\d+\\]"))
    short: bool = VerifiedField(description="Short", ground_truth=True, verify_with=TraceLength(max=12, unit="words"))
    approved: str = VerifiedField(description="Approval date", ground_truth="2016-04-11", verify_with=DateMatch())
    filed: str = VerifiedField(description="Filing date", ground_truth="2015-12-01", verify_with=DateTolerance(tolerance=3))
`,
    answers: [
      { cites: true, short: true, approved: "April 11, 2016", filed: "2015-12-03" },
      { cites: false, short: false, approved: "11/04/2016", filed: "2015-11-20" },
    ],
    responses: [
      "Approved on April 11, 2016 [1].",
      "It was approved in 2016 after a long review that took many months and involved several committees.",
    ],
  },
  {
    name: "imports from the original's module tree (karenina.schemas.primitives, entities submodules)",
    code: `from karenina.schemas.entities.answer import BaseAnswer
from karenina.schemas.entities.verified_field import VerifiedField
from karenina.schemas.entities.composition import AnyOf, FieldCheck
from karenina.schemas.primitives import ExactMatch, NumericRange
from karenina.schemas.primitives.trace import TraceContains


class Answer(BaseAnswer):
    city: str = VerifiedField(description="City named as the capital", ground_truth="Canberra", verify_with=ExactMatch(), weight=2)
    population_m: float = VerifiedField(description="Population in millions", ground_truth=None, verify_with=NumericRange(min=0.4, max=0.5))
    hedges: bool = VerifiedField(description="Hedges", ground_truth=False, verify_with=TraceContains(substring="I think"))

    class VerificationStrategy:
        verify_strategy = AnyOf(conditions=[FieldCheck(field="city"), FieldCheck(field="population_m")])
`,
    answers: [
      { city: "canberra", population_m: 0.46, hedges: true },
      { city: "Sydney", population_m: "0.5", hedges: false },
      { city: "Sydney", population_m: 5.3, hedges: false },
      { city: null, population_m: null, hedges: false },
    ],
    responses: ["Canberra.", "I think it is Sydney."],
  },
];

async function verdicts(
  template: AnswerTemplate,
  answers: Record<string, unknown>[],
  responses: string[] = [""],
) {
  const out = [];
  for (const answer of answers) {
    for (const rawResponse of responses) {
      const { verify, verifyGranular, fieldResults, error } = await template.evaluate(answer, {
        rawResponse,
      });
      out.push({
        verify,
        verifyGranular: verifyGranular === null ? null : Number(verifyGranular.toFixed(9)),
        fieldResults,
        failed: error !== null,
      });
    }
  }
  return out;
}

describe("declarative and Pyodide runtimes agree on VerifiedField templates", () => {
  for (const { name, code, answers, responses } of CASES) {
    test(name, async () => {
      const native = loadDeclarativeTemplate(code);
      const python = await loadPythonTemplate(code);
      expect(native.runtime).toBe("declarative");
      expect(python.judgeSchema).toEqual(native.judgeSchema);
      expect(await verdicts(python, answers, responses)).toEqual(await verdicts(native, answers, responses));
    });
  }
});
