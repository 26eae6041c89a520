export {
  type AttributeType,
  attributeTypeText,
  groundTruthProblem,
  parseAttributeType,
} from "./attribute-type.js";
export {
  defaultBackupPath,
  readTemplateBackup,
  type TemplateBackup,
  TemplateBackupSchema,
  writeTemplateBackup,
} from "./backup.js";
export { type GenerationPhase, TemplateBackupError, TemplateGenerationError } from "./errors.js";
export {
  type GenerateAnswerTemplateOptions,
  type GeneratedTemplate,
  generateAnswerTemplate,
} from "./generate-answer-template.js";
export {
  type GenerateTemplatesOptions,
  generateTemplates,
  type TemplateGenerationEvent,
  type TemplateGenerationEventName,
  type TemplateOutcome,
} from "./generate-templates.js";
export { generatedTemplateSpec } from "./generated-spec.js";
export type { TemplateQuestion } from "./prompts.js";
export {
  type FieldDescriptions,
  fieldDescriptionsSchema,
  type GroundTruthAttribute,
  type GroundTruthSpec,
  GroundTruthSpecSchema,
} from "./replies.js";
