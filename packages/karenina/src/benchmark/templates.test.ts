import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { defineAnswerTemplate, TemplateError } from "../templates/index.js";
import { Benchmark } from "./benchmark.js";

const SPEC = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [
    {
      name: "target",
      type: "str",
      description: "The protein target named in the response",
      extraction_hint: null,
      ground_truth: "BCL2",
      literal_values: null,
      verify_with: { normalize: ["lowercase", "strip"], type: "ExactMatch" },
      weight: 1.0,
      is_trace: false,
    },
  ],
};

async function reloaded(bench: Benchmark): Promise<Benchmark> {
  const file = join(await mkdtemp(join(tmpdir(), "karenina-")), "b.jsonld");
  await bench.save(file);
  return Benchmark.load(file);
}

// The parsed answers below are written by hand for these tests; no model produced them.
describe("addAnswerTemplate takes every kind of template", () => {
  test("a TemplateSpec is stored as the original's VerifiedField Python and runs declaratively", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Target?", "BCL2");
    await bench.addAnswerTemplate(id, SPEC);
    expect(bench.getTemplateLanguage(id)).toBe("Python");
    expect(bench.getTemplate(id)).toContain("VerifiedField(");
    const template = await (await reloaded(bench)).getAnswerTemplate(id);
    expect(template.runtime).toBe("declarative");
    expect((await template.evaluate({ target: " Bcl2 " })).verify).toBe(true);
    expect((await template.evaluate({ target: "MCL1" })).verify).toBe(false);
  });

  test("a TypeScript template is stored as JavaScript and runs in QuickJS after a reload", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Target?", "BCL2");
    const template = await defineAnswerTemplate({
      fields: z.object({ target: z.string().describe("The protein target") }),
      groundTruth: { target: "BCL2" },
      verify: (answer, correct) => answer.target.trim().toUpperCase() === correct.target,
    });
    await bench.addAnswerTemplate(id, template);
    expect(bench.getTemplateLanguage(id)).toBe("JavaScript");
    const loaded = await (await reloaded(bench)).getAnswerTemplate(id);
    expect(loaded.runtime).toBe("javascript");
    expect((await loaded.evaluate({ target: "bcl2" })).verify).toBe(true);
  });

  test("source text with its language", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Two plus two?", "4");
    await bench.addAnswerTemplate(id, {
      code: [
        "class Answer(BaseAnswer):",
        "    value: int = Field(description='The number given')",
        "    def ground_truth(self):",
        "        self.correct = {'value': 4}",
        "    def verify(self):",
        "        return self.value == self.correct['value']",
        "",
      ].join("\n"),
      language: "Python",
    });
    const template = await bench.getAnswerTemplate(id);
    expect(template.runtime).toBe("python");
    expect((await template.evaluate({ value: "4" })).verify).toBe(true);
  });

  test("an invalid template is refused with what to fix, and nothing is stored", async () => {
    const bench = Benchmark.create({ name: "b" });
    const id = bench.addQuestion("Q?", "A");
    const before = bench.getQuestion(id).answer_template;
    const error = await bench
      .addAnswerTemplate(id, "class Answer(BaseAnswer):\n    correct: int = 1\n")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as Error).message).toMatch(/^Invalid template: /);
    expect(bench.getQuestion(id).answer_template).toBe(before);
  });
});

test("readiness uses real validation: a template that parses but cannot load is not ready", async () => {
  const bench = Benchmark.create({ name: "b" });
  bench.addQuestion("Q?", "A", {
    questionId: "q",
    answerTemplate: "from pydantic import BaseModel\n\n\nclass Helper(BaseModel):\n    pass\n",
  });
  const report = await bench.checkReadiness();
  expect(report.templates_valid).toBe(false);
  expect(report.template_errors).toEqual([
    { question_id: "q", error: "No BaseAnswer subclass found in template namespace" },
  ]);
  const health = await bench.getHealthReport();
  expect(health.recommendations).toContain("Fix template syntax errors");
});

describe("an unparsed TemplateSpecInput is accepted wherever a template is", () => {
  /** The spec as a person writes it: defaults (`extraction_hint`, `weight`, `class_name`, ...) left out. */
  const written = {
    fields: [
      {
        name: "target",
        type: "str",
        description: "Target",
        ground_truth: "BCL2",
        verify_with: { type: "ExactMatch" },
      },
    ],
  };

  test("addQuestion, addAnswerTemplate, updateTemplate and applyGlobalTemplate take it", async () => {
    const bench = Benchmark.create({ name: "specs" });
    const a = bench.addQuestion("A?", "BCL2", { answerTemplate: written });
    const b = bench.addQuestion({ question: "B?", raw_answer: "BCL2", answer_template: written });
    const c = bench.addQuestion("C?", "BCL2");
    await bench.addAnswerTemplate(c, written);
    await bench.updateTemplate(c, written);
    const code = bench.getTemplate(a);
    expect(code).toContain("class Answer(BaseAnswer):");
    expect([bench.getTemplate(b), bench.getTemplate(c)]).toEqual([code, code]);
    const verdict = await (await bench.getAnswerTemplate(a)).evaluate({ target: "BCL2" });
    expect(verdict.verify).toBe(true);
    const empty = Benchmark.create({ name: "empty" });
    empty.addQuestion({ question: "D?", raw_answer: "x", answer_template: "" });
    expect(await empty.applyGlobalTemplate(written)).toHaveLength(1);
  });

  test("a spec that is not one is refused as an invalid template, naming the field", async () => {
    const bench = Benchmark.create({ name: "bad" });
    const id = bench.addQuestion("A?", "BCL2");
    const bad = { fields: [{ name: "target", type: "str", ground_truth: "x" }] };
    await expect(bench.addAnswerTemplate(id, bad as never)).rejects.toThrow(TemplateError);
    await expect(bench.addAnswerTemplate(id, bad as never)).rejects.toThrow(
      /Invalid template: not a TemplateSpec: fields\.0\.description/,
    );
  });
});
