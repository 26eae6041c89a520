/**
 * The original's public module tree in the Pyodide layer (issue 13, point 1): every path resolves, to the same
 * objects as the flat import, and a template written from the original's docs loads from each path with the
 * verdicts read off it. Templates are written for these tests (spec 02, spec 08); every parsed answer and raw
 * response is hand-written, none is real model output.
 */
import { describe, expect, test } from "vitest";
import type { JsonValue } from "../../sandbox/index.js";
import { sandboxForTheseTests } from "../../test-support/python-sandbox-for-tests.js";
import type { AnswerTemplate } from "../answer-template.js";
import { isDeclarativePython, KARENINA_MODULES, loadDeclarativeTemplate } from "../declarative/index.js";
import { pythonCompatSetup } from "./compat/compat-setup.js";
import { loadPythonTemplate } from "./index.js";

const sandbox = sandboxForTheseTests();

const load = (code: string) => loadPythonTemplate(code, { sandbox: sandbox });

/** For each module: the names it lacks, and those that are not the catalogue's object. */
const IDENTITY_CHECK = `
import importlib
import _karenina_public

def check(modules):
    flat = importlib.import_module("karenina.schemas.entities")
    report = {}
    for name, names in modules.items():
        module = importlib.import_module(name)
        missing = [n for n in names if not hasattr(module, n)]
        other = [n for n in names if hasattr(module, n) and getattr(module, n) is not _karenina_public.CATALOGUE[n]]
        not_flat = [n for n in names if hasattr(flat, n) and getattr(module, n, None) is not getattr(flat, n)]
        star = {}
        exec(f"from {name} import *", star)
        extra = sorted(set(star) - set(names) - {"__builtins__"})
        if missing or other or not_flat or extra:
            report[name] = {"missing": missing, "other": other, "not_flat": not_flat, "star_extra": extra}
    return report
`;

describe("every public module path", () => {
  test("resolves every name to one object: the catalogue's, and the flat import's where it has the name", async () => {
    const modules = Object.fromEntries(
      Object.entries(KARENINA_MODULES).map(([name, m]) => [name, [...m.names]]),
    );
    const report = await sandbox.run({
      setup: pythonCompatSetup(),
      code: IDENTITY_CHECK,
      entry: "check",
      args: [modules as JsonValue],
    });
    expect(report).toEqual({});
  });

  test("submodules hang on their packages and `import a.b.c` binds the package", async () => {
    const code = [
      "import karenina.schemas.primitives.comparisons",
      "from karenina.schemas import entities, primitives",
      "from karenina.schemas.primitives import scope, registry",
      "ok = (karenina.schemas.primitives.comparisons.ExactMatch is entities.ExactMatch",
      "      and primitives.trace.TraceRegex is entities.TraceRegex",
      "      and scope.TurnAt(index=-1).index == -1",
      "      and registry._reconstruct_primitive({'type': 'BooleanMatch'}).check(1, True))",
    ].join("\n");
    expect(await sandbox.run({ setup: pythonCompatSetup(), code, entry: "ok" })).toBe(true);
  });
});

/** Hand-written cases: [label, parsed answer, raw response, expected verify]. */
type Case = readonly [string, Record<string, unknown>, string, boolean];

async function verdicts(template: AnswerTemplate, cases: readonly Case[]) {
  const out: { label: string; verify: boolean }[] = [];
  for (const [label, parsed, rawResponse] of cases) {
    out.push({ label, verify: (await template.evaluate(parsed, { rawResponse })).verify });
  }
  return out;
}

const expected = (cases: readonly Case[]) => cases.map(([label, , , verify]) => ({ label, verify }));

