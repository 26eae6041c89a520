import { describe, expect, test } from "vitest";
import type { CuratorQuestion, ExtractedQuestion } from "../library-types/index.js";
import { curationUpserts, generatedQuestions, overwrittenIds } from "./curation-merge.js";

const extracted = (id: string): ExtractedQuestion => ({
  id,
  question: `Question ${id}?`,
  raw_answer: `answer ${id}`,
  keywords: ["k"],
  few_shot_examples: null,
  date_created: "2026-01-01T00:00:00",
  date_modified: "2026-01-01T00:00:00",
  answer_template: null,
  answer_notes: "note",
  author: { name: "Ann" },
  sources: null,
  custom_metadata: { url: "https://example.org" },
  question_rubric: null,
  question_dynamic_rubric: null,
  workspace_path: null,
});

const stored = (id: string, hasTemplate: boolean): CuratorQuestion => ({
  id,
  question: `Question ${id}?`,
  raw_answer: "old",
  answer_template: "old code",
  template_language: "Python",
  has_template: hasTemplate,
  finished: true,
  date_created: "2025-01-01",
  date_modified: "2025-01-02",
  author: null,
  sources: null,
  keywords: ["kept"],
  custom_metadata: null,
  few_shot_examples: null,
  answer_notes: null,
  question_rubric: { llm_traits: [] } as unknown as CuratorQuestion["question_rubric"],
});

describe("merging generated templates into the working benchmark", () => {
  const questions = [extracted("a"), extracted("b"), extracted("c")];
  const batch = generatedQuestions(questions, {
    a: { success: true, template_code: "code a" },
    b: { success: true, template_code: "code b" },
    c: { success: false, error: "boom" },
  });

  test("only successful templates are in the batch", () => {
    expect(batch.map((item) => item.question.id)).toEqual(["a", "b"]);
  });

  test("a new question is added from its extraction, not finished, nulls elsewhere", () => {
    expect(curationUpserts(batch, [], false)[0]).toEqual({
      id: "a",
      question: "Question a?",
      raw_answer: "answer a",
      answer_template: "code a",
      template_language: "Python",
      finished: false,
      date_created: "2026-01-01T00:00:00",
      author: { name: "Ann" },
      sources: null,
      keywords: ["k"],
      custom_metadata: { url: "https://example.org" },
      few_shot_examples: null,
      answer_notes: "note",
      question_rubric: null,
    });
  });

  test("a stored question with a real template is asked about: kept unless overwrite", () => {
    const existing = [stored("a", true), stored("b", false)];
    expect(overwrittenIds(batch, existing)).toEqual(["a"]);
    expect(curationUpserts(batch, existing, false).map((q) => q.id)).toEqual(["b"]);
    const overwritten = curationUpserts(batch, existing, true);
    expect(overwritten.map((q) => [q.id, q.answer_template, q.finished])).toEqual([
      ["a", "code a", false],
      ["b", "code b", false],
    ]);
    // Merged, not replaced: the stored question keeps its own metadata and rubric.
    expect(overwritten[0]?.keywords).toEqual(["kept"]);
    expect(overwritten[0]?.question_rubric).toEqual({ llm_traits: [] });
  });
});
