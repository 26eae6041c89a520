export {
  type CleanupOptions,
  type CleanupOutcome,
  type CleanupSkipReason,
  cleanupDecision,
  cleanupWorkspace,
} from "./cleanup.js";
export { confinedPath } from "./containment.js";
export {
  WorkspaceCopyError,
  WorkspaceError,
  WorkspaceEscapeError,
  WorkspaceRootMissingError,
  WorkspaceSourceMissingError,
} from "./errors.js";
export { runSuffix, safePathComponent } from "./paths.js";
export { resolveWorkspace, type Workspace, type WorkspaceRequest } from "./resolve-workspace.js";
