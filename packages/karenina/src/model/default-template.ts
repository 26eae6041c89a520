import { firstCodePoints } from "./ids.js";

/**
 * The placeholder template a question gets when it is added without one (spec 01 §5.1). Its `verify()`
 * always returns false, so a question still on it always fails verification.
 */
export function defaultTemplate(questionText: string): string {
  return [
    "class Answer(BaseAnswer):",
    `    """Answer template for: ${firstCodePoints(questionText, 50)}..."""`,
    "",
    '    response: str = Field(description="The answer response")',
    "",
    "    def verify(self) -> bool:",
    "        # Default template: returns False to indicate custom verification needed",
    "        return False",
    "",
  ].join("\n");
}

/**
 * Whether a question with this text holds a real template: non-empty and not the placeholder built from the
 * question's current text (spec 01 §5.2).
 */
export function isRealTemplate(code: string | null | undefined, questionText: string): boolean {
  if (code == null || code === "") return false;
  return code.trim() !== defaultTemplate(questionText).trim();
}
