/**
 * VerifiedField templates in every form the original accepts (issue 13, point 2; spec 02 §1, §2.2–2.6): methods
 * beside VerifiedFields, plain `Field`s mixed in, regex checks set in `model_post_init`, imports used in methods,
 * models that refer to themselves. Such templates take the interpreter; where a form's verdicts are those of its
 * VerifiedFields alone, the declarative runtime gives the same verdicts for them. Templates are written for these
 * tests from the original's docs; every parsed answer and raw response is hand-written, none is model output.
 */
import { describe, expect, test } from "vitest";
import { sandboxForTheseTests } from "../../test-support/python-sandbox-for-tests.js";
import type { AnswerTemplate, TemplateEvaluation } from "../answer-template.js";
import { isDeclarativePython, loadDeclarativeTemplate } from "../declarative/index.js";
import { loadTemplate } from "../load-template.js";
import { loadPythonTemplate } from "./index.js";

const sandbox = sandboxForTheseTests();

/** Loads as the pipeline does, and checks the template takes the interpreter. */
async function load(code: string): Promise<AnswerTemplate> {
  expect(isDeclarativePython(code)).toBe(false);
  const template = await loadTemplate(code, "Python", { pythonSandbox: sandbox });
  expect(template.runtime).toBe("python");
  return template;
}

type Outcome = Pick<TemplateEvaluation, "verify" | "verifyGranular" | "error">;
/** Hand-written cases: [label, parsed answer, raw response, expected outcome]. */
type Case = readonly [string, Record<string, unknown>, string, Outcome];

async function expectOutcomes(template: AnswerTemplate, cases: readonly Case[]) {
  const seen = [];
  for (const [label, parsed, rawResponse] of cases) {
    const { verify, verifyGranular, error } = await template.evaluate(parsed, { rawResponse });
    seen.push({ label, verify, verifyGranular, error });
  }
  expect(seen).toEqual(cases.map(([label, , , outcome]) => ({ label, ...outcome })));
}

const ok = (verify: boolean, verifyGranular: number | null): Outcome => ({
  verify,
  verifyGranular,
  error: null,
});

describe("methods beside VerifiedFields", () => {
  test("a custom verify() decides the verdict; verify_granular() stays automatic over the VerifiedFields", async () => {
    const code = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch, NumericExact


class Answer(BaseAnswer):
    target: str = VerifiedField(description="Target protein", ground_truth="BCL2", verify_with=ExactMatch())
    dose: int = VerifiedField(description="Dose in mg", ground_truth=400, verify_with=NumericExact(), weight=3)

    def verify(self):
        return self.target.strip().upper().replace("-", "") == "BCL2"
`;
    const template = await load(code);
    expect(template.mode).toBe("verified");
    await expectOutcomes(template, [
      ["hyphenated target, wrong dose: verify() accepts", { target: "Bcl-2", dose: 100 }, "", ok(true, 0)],
      ["both right", { target: "BCL2", dose: 400 }, "", ok(true, 1)],
      ["wrong target, right dose", { target: "MCL1", dose: "400" }, "", ok(false, 0.75)],
      [
        "null target: verify() raises, no granular score",
        { target: null, dose: 400 },
        "",
        {
          verify: false,
          verifyGranular: null,
          error: "Field verification failed: 'NoneType' object has no attribute 'strip'",
        },
      ],
    ]);
  });

  test("a custom verify_granular() gives the partial credit; verify() stays automatic", async () => {
    const code = `from karenina.schemas.entities import BaseAnswer, VerifiedField, SetContainment


class Answer(BaseAnswer):
    genes: list[str] = VerifiedField(
        description="BCL2-family genes named",
        ground_truth=["BCL2", "MCL1", "BCL2L1"],
        verify_with=SetContainment(mode="superset"),
    )

    def verify_granular(self):
        found = {gene.upper() for gene in self.genes}
        return len(found & {"BCL2", "MCL1", "BCL2L1"}) / 3
`;
    await expectOutcomes(await load(code), [
      ["all three, exact case", { genes: ["BCL2", "MCL1", "BCL2L1", "TP53"] }, "", ok(true, 1)],
      [
        "all three, other case: the set check is case-sensitive",
        { genes: ["bcl2", "mcl1", "bcl2l1"] },
        "",
        ok(false, 1),
      ],
      ["one of three", { genes: ["BCL2"] }, "", ok(false, 1 / 3)],
      ["none", { genes: [] }, "", ok(false, 0)],
    ]);
  });

  test("a ground_truth() method sets self.correct, but the verdict reads the VerifiedField metadata", async () => {
    const withMethod = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    city: str = VerifiedField(description="City named as the capital", ground_truth="Canberra", verify_with=ExactMatch())

    def ground_truth(self):
        self.correct = {"city": "Sydney", "country": "Australia"}
`;
    const template = await load(withMethod);
    expect(template.groundTruth).toEqual({ city: "Sydney", country: "Australia" });
    const cases: Case[] = [
      ["the metadata's answer", { city: "canberra" }, "", ok(true, 1)],
      ["self.correct's answer", { city: "Sydney" }, "", ok(false, 0)],
      ["null", { city: null }, "", ok(false, 0)],
    ];
    await expectOutcomes(template, cases);
    // Without the method the template is declarative; its verdicts are the same.
    const declarative = withMethod.slice(0, withMethod.indexOf("\n    def ground_truth"));
    await expectOutcomes(loadDeclarativeTemplate(`${declarative}\n`), cases);
  });
});

