/**
 * generateAnswerTemplate over real HTTP against the scripted OpenAI-compatible server. Every model reply is
 * hand-written test data (see __fixtures__/generation-replies.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PythonSandbox } from "../../sandbox/index.js";
import { loadDeclarativeTemplate, loadPythonTemplate } from "../../templates/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import {
  allText,
  CLL_CORRECT,
  CLL_DESCRIPTIONS,
  CLL_PLAN,
  CLL_QUESTION,
  CLL_SPEC,
  generationRules,
  lastUserText,
  writerModel,
} from "./__fixtures__/generation-replies.js";
import { TemplateGenerationError } from "./errors.js";
import { generateAnswerTemplate } from "./generate-answer-template.js";

const server = serverPerTest(startOpenAiServer);

const cllRules = (plan: string | null = CLL_PLAN) =>
  generationRules(CLL_QUESTION.question, { plan, spec: CLL_SPEC, descriptions: CLL_DESCRIPTIONS });

describe("the three phases", () => {
  test("the plan sees the question, reference answer and notes; phase 1 gets the plan; phase 2 gets the spec JSON", async () => {
    server.script(...cllRules());
    await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });

    expect(server.requests).toHaveLength(3);
    const [plan, spec, descriptions] = server.requests.map(lastUserText);
    expect(plan).toContain(CLL_QUESTION.question);
    expect(plan).toContain(CLL_QUESTION.raw_answer);
    expect(plan).toContain("Accept ABT-199 as a synonym of venetoclax.");
    expect(spec).toContain(CLL_QUESTION.raw_answer);
    expect(spec).toContain(`<plan>\n${CLL_PLAN}\n</plan>`);
    expect(descriptions).toContain(CLL_QUESTION.question);
    expect(descriptions).toContain('"name": "trial_phase"');
    expect(descriptions).toContain("\"type\": \"Literal['I', 'II', 'III']\"");
    expect(descriptions).toContain('"ground_truth": 400');
    expect(descriptions).not.toContain(CLL_PLAN);
  });

  test("the structured phases ask for their JSON Schema; the plan is free text", async () => {
    server.script(...cllRules());
    await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    const formats = server.requests.map((request) => JSON.stringify(request.body.response_format ?? null));
    expect(formats[0]).toBe("null");
    expect(formats[1]).toContain("attributes");
    expect(formats[2]).toContain("field_descriptions");
  });

  test("with plan: false there is no planning call and phase 1 carries no plan", async () => {
    server.script(...cllRules(null));
    const generated = await generateAnswerTemplate(CLL_QUESTION, {
      model: writerModel(server.baseURL),
      plan: false,
    });
    expect(server.requests).toHaveLength(2);
    expect(lastUserText(server.requests[0])).not.toContain("<plan>");
    expect(generated.plan).toBeNull();
  });
});

describe("the generated template", () => {
  test("each type gets the primitive of spec 02 §9.6, and the ground truth comes from phase 1", async () => {
    server.script(...cllRules());
    const { spec, plan } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(plan).toBe(CLL_PLAN);
    expect(spec.class_name).toBe("Answer");
    expect(spec.fields.map((f) => [f.name, f.type, f.verify_with])).toEqual([
      ["drug", "str", { type: "ExactMatch", normalize: ["lowercase", "strip"] }],
      ["oral", "bool", { type: "BooleanMatch" }],
      ["daily_dose_mg", "int", { type: "NumericExact" }],
      ["ramp_up_weeks", "float", { type: "NumericTolerance", tolerance: 0.001, mode: "relative" }],
      ["trial_phase", "literal", { type: "LiteralMatch" }],
      ["targets", "list_str", { type: "SetContainment", mode: "exact" }],
    ]);
    expect(spec.fields[4]?.literal_values).toEqual(["I", "II", "III"]);
    expect(spec.fields[0]?.description).toBe(CLL_DESCRIPTIONS.field_descriptions[0]?.description);
  });

  test("the code is the original's VerifiedField Python and loads as a declarative template that verifies", async () => {
    server.script(...cllRules());
    const { code } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(code).toContain("from typing import Literal");
    expect(code).toContain(
      "from karenina.schemas.entities import BaseAnswer, VerifiedField, BooleanMatch, ExactMatch, LiteralMatch, NumericExact, NumericTolerance, SetContainment",
    );
    expect(code).toContain("    trial_phase: Literal['I', 'II', 'III'] = VerifiedField(");
    expect(code).toContain("        ground_truth=5.0,");

    const template = loadDeclarativeTemplate(code);
    expect((await template.evaluate(CLL_CORRECT)).verify).toBe(true);
    expect((await template.evaluate({ ...CLL_CORRECT, drug: "navitoclax" })).verify).toBe(false);
    expect((await template.evaluate({ ...CLL_CORRECT, ramp_up_weeks: 5.1 })).verify).toBe(false);
  });

  test("the judge's schema carries the instructions but none of the ground truths", async () => {
    server.script(...cllRules());
    const { code } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    const schema = JSON.stringify(loadDeclarativeTemplate(code).judgeSchema);
    expect(schema).toContain("The maintenance daily dose in milligrams");
    expect(schema).not.toContain("venetoclax");
    expect(schema).not.toContain("400");
    expect(schema).not.toContain("BCL2");
  });

  test("a free-text str field is flagged for review; the other types are not", async () => {
    server.script(...cllRules());
    const { warnings } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/"drug" is a free-text str field/);
  });

  test("an instruction that names the expected value is flagged: the judge would see it", async () => {
    const descriptions = {
      field_descriptions: CLL_DESCRIPTIONS.field_descriptions.map((entry) =>
        entry.name === "targets"
          ? { ...entry, description: "Gene symbols of the targets, e.g. BCL2." }
          : entry,
      ),
    };
    server.script(
      ...generationRules(CLL_QUESTION.question, { plan: CLL_PLAN, spec: CLL_SPEC, descriptions }),
    );
    const { warnings } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(
      warnings.some((w) => /judge instruction of "targets" names its expected value "BCL2"/.test(w)),
    ).toBe(true);
  });
});

describe("the generated Python in the original's runtime (Pyodide)", () => {
  let sandbox: PythonSandbox;
  beforeAll(async () => {
    sandbox = PythonSandbox.create();
    await sandbox.start();
  }, 120_000);
  afterAll(async () => {
    await sandbox.close();
  });

  test("loads with the Python template loader and verifies true with the ground truth, false with a wrong value", async () => {
    server.script(...cllRules());
    const { code } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    const template = await loadPythonTemplate(code, { sandbox });
    expect(template.className).toBe("Answer");
    expect(template.mode).toBe("verified");
    expect((await template.evaluate(CLL_CORRECT)).verify).toBe(true);
    expect((await template.evaluate({ ...CLL_CORRECT, oral: false })).verify).toBe(false);
    expect((await template.evaluate({ ...CLL_CORRECT, targets: ["BCL2", "MCL1"] })).verify).toBe(false);
  });
});

describe("replies that cannot be used", () => {
  const dictSpec = { attributes: [{ name: "doses", type: "Dict[str, str]", ground_truth: "400" }] };

  test("a Dict type is refused and the model is asked again with the problem", async () => {
    server.script(
      { match: { lastUserIncludes: CLL_QUESTION.question }, reply: { text: CLL_PLAN } },
      { match: { lastUserIncludes: CLL_PLAN }, reply: { json: dictSpec } },
      { match: { lastUserIncludes: "Dict types are not allowed" }, reply: { json: CLL_SPEC } },
      { match: { lastUserIncludes: CLL_QUESTION.question }, reply: { json: CLL_DESCRIPTIONS } },
    );
    const { spec } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(server.requests).toHaveLength(4);
    expect(lastUserText(server.requests[2])).toMatch(/attributes\[0\]\.type: Dict types are not allowed/);
    expect(spec.fields.map((f) => f.name)).not.toContain("doses");
  });

  test("a model that keeps writing a Dict type fails the generation after max_retries retries", async () => {
    server.script(
      { match: { lastUserIncludes: CLL_QUESTION.question }, reply: { text: CLL_PLAN } },
      { reply: { json: dictSpec }, repeat: true },
    );
    const generation = generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL, 1) });
    await expect(generation).rejects.toThrow(TemplateGenerationError);
    await expect(generation).rejects.toThrow(
      /ground-truth spec: no usable reply after 2 attempts: .*Dict types/,
    );
    // The plan, then per attempt the parser's call and its one feedback retry.
    expect(server.requests).toHaveLength(1 + 2 * 2);
    expect(allText(server.requests[3])).toContain("Your reply could not be used");
  });

  test("a ground truth of the wrong type is sent back with what the type needs", async () => {
    const wrong = { attributes: [{ name: "oral", type: "bool", ground_truth: "yes" }] };
    server.script(
      { match: { lastUserIncludes: "Reply with the plan" }, reply: { text: CLL_PLAN } },
      { match: { lastUserIncludes: CLL_PLAN }, reply: { json: wrong } },
      { match: { lastUserIncludes: "needs true or false" }, reply: { json: CLL_SPEC } },
      { match: { lastUserIncludes: CLL_QUESTION.question }, reply: { json: CLL_DESCRIPTIONS } },
    );
    const { spec } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(spec.fields).toHaveLength(6);
  });

  test("descriptions that miss an attribute are sent back naming it", async () => {
    const partial = { field_descriptions: CLL_DESCRIPTIONS.field_descriptions.slice(1) };
    server.script(
      { match: { lastUserIncludes: "Reply with the plan" }, reply: { text: CLL_PLAN } },
      { match: { lastUserIncludes: CLL_PLAN }, reply: { json: CLL_SPEC } },
      { match: { lastUserIncludes: "judge's instruction" }, reply: { json: partial } },
      { match: { lastUserIncludes: 'no description for "drug"' }, reply: { json: CLL_DESCRIPTIONS } },
    );
    const { spec } = await generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL) });
    expect(spec.fields[0]?.description).toBe(CLL_DESCRIPTIONS.field_descriptions[0]?.description);
  });

  test("an HTTP failure names the question and the phase", async () => {
    server.script({ reply: { status: 404, message: "model not found" }, repeat: true });
    await expect(
      generateAnswerTemplate(CLL_QUESTION, { model: writerModel(server.baseURL), plan: false }),
    ).rejects.toThrow(
      /template generation for "Which BCL-2 inhibitor.*": ground-truth spec: .*model not found/,
    );
  });
});
