import { describe, expect, test } from "vitest";
import { curation, question } from "./__fixtures__/curation.js";
import { loadedState } from "./curation-store.js";
import { customDraftOf, parseCustomProperties, withJsonMode } from "./custom-properties.js";
import { importSummary, readinessOf } from "./FileManagement.js";
import { keywordsOf } from "./form-parts.js";
import { withKeyword } from "./MetadataDialog.js";
import { questionProblems } from "./QuestionDialogs.js";

describe("the curator's form rules", () => {
  test("a question needs its text and its answer", () => {
    expect(questionProblems("", " ")).toEqual({
      question: "Question is required",
      answer: "Answer is required",
    });
    expect(questionProblems("Why?", "Because")).toEqual({});
  });

  test("keywords: comma-separated or typed one by one, trimmed, once each", () => {
    expect(keywordsOf(" a, b ,, a,c ")).toEqual(["a", "b", "c"]);
    expect(withKeyword(["a"], " b, ")).toEqual(["a", "b"]);
    expect(withKeyword(["a"], "a")).toEqual(["a"]);
    expect(withKeyword(["a"], "  ")).toEqual(["a"]);
  });

  test("custom properties as text: one `key: value` per line; lines without a key are skipped", () => {
    const text = "difficulty: hard\nurl: http://x:8080/\nlevel: 3\nno colon\n: empty key";
    expect(parseCustomProperties({ text, json: false })).toEqual({
      values: { difficulty: "hard", url: "http://x:8080/", level: "3" },
    });
  });

  test("custom properties as JSON: numbers, booleans, objects and quoted text keep their types", () => {
    const text = 'level: 3\nreviewed: true\nscores: {"a": 1, "b": [2, 3]}\nnote: "hard"\nnothing: null';
    expect(parseCustomProperties({ text, json: true })).toEqual({
      values: { level: 3, reviewed: true, scores: { a: 1, b: [2, 3] }, note: "hard", nothing: null },
    });
    expect(parseCustomProperties({ text: "level: 3\ndifficulty: hard", json: true })).toEqual({
      problem:
        'Line 2 ("difficulty"): hard is not JSON. Write text in double quotes, or turn off "Values are JSON".',
    });
    expect(parseCustomProperties({ text: "level:", json: true })).toMatchObject({
      problem: expect.stringContaining("no value"),
    });
  });

  test("stored properties open in JSON mode when any is not text, so saving unchanged keeps every type", () => {
    const stored = { level: 3, tags: ["a"], note: "plain" };
    const draft = customDraftOf(stored);
    expect(draft).toEqual({ json: true, text: 'level: 3\ntags: ["a"]\nnote: "plain"' });
    expect(parseCustomProperties(draft)).toEqual({ values: stored });
    expect(customDraftOf({ note: "plain" })).toEqual({ json: false, text: "note: plain" });
    expect(customDraftOf(null)).toEqual({ json: false, text: "" });
  });

  test("switching JSON mode rewrites the text to mean the same values; unreadable text only flips", () => {
    const on = withJsonMode({ text: "note: plain\nlevel: 3", json: false }, true);
    expect(on).toEqual({ json: true, text: 'note: "plain"\nlevel: "3"' });
    expect(withJsonMode(on, false)).toEqual({ json: false, text: "note: plain\nlevel: 3" });
    expect(withJsonMode({ text: "note: plain", json: true }, false)).toEqual({
      text: "note: plain",
      json: false,
    });
  });

  test("the upload summary gives the counts", () => {
    expect(
      importSummary({
        name: "b",
        format: "jsonld",
        question_count: 3,
        finished_count: 1,
        with_template_count: 2,
        has_global_rubric: true,
      }),
    ).toBe('Loaded "b": 3 questions, 1 finished, 2 with templates, a global rubric.');
  });

  test("readiness: finished questions with real templates, else what is missing", () => {
    const data = curation(2);
    expect(readinessOf(loadedState(data))).toBe("Not ready: no question is finished.");
    data.questions[0] = question(1, { finished: true, has_template: false });
    expect(readinessOf(loadedState(data))).toContain(
      "1 finished question(s) still have the placeholder template",
    );
    data.questions[0] = question(1, { finished: true });
    expect(readinessOf(loadedState(data))).toBe("Ready: 1 of 2 questions finished, all with templates.");
    expect(readinessOf(loadedState(curation(0)))).toBe("Not ready: the benchmark has no questions.");
  });
});
