import { cleanupWorkspace, resolveWorkspace, type Workspace } from "../../agentic/index.js";
import { rubricTraits } from "../../model/index.js";
import { usesAgentPort } from "../config/index.js";
import type { VerificationContext } from "../context.js";

/**
 * Whether a task works in a workspace: agentic parsing needs one (seed 002 §2), and so — whenever the
 * benchmark has a workspace root — do an agent answering (MCP or deep agent) and agentic rubric traits. The
 * original resolves one only for agentic parsing; see docs/decisions.md.
 */
function wantsWorkspace(ctx: VerificationContext): boolean {
  const { config, task } = ctx;
  if (config.agentic_parsing) return true;
  if (ctx.services.workspaceRoot === null) return false;
  return usesAgentPort(task.answering) || rubricTraits(task.rubric).some((trait) => trait.type === "agentic");
}

/**
 * Resolves the task's workspace (seed 002 §2) and records it on the context (`WORKSPACE_PATH`,
 * `workspace_is_copy`), or null when the task needs none.
 * @throws {WorkspaceRootMissingError} with agentic parsing and no workspace root.
 * @throws {WorkspaceSourceMissingError} when the question's `workspace_path` names no directory.
 */
export async function resolveTaskWorkspace(ctx: VerificationContext): Promise<Workspace | null> {
  if (!wantsWorkspace(ctx)) return null;
  const { task, config } = ctx;
  const workspace = await resolveWorkspace({
    root: ctx.services.workspaceRoot,
    questionId: task.question.id,
    workspacePath: task.question.workspacePath,
    copy: config.workspace_copy,
    replicate: task.replicate,
  });
  ctx.artifacts.workspace = workspace;
  return workspace;
}

/**
 * The task is done with its workspace (seed 002 §5): when no other task of a shared answer still uses it,
 * it is removed behind cleanup's guards (a resolved workspace, `workspace_cleanup`, a copy made here). A
 * failure to remove it is a warning of the task, never its error.
 */
export async function releaseTaskWorkspace(ctx: VerificationContext): Promise<void> {
  const workspace = ctx.artifacts.workspace ?? null;
  if (workspace === null || !ctx.services.workspaces.release(workspace)) return;
  const outcome = await cleanupWorkspace(workspace, { cleanup: ctx.config.workspace_cleanup });
  if (outcome.status === "failed") ctx.warn(outcome.warning);
}
