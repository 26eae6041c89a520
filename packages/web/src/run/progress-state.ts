import type { JobStreamEvent, JobUsageTotals } from "../library-types/index.js";

/** What the progress panel shows of a job, folded from its event stream (spec 07 §2.3). */
export interface RunProgress {
  readonly jobId: string;
  readonly status: JobStreamEvent["status"];
  readonly processed: number;
  readonly total: number;
  readonly percentage: number;
  readonly inFlight: readonly string[];
  /** Epoch seconds when the job started, or null before. */
  readonly startTime: number | null;
  readonly durationSeconds: number | null;
  readonly lastTaskDuration: number | null;
  readonly error: string | null;
  /** The seq of the last non-snapshot event folded in (events at or below it are replays already seen). */
  readonly lastSeq: number;
  readonly passed: number;
  readonly failed: number;
  readonly abstained: number;
  /** Running token and cost totals, or null while the server has reported none. */
  readonly usage: JobUsageTotals | null;
}

export const FINAL_STATUSES: readonly string[] = ["completed", "failed", "cancelled"];

export function initialProgress(jobId: string): RunProgress {
  return {
    jobId,
    status: "pending",
    processed: 0,
    total: 0,
    percentage: 0,
    inFlight: [],
    startTime: null,
    durationSeconds: null,
    lastTaskDuration: null,
    error: null,
    lastSeq: 0,
    passed: 0,
    failed: 0,
    abstained: 0,
    usage: null,
  };
}

interface ResultSummaryLike {
  readonly passed?: unknown;
  readonly failure_category?: unknown;
}

function countRow(progress: RunProgress, summary: ResultSummaryLike): RunProgress {
  if (summary.passed === true) return { ...progress, passed: progress.passed + 1 };
  const category = typeof summary.failure_category === "string" ? summary.failure_category : "";
  if (category.includes("abstain")) return { ...progress, abstained: progress.abstained + 1 };
  return { ...progress, failed: progress.failed + 1 };
}

/**
 * The progress after one event. Every event carries the job's progress; a snapshot only sets it, the others
 * also count rows (`task_completed`'s `result_summary`) once each: an event at or below `lastSeq` was seen.
 */
export function foldEvent(progress: RunProgress, event: JobStreamEvent): RunProgress {
  if (event.type !== "snapshot" && event.seq <= progress.lastSeq) return progress;
  let next: RunProgress = {
    ...progress,
    status: event.status,
    processed: event.processed,
    total: event.total,
    percentage: event.percentage,
    inFlight: event.in_progress_questions,
    startTime: event.start_time,
    durationSeconds: event.duration_seconds,
    lastTaskDuration: event.last_task_duration,
    error: event.error,
    usage: event.usage_totals ?? progress.usage,
  };
  if (event.type === "snapshot") return next;
  next = { ...next, lastSeq: event.seq };
  if (
    event.type === "task_completed" &&
    typeof event.result_summary === "object" &&
    event.result_summary !== null
  )
    next = countRow(next, event.result_summary as ResultSummaryLike);
  return next;
}

/** Seconds since the job started (its own duration once finished). */
export function elapsedSeconds(progress: RunProgress, nowMs: number): number | null {
  if (FINAL_STATUSES.includes(progress.status) && progress.durationSeconds !== null)
    return progress.durationSeconds;
  if (progress.startTime === null) return null;
  return Math.max(0, nowMs / 1000 - progress.startTime);
}

/** Seconds left at the pace so far, or null before the first task ends or after the last. */
export function etaSeconds(progress: RunProgress, nowMs: number): number | null {
  const elapsed = elapsedSeconds(progress, nowMs);
  if (elapsed === null || progress.processed === 0 || progress.processed >= progress.total) return null;
  return (elapsed / progress.processed) * (progress.total - progress.processed);
}

/** "1 h 02 min", "3 min 05 s", "12 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  if (h > 0) return `${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `${m} min ${String(s).padStart(2, "0")} s`;
  return `${s} s`;
}

const tokenCount = new Intl.NumberFormat("en-US");

/** "$0.0123" below a dollar (so a small run's cost is not $0.00), "$12.34" above. */
export function formatUsd(amount: number): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: amount > 0 && amount < 1 ? 4 : 2,
  }).format(amount);
}

/** "Tokens: 1,234 (1,000 in · 234 out)". */
export function formatTokens(usage: JobUsageTotals): string {
  return `Tokens: ${tokenCount.format(usage.total_tokens)} (${tokenCount.format(usage.input_tokens)} in · ${tokenCount.format(usage.output_tokens)} out)`;
}

/**
 * The cost line: the summed cost when every task's models have a price; the cost of the priced ones, said so,
 * when some have none; "unknown" when none has.
 */
export function formatCost(usage: JobUsageTotals): string {
  const tasks = usage.priced + usage.unpriced;
  if (usage.unpriced === 0) return `Cost: ${formatUsd(usage.cost_usd)}`;
  if (usage.priced === 0) return "Cost: unknown (no price for these models)";
  return `Cost: ${formatUsd(usage.cost_usd)} (cost of priced models only: ${usage.priced} of ${tasks} tasks)`;
}
