export { PostHocRubricError } from "./errors.js";
export {
  evaluateRubricOnResults,
  evaluateRubricOnTexts,
  type PostHocOptions,
  type PostHocResultsOptions,
  type PostHocText,
} from "./evaluate.js";
export { defaultSiblingIdentity, itemsFromRows, type RowSelection, resultRowKey } from "./items.js";
export {
  type PostHocJudgment,
  PostHocJudgmentSchema,
  type ResultRowKey,
  type ResultRowKeyInput,
  ResultRowKeySchema,
  type RowContext,
  type RowContextInput,
  RowContextSchema,
} from "./schemas.js";
