import type { Question } from "../../model/index.js";
import { pyRepr, stringRepr } from "../../python-repr/index.js";

/**
 * The original's `questions.py` (its `generate_questions_file`): one `question_<n> = Question(...)` per question
 * and an `all_questions` list, for `read_questions_from_file`. Every value is written as a Python literal
 * (`repr`), so no question text can end a string early and inject code (the original wraps the text in
 * `"""…"""`, which a question containing `"""` breaks out of).
 * @example
 * const file = questionsPythonFile([new Question({ question: "2+2?", raw_answer: "4" })]);
 * file.split("\n")[0]; // "from karenina.schemas.question_class import Question"
 * file.includes("    question='2+2?',\n"); // true
 */
export function questionsPythonFile(questions: readonly Question[]): string {
  const blocks = questions.map(
    (question, index) =>
      `question_${index + 1} = Question(\n` +
      `    id=${stringRepr(question.id)},\n` +
      `    question=${stringRepr(question.question)},\n` +
      `    raw_answer=${stringRepr(question.raw_answer)},\n` +
      `    tags=${pyRepr(question.keywords)}\n` +
      ")\n\n",
  );
  const names = questions.map((_, index) => `    question_${index + 1},\n`).join("");
  return (
    "from karenina.schemas.question_class import Question\n\n# Auto-generated questions from file\n\n" +
    blocks.join("") +
    `# List of all questions\nall_questions = [\n${names}]\n`
  );
}
