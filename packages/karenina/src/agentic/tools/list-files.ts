import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";
import { existingStats, toolPath } from "./tool-paths.js";
import { displayPath, type WalkEntry, walk } from "./walk.js";

export interface ListFilesInput {
  /** A directory of the workspace; the workspace itself by default. */
  path?: string;
  /** Whether to descend into subdirectories; true by default. */
  recursive?: boolean;
}

export interface ListFilesOutput {
  path: string;
  entries: WalkEntry[];
  /** True when `listMaxEntries` cut the listing short. */
  truncated: boolean;
}

/** The files and directories below a workspace directory, in name order, with file sizes. */
export async function listFiles(
  workspace: string,
  input: ListFilesInput,
  limits: Pick<WorkspaceToolLimits, "listMaxEntries">,
): Promise<ListFilesOutput> {
  const requested = input.path ?? ".";
  const directory = await toolPath("list_files", workspace, requested);
  if (!(await existingStats("list_files", directory, requested)).isDirectory()) {
    throw new WorkspaceToolError(
      "list_files",
      `${JSON.stringify(requested)}: expected a directory, found a file`,
    );
  }
  const entries: WalkEntry[] = [];
  for await (const { absolute: _absolute, ...entry } of walk(workspace, directory, input.recursive ?? true)) {
    if (entries.length === limits.listMaxEntries)
      return { path: displayPath(workspace, directory), entries, truncated: true };
    entries.push(entry);
  }
  return { path: displayPath(workspace, directory), entries, truncated: false };
}
