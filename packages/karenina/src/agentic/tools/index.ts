export { WorkspaceToolError } from "./errors.js";
export { DEFAULT_TOOL_LIMITS, type WorkspaceToolLimits } from "./limits.js";
export type { ListFilesOutput } from "./list-files.js";
export type { ReadFileOutput } from "./read-file.js";
export {
  type CommandLimit,
  type CommandRunLimits,
  type CommandRunner,
  hostCommandRunner,
  type ProcessLaunch,
  type RunCommandInput,
  type RunCommandOutput,
  runProcess,
} from "./run-command.js";
export type { SearchFilesOutput, SearchMatch } from "./search-files.js";
export type { WalkEntry } from "./walk.js";
export {
  type CommandWorkspaceTools,
  type ReadOnlyToolsOptions,
  type ReadOnlyWorkspaceTools,
  type ReadWriteToolsOptions,
  type WorkspaceToolsOptions,
  type WritableWorkspaceTools,
  workspaceTools,
} from "./workspace-tools.js";
export type { WriteFileOutput } from "./write-file.js";
