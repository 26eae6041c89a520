export { defineAnswerTemplate } from "./define-answer-template.js";
export {
  isTypeScriptTemplate,
  JavaScriptTemplate,
  type LoadJavaScriptTemplateOptions,
  loadJavaScriptTemplate,
  type TypeScriptTemplate,
} from "./javascript-template.js";
export {
  type AnswerTemplateDefinition,
  type JsonObject,
  type RegexCheckDefinition,
  type TemplateAnswer,
  templateToJavaScriptSource,
} from "./template-source.js";
