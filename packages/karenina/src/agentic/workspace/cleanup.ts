import { rm } from "node:fs/promises";
import { isCreatedWorkspace, type Workspace } from "./resolve-workspace.js";

/** The cleanup settings of a task. */
export interface CleanupOptions {
  /** `VerificationConfig.workspace_cleanup`. */
  cleanup: boolean;
  /** Keep this working copy although `cleanup` is on (to inspect a task's workspace afterwards). */
  keep?: boolean;
}

/** Why a workspace was left in place. */
export type CleanupSkipReason = "no_workspace" | "cleanup_off" | "kept" | "original" | "not_created_here";

/** What cleanup did. A failure is a warning for the task's result, never an error of the task (seed 002 §5). */
export type CleanupOutcome =
  | { status: "removed"; path: string }
  | { status: "skipped"; reason: CleanupSkipReason }
  | { status: "failed"; path: string; warning: string };

/**
 * Whether a workspace may be deleted: seed 002 §5's triple guard (a workspace was resolved, cleanup is on, it
 * is a copy), then `keep`, then that this process created it — so an original is never deleted, even when a
 * hand-built record claims to be a copy.
 */
export function cleanupDecision(
  workspace: Workspace | null,
  options: CleanupOptions,
): "remove" | CleanupSkipReason {
  if (workspace === null) return "no_workspace";
  if (!options.cleanup) return "cleanup_off";
  if (!workspace.isCopy) return "original";
  if (options.keep === true) return "kept";
  return isCreatedWorkspace(workspace) ? "remove" : "not_created_here";
}

/**
 * Deletes a task's working directory after its stages ran (seed 002 §5), when {@link cleanupDecision} allows.
 * Symbolic links inside are removed, never followed. Never throws.
 */
export async function cleanupWorkspace(
  workspace: Workspace | null,
  options: CleanupOptions,
): Promise<CleanupOutcome> {
  if (workspace === null) return { status: "skipped", reason: "no_workspace" };
  const decision = cleanupDecision(workspace, options);
  if (decision !== "remove") return { status: "skipped", reason: decision };
  try {
    await rm(workspace.path, { recursive: true, force: true });
    return { status: "removed", path: workspace.path };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      status: "failed",
      path: workspace.path,
      warning: `Failed to clean up workspace: ${workspace.path} (${reason})`,
    };
  }
}
