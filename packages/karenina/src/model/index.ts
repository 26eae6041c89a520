export { defaultTemplate, isRealTemplate } from "./default-template.js";
export { ModelValidationError } from "./errors.js";
export { firstCodePoints, md5Hex, questionIdFromText, questionUrn, templateId, uniqueId } from "./ids.js";
export {
  type FewShotExample,
  Question,
  type QuestionDump,
  type QuestionFields,
  type QuestionInput,
  QuestionSchema,
} from "./question.js";
export type { QuestionRecord } from "./question-record.js";
export { coerceLaxBoolean, newRegistryEntry, type QuestionRegistryEntry } from "./registry.js";
export * from "./rubric/index.js";
export { checkpointId, pythonIsoTimestamp } from "./timestamps.js";
