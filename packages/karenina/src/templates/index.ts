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
export {
  answerClassSchema,
  INHERITED_ID_PROPERTY,
  judgeSchemaOf,
  pydanticTitle,
  relaxedSchemaOf,
  type SchemaField,
  sortSchemaKeys,
} from "./judge-schema.js";
export { verifyRegexChecks } from "./regex-checks.js";