describe("VerifiedFields mixed with plain Fields (template_mode mixed)", () => {
  const MIXED = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer, VerifiedField
from karenina.schemas.primitives import ExactMatch


class Answer(BaseAnswer):
    target: str = VerifiedField(description="Target protein", ground_truth="BCL2", verify_with=ExactMatch())
    rationale: str = Field(description="Why the response names this target")
`;

  test("the judge fills both; the automatic verify() checks the VerifiedFields only", async () => {
    const template = await load(MIXED);
    expect(template.mode).toBe("mixed");
    expect(Object.keys(template.judgeSchema.properties as object)).toEqual(["id", "target", "rationale"]);
    const relaxed = template.structuredOutputSchema.properties as Record<string, unknown>;
    expect(relaxed.target).toEqual({
      anyOf: [{ type: "string" }, { type: "null" }],
      default: null,
      title: "Target",
    });
    expect(relaxed.rationale).toEqual({
      description: "Why the response names this target",
      title: "Rationale",
      type: "string",
    });
    expect(template.structuredOutputSchema.required).toEqual(["rationale"]);
    const cases: Case[] = [
      ["right target", { target: " bcl2", rationale: "it binds BH3" }, "", ok(true, 1)],
      ["wrong target", { target: "MCL1", rationale: "it binds BH3" }, "", ok(false, 0)],
      ["null target", { target: null, rationale: "unsure" }, "", ok(false, 0)],
    ];
    await expectOutcomes(template, cases);
    // The plain field does not count: the VerifiedField alone, declaratively, gives the same verdicts.
    const declarative = MIXED.replace(/\n {4}rationale: .*\n/, "\n").replace(
      "from pydantic import Field\n",
      "",
    );
    expect(isDeclarativePython(declarative)).toBe(true);
    await expectOutcomes(loadDeclarativeTemplate(declarative), cases);
  });

  test("a plain field the judge leaves out is refused, as Pydantic refuses it", async () => {
    const evaluation = await (await load(MIXED)).evaluate({ target: "BCL2" });
    expect(evaluation).toMatchObject({
      verify: false,
      error: "Parsed answer does not match the template: rationale: Field required (got {'target': 'BCL2'})",
    });
  });

  test("a custom verify() may read the plain fields, with an import inside the method", async () => {
    const code = `${MIXED.replace("rationale: str", "mechanism: str").replace("Why the response names this target", "Mechanism of action")}
    def verify(self):
        import re
        return self.target.upper() == "BCL2" and re.search(r"\\bbh3\\b", self.mechanism, re.I) is not None
`;
    await expectOutcomes(await load(code), [
      ["right target and mechanism", { target: "bcl2", mechanism: "a BH3 mimetic" }, "", ok(true, 1)],
      ["right target, other mechanism", { target: "BCL2", mechanism: "kinase inhibitor" }, "", ok(false, 1)],
      ["wrong target", { target: "MCL1", mechanism: "BH3 mimetic" }, "", ok(false, 0)],
    ]);
  });
});

describe("regex checks set in model_post_init (spec 02 §2.6)", () => {
  test("the verdict is the VerifiedFields' AND the regex checks on the raw response", async () => {
    const code = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    target: str = VerifiedField(description="Target protein", ground_truth="BCL2", verify_with=ExactMatch())

    def model_post_init(self, __context):
        self.regex = {"one_citation": {"pattern": r"\\[\\d+\\]", "expected": 1, "match_type": "count"}}
`;
    const template = await load(code);
    // model_post_init replaces the hook that would fill self.correct from the VerifiedFields.
    expect(template.groundTruth).toBeNull();
    await expectOutcomes(template, [
      ["right, one citation", { target: "BCL2" }, "Venetoclax targets BCL2 [1].", ok(true, 1)],
      ["right, no citation", { target: "BCL2" }, "Venetoclax targets BCL2.", ok(false, 1)],
      ["right, two citations", { target: "BCL2" }, "BCL2 [1] [2]", ok(false, 1)],
      ["wrong, one citation", { target: "MCL1" }, "MCL1 [1]", ok(false, 0)],
    ]);
    const details = (await template.evaluate({ target: "BCL2" }, { rawResponse: "BCL2 [1] [2]" })).regex;
    expect(details.details.one_citation).toMatchObject({ match_count: 2, matches_found: ["[1]", "[2]"] });
  });
});

