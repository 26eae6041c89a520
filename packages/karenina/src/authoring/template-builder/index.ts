export {
  type BuilderPrimitive,
  builderPrimitives,
  generateTemplateSource,
  type ParsedTemplateSource,
  parseTemplateSource,
  type TemplateValidation,
  validateTemplateSource,
} from "./builder-operations.js";
export {
  TemplateTestError,
  type TemplateTestInput,
  type TemplateTestOutcome,
  testTemplate,
} from "./test-template.js";
