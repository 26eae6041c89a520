import type { TemplateCode } from "../../templates/index.js";

/**
 * The template of questions evaluated by rubric only (spec 05 §9): one string field, `verify()` always true.
 * It only gives those questions a `template_id`: `rubric_only` runs never load or verify it.
 */
export const TASKEVAL_PASS_THROUGH_TEMPLATE: TemplateCode = {
  code: [
    "class Answer(BaseAnswer):",
    '    """Pass-through template of a TaskEval rubric-only evaluation."""',
    "",
    '    response: str = Field(description="The logged output")',
    "",
    "    def verify(self) -> bool:",
    "        return True",
    "",
  ].join("\n"),
  language: "Python",
};
