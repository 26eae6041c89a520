export {
  CheckpointError,
  CheckpointFileError,
  CheckpointNestingError,
  CheckpointProblemsError,
  CheckpointSyntaxError,
  jsonPath,
  MAX_LISTED_PROBLEMS,
} from "./errors.js";
export {
  type Answer,
  CHECKPOINT_CONTEXT,
  type DataFeed,
  type DataFeedItem,
  DataFeedItemSchema,
  DataFeedSchema,
  type PropertyValue,
  RATING_TYPES,
  type Rating,
  type RatingType,
  type SchemaOrgQuestion,
  type SoftwareSourceCode,
  TEMPLATE_LANGUAGES,
  type TemplateLanguage,
} from "./jsonld-schema.js";
export { checkNesting, MAX_CHECKPOINT_NESTING, measureNesting, type Nesting } from "./nesting.js";
export { pythonJsonDumps } from "./python-json.js";
export {
  customKeyOf,
  customPropertyName,
  newQuestionProperties,
  property,
  removeProperty,
  upsertProperty,
} from "./question-properties.js";
export {
  type ItemLocation,
  type ReadQuestion,
  readQuestion,
  workspacePathProblem,
} from "./question-record.js";
export * from "./ratings.js";
export { parseCheckpoint, parseCheckpointJson, readCheckpointFile } from "./read.js";
export {
  checkpointPath,
  type SerializeCheckpointOptions,
  serializeCheckpoint,
  writeCheckpointFile,
  writeFileAtomic,
} from "./write.js";
