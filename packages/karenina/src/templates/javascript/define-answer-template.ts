import type { z } from "zod";
import {
  type JavaScriptTemplate,
  type LoadJavaScriptTemplateOptions,
  loadJavaScriptTemplate,
} from "./javascript-template.js";
import {
  type AnswerTemplateDefinition,
  type JsonObject,
  templateToJavaScriptSource,
} from "./template-source.js";

/**
 * Defines an answer template in TypeScript. The result carries its JavaScript `source` (what a checkpoint
 * stores, with `programmingLanguage: "JavaScript"`) and is that source loaded in the sandbox, so it
 * verifies exactly as the template read back from a checkpoint will. Defining runs the functions once on a
 * dummy answer: a function that uses a variable from around it (or an import, or a Node global) is
 * refused here, with the name to move into the function or into `groundTruth`.
 * @throws {TemplateError} the definition cannot be saved or loaded; the message says what to fix.
 * @example
 * const template = await defineAnswerTemplate({
 *   fields: z.object({ target: z.string().describe("The protein the drug acts on") }),
 *   groundTruth: { target: "BCL2" },
 *   verify: (answer, correct) => answer.target.trim().toUpperCase() === correct.target,
 * });
 * template.judgeSchema.properties.target.description; // "The protein the drug acts on"
 * (await template.evaluate({ target: "bcl2 " })).verify; // true
 * (await loadJavaScriptTemplate(template.source)).className; // "Answer"
 */
export function defineAnswerTemplate<Fields extends z.ZodObject, Truth extends JsonObject = JsonObject>(
  definition: AnswerTemplateDefinition<Fields, Truth>,
  options: LoadJavaScriptTemplateOptions = {},
): Promise<JavaScriptTemplate> {
  return loadJavaScriptTemplate(templateToJavaScriptSource(definition), options);
}
