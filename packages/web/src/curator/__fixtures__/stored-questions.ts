// Shared by the unit tests (through curation.ts), e2e/curator.test.ts and bench/web-curator.ts. It imports
// nothing, not even types, so Node-side code type-checked without the web's `karenina` path can import it.

/** The optional fields of a question with none of them set. */
export const NO_EXTRAS = {
  author: null,
  sources: null,
  keywords: null,
  custom_metadata: null,
  few_shot_examples: null,
  answer_notes: null,
  question_rubric: null,
} as const;

/** What {@link integerQuestions} varies: the ids' prefix, each question's text and its integer answer. */
export interface IntegerQuestionsShape {
  readonly idPrefix: string;
  readonly text: (n: number) => string;
  readonly answer: (n: number) => number;
}

/**
 * `count` questions as the curation PATCH takes them (`upsert`): each with a Python template checking its integer
 * answer; the odd-numbered ones finished.
 */
export function integerQuestions(count: number, shape: IntegerQuestionsShape) {
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const answer = shape.answer(n);
    return {
      id: `${shape.idPrefix}${n}`,
      question: shape.text(n),
      raw_answer: String(answer),
      answer_template: `class Answer(BaseAnswer):\n    value: int = Field(description="the integer answer")\n\n    def model_post_init(self, __context):\n        self.correct = {"value": ${answer}}\n\n    def verify(self) -> bool:\n        return self.value == self.correct["value"]\n`,
      template_language: "Python" as const,
      finished: i % 2 === 0,
      ...NO_EXTRAS,
    };
  });
}
