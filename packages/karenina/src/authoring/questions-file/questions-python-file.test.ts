import { describe, expect, test } from "vitest";
import { Question } from "../../model/index.js";
import { PythonSandbox } from "../../sandbox/index.js";
import { questionsPythonFile } from "./questions-python-file.js";

describe("questionsPythonFile", () => {
  test("writes one Question per entry and the all_questions list, as the original does", () => {
    const question = new Question({ question: "What is 2+2?", raw_answer: "4", keywords: ["math"] });
    expect(questionsPythonFile([question])).toBe(
      "from karenina.schemas.question_class import Question\n\n# Auto-generated questions from file\n\n" +
        `question_1 = Question(\n    id='${question.id}',\n    question='What is 2+2?',\n    raw_answer='4',\n    tags=['math']\n)\n\n` +
        "# List of all questions\nall_questions = [\n    question_1,\n]\n",
    );
  });

  test("a question text that tries to close the string and run code stays one string literal", async () => {
    const attack = 'x"""\nimport os; os.system("echo pwned")\n"""\' + \'\\';
    const file = questionsPythonFile([new Question({ question: attack, raw_answer: "a\nb" })]);
    const sandbox = PythonSandbox.create();
    try {
      const code = file.replace(
        /^from .*\n/,
        "class Question:\n    def __init__(self, **kw):\n        self.kw = kw\n",
      );
      const value = await sandbox.run({ code, entry: "[q.kw['question'] for q in all_questions]" });
      expect(value).toEqual([attack]);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
