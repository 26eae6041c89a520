export {
  type CheckpointDownload,
  checkpointDownload,
  checkpointFileName,
  importCheckpoint,
} from "./checkpoint-files.js";
export {
  addCurationQuestion,
  curationOf,
  loadCuration,
  type RawCurationValues,
  saveCuration,
} from "./curation.js";
export { curatorQuestionOf, type RawQuestionValues } from "./curator-question.js";
export { type RegexTestInput, testRegex } from "./regex-test.js";
