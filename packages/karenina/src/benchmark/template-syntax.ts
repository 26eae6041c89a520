import type { TemplateLanguage } from "../checkpoint/index.js";
import { checkPythonSyntax } from "../sandbox/index.js";

/**
 * Checks that template code parses, without running it; resolves to null when it does, else to the problem
 * (`Syntax error: <msg> at line <n>` for Python, as the original's `validate_templates()` says it).
 */
export type TemplateSyntaxChecker = (code: string, language: TemplateLanguage) => Promise<string | null>;

/** The default checker: Python is compiled in the shared sandbox; JavaScript is compiled here. Neither runs. */
export const checkTemplateSyntax: TemplateSyntaxChecker = async (code, language) => {
  if (language === "JavaScript") return checkJavaScriptSyntax(code);
  const result = await checkPythonSyntax(code);
  return result.ok ? null : result.message;
};

function checkJavaScriptSyntax(code: string): string | null {
  try {
    // Building a function from the code parses it; the function is never called.
    new Function(code);
    return null;
  } catch (error) {
    return `Syntax error: ${(error as Error).message}`;
  }
}
