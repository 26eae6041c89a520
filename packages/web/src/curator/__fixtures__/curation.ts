import type { Curation, CuratorQuestion, CuratorQuestionInput } from "../../library-types/index.js";
import { integerQuestions, NO_EXTRAS } from "./stored-questions.js";

/** A question as the server answers it. */
export function question(n: number, overrides: Partial<CuratorQuestion> = {}): CuratorQuestion {
  return {
    id: `urn:uuid:question-${n}`,
    question: `What is question ${n}?`,
    raw_answer: `answer ${n}`,
    answer_template: `class Answer(BaseAnswer):\n    value: int = ${n}\n`,
    template_language: "Python",
    has_template: true,
    finished: false,
    date_created: "2026-01-01T00:00:00Z",
    date_modified: "2026-01-01T00:00:00Z",
    ...NO_EXTRAS,
    ...overrides,
  };
}

/** A curation of `count` questions. */
export function curation(count: number): Curation {
  return {
    name: "bench",
    metadata: {
      name: "bench",
      description: "",
      version: "1.0.0",
      creator: null,
      license: null,
      keywords: [],
      publisher: null,
      custom: {},
      date_created: "2026-01-01T00:00:00Z",
      date_modified: "2026-01-01T00:00:00Z",
    },
    global_rubric: null,
    questions: Array.from({ length: count }, (_, i) => question(i + 1)),
  };
}


/** {@link integerQuestions} typed as the curation PATCH's questions (the shapes must stay in step). */
export const typedIntegerQuestions: (...args: Parameters<typeof integerQuestions>) => CuratorQuestionInput[] =
  integerQuestions;
