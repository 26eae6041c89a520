import { KareninaError } from "../errors/index.js";
import type { VerificationResult } from "../results/index.js";
import { classifyError, describeException } from "./classify-error.js";
import type { VerificationContext } from "./context.js";
import { checkStageDependencies, type Stage, shouldRunStage } from "./stage.js";
import { finalizeResult, taskTimestamp } from "./stages/finalize-result.js";
import { releaseTaskWorkspace } from "./stages/task-workspace.js";

/** The run was cancelled while a task ran: the task has no result and will run again on resume. */
export class TaskAbortedError extends KareninaError {
  override readonly name: string = "TaskAbortedError";
}

/**
 * Runs one task's stages in order and builds its result (spec 04 §4): a stage that throws marks the task's
 * error (classified for retries) and later stages skip unless they run on errors; FinalizeResult always runs.
 * The task's workspace is released before the result is built (cleanup warnings belong to it), and also when
 * the task is cancelled.
 * @throws {StageDependencyError} when the stage list is inconsistent.
 * @throws {TaskAbortedError} when the run's signal aborted during the task.
 */
export async function runStages(
  ctx: VerificationContext,
  stages: readonly Stage[],
): Promise<VerificationResult> {
  checkStageDependencies(stages);
  const timestamp = taskTimestamp(ctx);
  try {
    for (const stage of stages) {
      if (ctx.aborted) throw new TaskAbortedError(`task ${ctx.task.key} was cancelled`);
      ctx.currentStage = stage.name;
      if (!shouldRunStage(stage, ctx)) continue;
      try {
        await stage.run(ctx);
      } catch (error) {
        if (ctx.aborted) throw new TaskAbortedError(`task ${ctx.task.key} was cancelled`, { cause: error });
        const message = `Stage ${stage.name} raised exception: ${describeException(error)}`;
        ctx.markError(message, classifyError(error, ctx.config.custom_error_patterns), stage.name);
        if (stage.name === "ValidateTemplate") ctx.artifacts.templateValidationError = message;
      }
    }
    if (ctx.aborted) throw new TaskAbortedError(`task ${ctx.task.key} was cancelled`);
    ctx.currentStage = "FinalizeResult";
  } finally {
    await releaseTaskWorkspace(ctx);
  }
  return finalizeResult(ctx, timestamp);
}
