import { getAllTraitScores } from "../../rubrics/index.js";
import type { VerificationConfig } from "../config/index.js";
import { TaskAbortedError } from "../orchestrator.js";
import { TaskEval, type TaskEvalResult } from "../task-eval/index.js";
import type { PostHocItem, PostHocJudgment } from "./schemas.js";

/** The message of a thrown value, as a judgment's error. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The question of the TaskEval (spec 08 §10.2 step 3), only when the context has a question or a ground truth. */
function addContextQuestion(taskEval: TaskEval, item: PostHocItem): void {
  const { question, ground_truth } = item.context;
  if (question === "" && ground_truth === null) return;
  // TaskEval needs question text; a ground truth without one gets the text of TaskEval's synthetic question.
  taskEval.addQuestion({
    id: item.key.question_id,
    question: question === "" ? "Evaluate the logged output" : question,
    raw_answer: ground_truth ?? "",
  });
}

/** Why the evaluation gives no judgment: its first failed question, else its first failed row; null if none. */
function firstFailure(result: TaskEvalResult): string | null {
  const step = result.globalEval;
  if (step === null) return null;
  for (const reasons of Object.values(step.failedQuestions)) if (reasons[0] !== undefined) return reasons[0];
  for (const row of step.results) {
    const failure = row.metadata.failure;
    if (failure !== null) return `${failure.category}: ${failure.reason}`;
  }
  return null;
}

function judgment(item: PostHocItem, fields: Pick<PostHocJudgment, "scores" | "labels" | "error">) {
  return {
    key: item.key,
    sibling_keys: item.siblingKeys,
    ...fields,
    representative_result_id: item.representativeResultId,
    sibling_result_ids: item.siblingResultIds,
  } satisfies PostHocJudgment;
}

const warningText = (item: PostHocItem, message: string) =>
  `post-hoc rubric: row ${item.key.question_id}: ${message}`;

const failed = (item: PostHocItem, error: string) => judgment(item, { scores: {}, labels: {}, error });

/**
 * Scores and labels over every row of the evaluation (spec 08 §10.2 step 4), or the reason there are none. A
 * judge that fails leaves only a row warning ("Rubric evaluation failed: …"): without scores, those warnings go
 * to `onWarning`, since the judgment's error is the fixed "no usable rubric scores".
 */
function judgmentOf(
  item: PostHocItem,
  result: TaskEvalResult,
  onWarning: (message: string) => void,
): PostHocJudgment {
  const failure = firstFailure(result);
  if (failure !== null) return failed(item, failure);
  if (result.globalEval === null) return failed(item, "TaskEval returned no global evaluation");
  const scores: Record<string, PostHocJudgment["scores"][string]> = {};
  const labels: Record<string, string> = {};
  for (const { rubric } of result.globalEval.results) {
    if (rubric === null) continue;
    Object.assign(scores, getAllTraitScores(rubric));
    Object.assign(labels, rubric.llm_trait_labels ?? {});
  }
  if (Object.values(scores).every((score) => score === null || score === undefined)) {
    for (const row of result.globalEval.results) {
      for (const warning of row.metadata.warnings) onWarning(warningText(item, warning));
    }
    return failed(item, "TaskEval produced no usable rubric scores");
  }
  return judgment(item, { scores, labels, error: null });
}

/**
 * Judges one text with a TaskEval (spec 08 §10.2 step 3): task `post-hoc-<question_id>`, the text logged as
 * the output, the context's question, the rubric; run name = the row's. Any failure becomes the judgment's
 * error (and `onWarning` hears of exceptions); only cancellation rejects, with `TaskAbortedError`.
 */
export async function judgeItem(
  item: PostHocItem,
  config: VerificationConfig,
  options: { signal?: AbortSignal; onWarning: (message: string) => void },
): Promise<PostHocJudgment> {
  if (item.preparationError !== undefined) {
    options.onWarning(warningText(item, item.preparationError));
    return failed(item, item.preparationError);
  }
  try {
    const taskEval = new TaskEval({ taskId: `post-hoc-${item.key.question_id}` });
    taskEval.log(item.text);
    addContextQuestion(taskEval, item);
    taskEval.addRubric(item.rubric);
    const result = await taskEval.evaluate(config, {
      ...(item.key.run_name === null ? {} : { runName: item.key.run_name }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return judgmentOf(item, result, options.onWarning);
  } catch (error) {
    if (error instanceof TaskAbortedError) throw error;
    const message = describeError(error);
    options.onWarning(warningText(item, message));
    return failed(item, message);
  }
}
