import { describe, expect, test } from "vitest";
import { loadTemplate, type TemplateSpec } from "../../templates/index.js";
import {
  MIXED_TEMPLATE,
  MIXED_TEMPLATE_ANSWERS,
  MIXED_TEMPLATE_REMAINDER,
  MIXED_TEMPLATE_SPEC,
} from "../../test-support/mixed-template.js";
import { sandboxForTheseTests } from "../../test-support/python-sandbox-for-tests.js";
import { generateTemplateSource, parseTemplateSource } from "./builder-operations.js";

const sandbox = sandboxForTheseTests();

async function verdicts(code: string) {
  const template = await loadTemplate(code, "Python", { pythonSandbox: sandbox });
  expect(template.mode).toBe("mixed");
  return Promise.all(
    MIXED_TEMPLATE_ANSWERS.map(async (parsed) => {
      const { verify, fieldResults, error } = await template.evaluate(parsed);
      return { verify, fieldResults, error };
    }),
  );
}

function generated(spec: TemplateSpec, remainder = MIXED_TEMPLATE_REMAINDER): string {
  const { code, problems } = generateTemplateSource(spec, remainder);
  expect(problems).toEqual([]);
  return code as string;
}

describe("the builder on a mixed template (spec 07 §1.3.6)", () => {
  test("parse gives the spec of its VerifiedFields and the hand-written rest", () => {
    expect(parseTemplateSource(MIXED_TEMPLATE)).toEqual({
      mode: "mixed",
      spec: MIXED_TEMPLATE_SPEC,
      remainder: MIXED_TEMPLATE_REMAINDER,
      lossy: [],
      reason: null,
    });
  });

  test("parse → generate with the spec unchanged keeps the rest verbatim and gives the same verdicts", async () => {
    const parsed = parseTemplateSource(MIXED_TEMPLATE);
    const code = generated(parsed.spec as TemplateSpec, parsed.remainder);
    expect(code.startsWith(MIXED_TEMPLATE_REMAINDER.module_head)).toBe(true);
    expect(code.endsWith(MIXED_TEMPLATE_REMAINDER.class_body_tail)).toBe(true);
    expect(parseTemplateSource(code)).toEqual(parsed);
    const [before, after] = [await verdicts(MIXED_TEMPLATE), await verdicts(code)];
    expect(after).toEqual(before);
    expect(before.map((v) => v.verify)).toEqual([false, true, false]);
  }, 120_000);

  test("an edited ground truth changes only that field; the hand-written verify() still runs", async () => {
    const spec = structuredClone(MIXED_TEMPLATE_SPEC);
    (spec.fields[0] as TemplateSpec["fields"][number]).ground_truth = "MCL1";
    const code = generated(spec);
    const unchanged = generated(MIXED_TEMPLATE_SPEC);
    expect(code).toBe(unchanged.replace("ground_truth='BCL2'", "ground_truth='MCL1'"));
    const results = await verdicts(code);
    expect(results.map((v) => v.fieldResults)).toEqual([
      { target: true },
      { target: false },
      { target: true },
    ]);
    // The last answer names MCL1 but hedges: the hand-written verify() fails it.
    expect(results.map((v) => v.verify)).toEqual([true, false, false]);
  }, 120_000);

  test("a mixed template the builder cannot split gives no spec and the construct in the reason", () => {
    const parsed = parseTemplateSource(
      MIXED_TEMPLATE.replace('ground_truth="BCL2"', "ground_truth=lookup('BCL2')"),
    );
    expect(parsed).toMatchObject({ mode: "mixed", spec: null });
    expect(parsed.reason).toMatch(/^The form cannot edit this template \(line 8\): call to 'lookup'/);
  });

  test("a classic template is still classic, with the reader's reason", () => {
    const parsed = parseTemplateSource(
      MIXED_TEMPLATE.replace(/VerifiedField\(.*\)\n/, 'Field(description="T")\n'),
    );
    expect(parsed).toMatchObject({ mode: "classic", spec: null });
    expect(parsed.remainder).toBeUndefined();
  });

  test("a remainder that does not fit around the fields is refused with the reason", () => {
    const { code, problems } = generateTemplateSource(MIXED_TEMPLATE_SPEC, {
      ...MIXED_TEMPLATE_REMAINDER,
      class_body_tail:
        "x = 1\nclass Answer(BaseAnswer):\n    y: bool = VerifiedField(description='Y', ground_truth=True, verify_with=BooleanMatch())\n",
    });
    expect(code).toBeNull();
    expect(problems).toEqual([
      expect.stringMatching(/^the hand-written part does not fit around the fields: .*more than one class/),
    ]);
  });
});
