import { describe, expect, test } from "vitest";
import { guessColumns } from "./auto-mapping.js";

describe("guessColumns", () => {
  test("prefers whole-word question/answer headers over headers merely containing q or a", () => {
    expect(guessColumns(["Category", "Quality", "Question", "Answer"])).toEqual({
      question: "Question",
      answer: "Answer",
    });
  });

  test("takes a header holding the word before a header holding the letter", () => {
    expect(guessColumns(["Category", "Expected answer text", "Question text"])).toEqual({
      question: "Question text",
      answer: "Expected answer text",
    });
  });

  test("an exact header wins over a longer one naming the word", () => {
    expect(guessColumns(["Question ID", "Question", "Answer"]).question).toBe("Question");
  });

  test("falls back to single-letter headers, then to the original letter rule", () => {
    expect(guessColumns(["id", "Q", "A"])).toEqual({ question: "Q", answer: "A" });
    expect(guessColumns(["qtext", "category"])).toEqual({ question: "qtext", answer: "category" });
  });

  test("never maps one column to both, and leaves a column unmapped when nothing fits", () => {
    expect(guessColumns(["question_and_answer"])).toEqual({ question: "question_and_answer", answer: null });
    expect(guessColumns(["id", "text"])).toEqual({ question: null, answer: null });
  });
});
