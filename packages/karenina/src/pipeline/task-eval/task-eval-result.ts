import type { StepEval, StepEvalSummary } from "./step-eval.js";

/** The summaries of a TaskEval result, scope by scope. */
export interface TaskEvalSummary {
  global: StepEvalSummary | null;
  perStep: Record<string, StepEvalSummary>;
}

/** What `TaskEval.evaluate` returns: the global scope's evaluation (null when it was not evaluated) and each step's. */
export class TaskEvalResult {
  constructor(
    /** Null when the global scope had nothing attached, or when one step was asked for. */
    readonly globalEval: StepEval | null,
    /** Step id → its evaluation, in the order the steps were first used. */
    readonly perStep: Record<string, StepEval>,
    readonly taskId: string | null = null,
    readonly metadata: Record<string, unknown> = {},
    /** The run name every result carries in `metadata.run_name`. */
    readonly runName: string = "",
  ) {}

  /** Each evaluated scope's summary (see `StepEval.summary`). */
  summary(): TaskEvalSummary {
    return {
      global: this.globalEval?.summary() ?? null,
      perStep: Object.fromEntries(Object.entries(this.perStep).map(([id, step]) => [id, step.summary()])),
    };
  }

  /** The stored form, snake_case as the original's export. */
  toJSON(): Record<string, unknown> {
    return {
      task_id: this.taskId,
      metadata: this.metadata,
      run_name: this.runName,
      global_eval: this.globalEval?.toJSON() ?? null,
      per_step: Object.fromEntries(Object.entries(this.perStep).map(([id, step]) => [id, step.toJSON()])),
    };
  }

  /** {@link toJSON} as JSON text, indented by 2 spaces. */
  exportJson(): string {
    return JSON.stringify(this, null, 2);
  }
}
