export {
  type CaptureMode,
  type CaptureOutcome,
  type CaptureRequest,
  captureDestination,
  captureExcludes,
  captureWorkspace,
  DEFAULT_CAPTURE_EXCLUDES,
  excludeTest,
} from "./capture.js";
export {
  appendManifestRow,
  type CaptureManifestRow,
  CaptureManifestRowSchema,
  compactManifest,
  manifestLogPath,
  manifestPath,
  parseManifestLines,
} from "./capture-manifest.js";
export {
  type CleanupOptions,
  type CleanupOutcome,
  type CleanupSkipReason,
  cleanupDecision,
  cleanupWorkspace,
} from "./cleanup.js";
export { confinedPath } from "./containment.js";
export {
  CaptureManifestError,
  WorkspaceCopyError,
  WorkspaceError,
  WorkspaceEscapeError,
  WorkspaceRootMissingError,
  WorkspaceSourceMissingError,
} from "./errors.js";
export { runSuffix, safePathComponent } from "./paths.js";
export { resolveWorkspace, type Workspace, type WorkspaceRequest } from "./resolve-workspace.js";
export {
  type ExcludeTest,
  type FileFingerprint,
  producedPaths,
  snapshotWorkspace,
  type WorkspaceSnapshot,
} from "./snapshot.js";
