import type {
  GeneratedTemplateOutcome,
  JobStreamEvent,
  TemplateGenerationJob,
} from "../library-types/index.js";

/** A generation job as the progress card shows it, rebuilt from its event stream (or its progress view). */
export interface GenerationProgress {
  readonly status: string;
  readonly processed: number;
  readonly total: number;
  readonly percentage: number;
  readonly successful: number;
  readonly failed: number;
  /** Question ids the server reports in flight (the whole batch at first: labelled "queued / running"). */
  readonly inFlight: readonly string[];
  /** Epoch seconds. */
  readonly startTime: number | null;
  readonly durationSeconds: number | null;
  readonly lastTaskDuration: number | null;
  readonly error: string | null;
}

const ENDED = new Set(["completed", "failed", "cancelled", "interrupted"]);

/** Whether a job status is final. */
export function isEndedStatus(status: string): boolean {
  return ENDED.has(status);
}

/** The progress card's view of a job's progress fields (an event or `GET …/progress`). */
export function progressOf(view: JobStreamEvent | TemplateGenerationJob): GenerationProgress {
  return {
    status: view.status,
    processed: view.processed,
    total: view.total,
    percentage: view.percentage,
    successful: view.successful,
    failed: view.failed,
    inFlight: view.in_progress_questions,
    startTime: view.start_time,
    durationSeconds: view.duration_seconds,
    lastTaskDuration: view.last_task_duration,
    error: view.error,
  };
}

/** The template outcome one event reports (a task's success or failure), keyed by question id; else null. */
export function outcomeOfEvent(event: JobStreamEvent): [string, GeneratedTemplateOutcome] | null {
  const id = typeof event.question_id === "string" ? event.question_id : null;
  if (id === null || id === "") return null;
  if (event.type === "task_completed" && event.success === true && typeof event.template_code === "string")
    return [id, { success: true, template_code: event.template_code }];
  if (event.type === "task_failed" || (event.type === "task_completed" && event.success === false))
    return [
      id,
      { success: false, error: typeof event.error === "string" ? event.error : "generation failed" },
    ];
  return null;
}

/** "1m 05s", "12.3s": a duration in seconds as the progress card prints it. */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m ${String(whole % 60).padStart(2, "0")}s`;
}

/** A 60-character preview of a question's text. */
export function preview60(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}
