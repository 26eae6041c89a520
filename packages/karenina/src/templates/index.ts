export type {
  AnswerTemplate,
  JsonSchema,
  RegexCheck,
  RegexReport,
  TemplateEvaluation,
  TemplateRunContext,
  TemplateRuntime,
} from "./answer-template.js";
export { TemplateError } from "./answer-template.js";
export { type Coerced, type CoercionProblem, coerceToSchema, describeProblems } from "./coerce.js";
export * from "./declarative/index.js";
export * from "./javascript/index.js";
export {
  answerClassSchema,
  INHERITED_ID_PROPERTY,
  judgeSchemaOf,
  pydanticTitle,
  relaxedSchemaOf,
  type SchemaField,
  sortSchemaKeys,
} from "./judge-schema.js";
export {
  type LoadTemplateOptions,
  loadTemplate,
  loadTemplateInput,
  type TemplateCode,
  type TemplateInput,
  templateCode,
  templateProblem,
} from "./load-template.js";
export {
  createTemplateSandbox,
  defaultPythonSandbox,
  type LoadPythonTemplateOptions,
  loadPythonTemplate,
  PythonTemplate,
  TEMPLATE_ISOLATIONS,
  type TemplateIsolation,
} from "./python/index.js";
export { verifyRegexChecks } from "./regex-checks.js";
