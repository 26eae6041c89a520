/**
 * A classic Python template (hand-written test data) and its one question: `ground_truth` and `verify` are
 * Python code, not a declarative template, so only Pyodide can run it. Shared by the tests and bench/.
 */
import type { Benchmark } from "../benchmark/index.js";

/** The classic template: the judge fills `target`; `verify` checks it is BCL2. */
export const CLASSIC_TEMPLATE = `from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    target: str = Field(description="The protein target")

    def ground_truth(self):
        self.correct = {"target": "BCL2"}

    def verify(self) -> bool:
        return self.target.strip().upper() == self.correct["target"]
`;

/**
 * Adds the question `q-bcl2` "Which protein does venetoclax inhibit?" (answer BCL2) with
 * {@link CLASSIC_TEMPLATE} to `bench`, and returns its id. Takes the benchmark rather than making one, so
 * that bench/ can pass one of the built library.
 */
export function addClassicQuestion(bench: Pick<Benchmark, "addQuestion">): string {
  return bench.addQuestion("Which protein does venetoclax inhibit?", "BCL2", {
    questionId: "q-bcl2",
    answerTemplate: CLASSIC_TEMPLATE,
  });
}
