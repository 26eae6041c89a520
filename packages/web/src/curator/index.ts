export { CuratorTab } from "./CuratorTab.js";
export { curatorSessionSlice } from "./curator-session.js";
export { useRunGuard } from "./use-run-guard.js";
export { type UnsavedCuration, unsavedNotice, useUnsavedCuration } from "./use-unsaved-curation.js";
