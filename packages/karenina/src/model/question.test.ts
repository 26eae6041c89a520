import { describe, expect, test } from "vitest";
import { defaultTemplate, isRealTemplate } from "./default-template.js";
import { ModelValidationError } from "./errors.js";
import { Question } from "./question.js";

describe("Question", () => {
  test("the id is the MD5 of the text, whatever the metadata", () => {
    const a = new Question({ question: "What is the capital of France?", raw_answer: "Paris" });
    const b = new Question({
      question: "What is the capital of France?",
      raw_answer: "Paris, France",
      keywords: ["x"],
    });
    expect(a.id).toBe("cb0b4aaf80c43c9973aefeda1bd72890");
    expect(b.id).toBe(a.id);
  });

  test("defaults follow the field table of seed 000", () => {
    const q = new Question({ question: "Q?", raw_answer: "A" });
    expect(q.keywords).toEqual([]);
    expect(q.answer_template).toBeNull();
    expect(q.workspace_path).toBeNull();
    expect(q.date_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  });

  test("an unknown key is refused with a message naming it", () => {
    expect(() => new Question({ question: "Q?", raw_answer: "A", keywordz: ["x"] } as never)).toThrow(
      /unknown field "keywordz"/,
    );
    expect(() => new Question({ question: "Q?", raw_answer: "A", keywordz: [] } as never)).toThrow(
      ModelValidationError,
    );
  });

  test("an empty question or answer is refused, naming the field", () => {
    expect(() => new Question({ question: "", raw_answer: "A" })).toThrow(
      /question: must be a non-empty string/,
    );
    expect(() => new Question({ question: "Q", raw_answer: 3 } as never)).toThrow(
      /raw_answer: expected string/,
    );
  });

  test("legacy tags become keywords, and keywords win when both are given", () => {
    expect(new Question({ question: "Q?", raw_answer: "A", tags: ["a", null, "b"] }).keywords).toEqual([
      "a",
      "b",
    ]);
    expect(new Question({ question: "Q?", raw_answer: "A", tags: ["a"], keywords: ["k"] }).keywords).toEqual([
      "k",
    ]);
    expect(new Question({ question: "Q?", raw_answer: "A", tags: null }).keywords).toEqual([]);
  });

  test("a dumped question loads back (its id is ignored on input)", () => {
    const q = new Question({ question: "Q?", raw_answer: "A", author: { name: "Dr. Smith" } });
    const dump = q.toJSON();
    expect(Object.keys(dump).at(-1)).toBe("id");
    const again = new Question(dump);
    expect(again.toJSON()).toEqual(dump);
  });
});

describe("default template", () => {
  test("has the exact placeholder text of spec 01 §5.1", () => {
    expect(defaultTemplate("What is 2+2?")).toBe(
      'class Answer(BaseAnswer):\n    """Answer template for: What is 2+2?..."""\n\n    response: str = Field(description="The answer response")\n\n    def verify(self) -> bool:\n        # Default template: returns False to indicate custom verification needed\n        return False\n',
    );
  });

  test("the placeholder built from the current text is not a real template; anything else is", () => {
    expect(isRealTemplate(defaultTemplate("Q?"), "Q?")).toBe(false);
    expect(isRealTemplate(`  ${defaultTemplate("Q?")}  `, "Q?")).toBe(false);
    expect(isRealTemplate(defaultTemplate("Q?"), "Q changed?")).toBe(true);
    expect(isRealTemplate("not even python(", "Q?")).toBe(true);
    expect(isRealTemplate("", "Q?")).toBe(false);
  });
});