/** One template per module path, each importing what it uses from that path. */
const PATH_TEMPLATES: { path: string; code: string; cases: Case[] }[] = [
  {
    path: "karenina.schemas.primitives (the canonical import of spec 08)",
    code: `from karenina.schemas.entities import BaseAnswer, VerifiedField
from karenina.schemas.primitives import ExactMatch


class Answer(BaseAnswer):
    city: str = VerifiedField(description="City named as the capital", ground_truth="Canberra", verify_with=ExactMatch())
`,
    cases: [
      ["right, other case and spaces", { city: " canberra " }, "", true],
      ["wrong", { city: "Sydney" }, "", false],
      ["null from the judge", { city: null }, "", false],
      ["empty text", { city: "" }, "", false],
    ],
  },
  {
    path: "karenina.schemas.entities.answer, .verified_field, karenina.schemas.primitives.comparisons",
    code: `from karenina.schemas.entities.answer import BaseAnswer
from karenina.schemas.entities.verified_field import VerifiedField
from karenina.schemas.primitives.comparisons import NumericTolerance


class Answer(BaseAnswer):
    dose_mg: float = VerifiedField(description="Daily dose in mg", ground_truth=400, verify_with=NumericTolerance(tolerance=0.05))
`,
    cases: [
      ["right", { dose_mg: 400 }, "", true],
      ["within 5 %", { dose_mg: "419.9" }, "", true],
      ["edge: exactly 5 %", { dose_mg: 420 }, "", true],
      ["wrong", { dose_mg: 421 }, "", false],
      ["null", { dose_mg: null }, "", false],
    ],
  },
  {
    path: "karenina.schemas.entities.composition",
    code: `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch
from karenina.schemas.entities.composition import AnyOf, FieldCheck


class Answer(BaseAnswer):
    gene: str = VerifiedField(description="Gene", ground_truth="BCL2", verify_with=ExactMatch())
    protein: str = VerifiedField(description="Protein", ground_truth="Bcl-2", verify_with=ExactMatch())

    class VerificationStrategy:
        verify_strategy = AnyOf(conditions=[FieldCheck(field="gene"), FieldCheck(field="protein")])
`,
    cases: [
      ["both right", { gene: "bcl2", protein: "bcl-2" }, "", true],
      ["one right", { gene: "MCL1", protein: "Bcl-2" }, "", true],
      ["none right", { gene: "MCL1", protein: "Mcl-1" }, "", false],
      ["one null, the other right", { gene: null, protein: "bcl-2" }, "", true],
    ],
  },
  {
    path: "karenina.schemas.entities.conditional (spec 08's scenario template)",
    code: `from karenina.schemas.entities import BaseAnswer, VerifiedField
from karenina.schemas.entities.conditional import ConditionalGroundTruth, GroundTruthCase
from karenina.schemas.primitives import BooleanMatch


class Answer(BaseAnswer):
    consistent: bool = VerifiedField(
        description="Whether the assistant kept the same capital throughout",
        ground_truth=ConditionalGroundTruth(
            source="node_results.push.parsed.city",
            cases={"Canberra": GroundTruthCase(value=True)},
            default=GroundTruthCase(value=False),
        ),
        verify_with=BooleanMatch(),
    )
`,
    cases: [
      ["outside a scenario the default (False) applies: false is right", { consistent: false }, "", true],
      ["outside a scenario: true is wrong", { consistent: "yes" }, "", false],
      ["null", { consistent: null }, "", false],
    ],
  },
  {
    path: "karenina.schemas.primitives.trace and .normalizers",
    code: `from karenina.schemas.entities import BaseAnswer, VerifiedField
from karenina.schemas.primitives.trace import TraceRegex
from karenina.schemas.primitives.normalizers import SynonymMap
from karenina.schemas.primitives import ExactMatch


class Answer(BaseAnswer):
    target: str = VerifiedField(
        description="Target protein",
        ground_truth="bcl2",
        verify_with=ExactMatch(normalize=["lowercase", SynonymMap(mapping={"b-cell lymphoma 2": "bcl2"})]),
    )
    cites: bool = VerifiedField(description="Cites a reference", ground_truth=True, verify_with=TraceRegex(pattern=r"\\[\\d+\\]"))
`,
    cases: [
      ["synonym, with a citation", { target: "B-cell lymphoma 2" }, "It is BCL2 [1].", true],
      ["right, no citation", { target: "BCL2" }, "It is BCL2.", false],
      ["wrong, with a citation", { target: "MCL1" }, "MCL1 [2]", false],
    ],
  },
  {
    path: "karenina.schemas.domain (the original's deprecated path), a classic template",
    code: `from pydantic import Field
from karenina.schemas.domain import BaseAnswer


class Answer(BaseAnswer):
    value: str = Field(description="The extracted answer value")

    def ground_truth(self):
        self.correct = {"value": "42"}

    def verify(self) -> bool:
        return self.value.strip() == self.correct["value"]
`,
    cases: [
      ["right", { value: " 42 " }, "", true],
      ["wrong", { value: "43" }, "", false],
    ],
  },
];

describe("a template importing from each path loads and gives the verdicts read off it", () => {
  for (const { path, code, cases } of PATH_TEMPLATES) {
    test(path, async () => {
      const python = await load(code);
      expect(await verdicts(python, cases)).toEqual(expected(cases));
      if (isDeclarativePython(code)) {
        // Both runtimes accept it: they agree.
        expect(await verdicts(loadDeclarativeTemplate(code), cases)).toEqual(expected(cases));
      }
    });
  }

  test("the declarative reader takes every VerifiedField template above, whatever the path", () => {
    const declarative = PATH_TEMPLATES.filter(({ code }) => isDeclarativePython(code)).length;
    expect(declarative).toBe(PATH_TEMPLATES.length - 1);
  });
});

describe("imports that fail make the template invalid, in the interpreter as in the original", () => {
  test.each([
    [
      "from karenina.schemas.primitives import Nonexistent",
      "Error executing template code: cannot import name 'Nonexistent' from 'karenina.schemas.primitives' (unknown location)",
    ],
    [
      "from karenina.schemas.question import Question",
      "Error executing template code: No module named 'karenina.schemas.question'",
    ],
  ])("%s", async (line, message) => {
    const code = `${line}\nfrom karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch\n\nclass Answer(BaseAnswer):\n    city: str = VerifiedField(description="City", ground_truth="Canberra", verify_with=ExactMatch())\n`;
    expect(isDeclarativePython(code)).toBe(false);
    await expect(load(code)).rejects.toThrow(message);
  });
});
