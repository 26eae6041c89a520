import {
  appendManifestRow,
  type CaptureManifestRow,
  type CaptureMode,
  captureDestination,
  captureExcludes,
  captureWorkspace,
  cleanupWorkspace,
  excludeTest,
  resolveWorkspace,
  type Workspace,
} from "../../agentic/index.js";
import { rubricTraits } from "../../model/index.js";
import { modelIdentity, usesAgentPort, type VerificationConfig } from "../config/index.js";
import type { VerificationContext } from "../context.js";
import { taskResultId } from "./finalize-result.js";

/** A run's workspace capture (spec 05 §12.8): on when `workspace_output_mode` is not `none` and a dir is set. */
interface CaptureSettings {
  mode: CaptureMode;
  outputDir: string;
  exclude: readonly string[];
}

function captureSettings(config: VerificationConfig): CaptureSettings | null {
  const { workspace_output_mode: mode, workspace_output_dir: outputDir } = config;
  if (mode === "none" || outputDir === null || outputDir === "") return null;
  return { mode, outputDir, exclude: config.workspace_output_exclude_patterns };
}

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
  const capture = captureSettings(config);
  const workspace = await resolveWorkspace({
    root: ctx.services.workspaceRoot,
    questionId: task.question.id,
    workspacePath: task.question.workspacePath,
    copy: config.workspace_copy,
    replicate: task.replicate,
    outputPath:
      capture?.mode === "full"
        ? captureDestination(capture.outputDir, task.question.id, taskResultId(ctx))
        : null,
    baseline:
      capture?.mode === "produced"
        ? { exclude: excludeTest(captureExcludes("produced", capture.exclude)) }
        : null,
  });
  ctx.artifacts.workspace = workspace;
  return workspace;
}

/**
 * Captures the task's workspace (spec 05 §12.8) and appends the manifest row; a task without a live workspace
 * gets a `skipped` row. Copy errors and a manifest that cannot be written are warnings of the task.
 */
async function captureTaskWorkspace(ctx: VerificationContext, capture: CaptureSettings): Promise<void> {
  const { task } = ctx;
  const workspace = ctx.artifacts.workspace ?? null;
  const resultId = taskResultId(ctx);
  const outcome = await captureWorkspace({
    mode: capture.mode,
    workspace,
    destination: captureDestination(capture.outputDir, task.question.id, resultId),
    exclude: capture.exclude,
    baseline: workspace?.baseline ?? null,
  });
  const row: CaptureManifestRow = {
    question_id: task.question.id,
    result_id: resultId,
    run_name: task.runName,
    replicate: task.replicate,
    scenario_id: null,
    scenario_node: null,
    scenario_turn: null,
    answering: modelIdentity(task.answering, "answering"),
    parsing: modelIdentity(task.parsing, "parsing"),
    capture_mode: capture.mode,
    source_workspace_path: workspace?.path ?? null,
    destination: outcome.status === "skipped" ? null : outcome.destination,
    status: outcome.status,
    copied_file_count: outcome.status === "skipped" ? 0 : outcome.copiedFileCount,
    copy_errors: outcome.copyErrors,
    ...(outcome.status === "skipped" ? { skip_reason: outcome.skipReason } : {}),
  };
  if (outcome.copyErrors.length > 0) {
    ctx.warn(`Workspace capture ${outcome.status}: ${outcome.copyErrors.join("; ")}`);
  }
  try {
    await appendManifestRow(capture.outputDir, row);
  } catch (error) {
    ctx.warn(`Workspace capture not recorded: ${(error as Error).message}`);
  }
}

/**
 * The task is done with its workspace: it is captured first when the run captures workspaces (spec 05 §12.8;
 * not for a cancelled task, which runs again on resume); then, when no other task of a shared answer still
 * uses it, it is removed behind cleanup's guards (seed 002 §5: a resolved workspace, `workspace_cleanup`, a copy
 * made here). A failure to remove it is a warning of the task, never its error.
 */
export async function releaseTaskWorkspace(ctx: VerificationContext): Promise<void> {
  const capture = captureSettings(ctx.config);
  if (capture !== null && !ctx.aborted) await captureTaskWorkspace(ctx, capture);
  const workspace = ctx.artifacts.workspace ?? null;
  if (workspace === null || !ctx.services.workspaces.release(workspace)) return;
  const outcome = await cleanupWorkspace(workspace, { cleanup: ctx.config.workspace_cleanup });
  if (outcome.status === "failed") ctx.warn(outcome.warning);
}