describe("imports used in methods (spec 02 §1.1)", () => {
  test("re, math, datetime and typing imported inside methods work", async () => {
    const code = `from karenina.schemas.entities import BaseAnswer, VerifiedField, NumericTolerance


class Answer(BaseAnswer):
    half_life_h: float = VerifiedField(description="Half-life in hours", ground_truth=26, verify_with=NumericTolerance(tolerance=0.1))
    approval: str = Field(description="Approval date, ISO 8601")

    def verify(self):
        import datetime
        import math
        from typing import Optional
        when: Optional[datetime.date] = datetime.date.fromisoformat(self.approval)
        return math.isclose(self.half_life_h, 26, rel_tol=0.1) and when.year == 2016

    def verify_granular(self):
        import re
        return 1.0 if re.fullmatch(r"\\d{4}-\\d{2}-\\d{2}", self.approval) else 0.0
`;
    await expectOutcomes(await load(code), [
      ["right", { half_life_h: 26, approval: "2016-04-11" }, "", ok(true, 1)],
      ["edge: exactly 10 % off", { half_life_h: "28.6", approval: "2016-04-11" }, "", ok(true, 1)],
      ["half-life too far", { half_life_h: 30, approval: "2016-04-11" }, "", ok(false, 1)],
      ["another year", { half_life_h: 26, approval: "2015-12-01" }, "", ok(false, 1)],
      [
        "not ISO: verify() raises",
        { half_life_h: 26, approval: "April 2016" },
        "",
        {
          verify: false,
          verifyGranular: null,
          error: "Field verification failed: Invalid isoformat string: 'April 2016'",
        },
      ],
    ]);
  });

  test("as in the original, an import at the top is not visible in the methods: NameError, verdict false", async () => {
    const code = `import math
from karenina.schemas.entities import BaseAnswer, VerifiedField, NumericExact


class Answer(BaseAnswer):
    dose: float = VerifiedField(description="Dose in mg", ground_truth=400, verify_with=NumericExact())

    def verify(self):
        return math.isclose(self.dose, 400)
`;
    await expectOutcomes(await load(code), [
      [
        "right, yet false",
        { dose: 400 },
        "",
        {
          verify: false,
          verifyGranular: null,
          error: "Field verification failed: name 'math' is not defined",
        },
      ],
    ]);
  });
});

describe("forward references in the pydantic layer", () => {
  test("a model that refers to itself: nested values are validated and the schema refers back through $defs", async () => {
    const code = `from pydantic import BaseModel


class Step(BaseModel):
    name: str
    substeps: list["Step"] = []


class Answer(BaseAnswer):
    pathway: Step = Field(description="The pathway as nested steps")

    def verify(self):
        def count(step):
            return 1 + sum(count(sub) for sub in step.substeps)
        return count(self.pathway) == 3
`;
    const template = await load(code);
    expect(template.judgeSchema.$defs).toEqual({
      Step: {
        properties: {
          name: { title: "Name", type: "string" },
          substeps: { default: [], items: { $ref: "#/$defs/Step" }, title: "Substeps", type: "array" },
        },
        required: ["name"],
        title: "Step",
        type: "object",
      },
    });
    const chain = { name: "bind", substeps: [{ name: "release", substeps: [{ name: "apoptosis" }] }] };
    await expectOutcomes(template, [
      ["three steps", { pathway: chain }, "", ok(true, null)],
      ["two steps", { pathway: { name: "bind", substeps: [{ name: "release" }] } }, "", ok(false, null)],
      [
        "a nested value of the wrong type",
        { pathway: { name: "bind", substeps: "release" } },
        "",
        {
          verify: false,
          verifyGranular: null,
          error:
            "Parsed answer does not match the template: pathway.substeps: Input should be a valid list (got 'release')",
        },
      ],
    ]);
  });

  test("a reference to a class never defined is Pydantic's 'not fully defined' error", async () => {
    const code = `class Answer(BaseAnswer):
    dose: "Dose" = Field(description="Dose")

    def verify(self):
        return True
`;
    await expect(loadPythonTemplate(code, { sandbox: sandbox })).rejects.toThrow(
      "`Answer` is not fully defined; you should define `Dose`, then call `Answer.model_rebuild()`.",
    );
  });
});
