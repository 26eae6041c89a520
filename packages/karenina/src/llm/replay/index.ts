export { ReplayFileError, ReplayMissError } from "./errors.js";
export { type ReplayQuestion, replayStoreFromManualTraces } from "./from-manual-traces.js";
export {
  type MissPolicy,
  MissPolicySchema,
  REPLAY_FILE_VERSION,
  type ReplayEntry,
  type ReplayEntryInput,
  ReplayEntrySchema,
  type ReplayFile,
  ReplayFileSchema,
  type ReplayKey,
  type ReplayKeyInput,
  ReplayKeySchema,
} from "./replay-schema.js";
export { type ReplayLoadOptions, type ReplayRecord, ReplayStore } from "./replay-store.js";
