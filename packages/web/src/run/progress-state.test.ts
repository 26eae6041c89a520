import { expect, test } from "vitest";
import type { JobStreamEvent, JobUsageTotals } from "../library-types/index.js";
import {
  etaSeconds,
  foldEvent,
  formatCost,
  formatDuration,
  formatTokens,
  formatUsd,
  initialProgress,
} from "./progress-state.js";

const event = (
  type: JobStreamEvent["type"],
  seq: number,
  extra: Partial<JobStreamEvent> = {},
): JobStreamEvent => ({
  job_id: "j",
  kind: "verification",
  status: "running",
  percentage: 0,
  processed: 0,
  total: 4,
  successful: 0,
  failed: 0,
  in_progress_questions: [],
  current_question: null,
  start_time: 100,
  duration_seconds: null,
  last_task_duration: null,
  error: null,
  usage_totals: null,
  type,
  seq,
  ts: 0,
  ...extra,
});

test("events count each row once; a snapshot sets progress only; replays at or below the last seq are ignored", () => {
  let progress = initialProgress("j");
  progress = foldEvent(progress, event("snapshot", 2, { processed: 2 }));
  expect(progress).toMatchObject({ processed: 2, passed: 0, lastSeq: 0 });
  progress = foldEvent(
    progress,
    event("task_completed", 1, { processed: 1, result_summary: { passed: true } }),
  );
  progress = foldEvent(
    progress,
    event("task_completed", 2, {
      processed: 2,
      result_summary: { passed: false, failure_category: "abstained" },
    }),
  );
  progress = foldEvent(
    progress,
    event("task_completed", 2, { processed: 2, result_summary: { passed: true } }),
  );
  progress = foldEvent(
    progress,
    event("task_completed", 3, { processed: 3, result_summary: { passed: false } }),
  );
  expect(progress).toMatchObject({ processed: 3, passed: 1, abstained: 1, failed: 1, lastSeq: 3 });
  expect(etaSeconds(progress, 130_000)).toBeCloseTo(10);
  progress = foldEvent(progress, event("job_cancelled", 4, { status: "cancelled", duration_seconds: 31 }));
  expect(progress.status).toBe("cancelled");
  expect(etaSeconds(progress, 130_000)).toBeNull();
});

test("durations read as people say them", () => {
  expect(formatDuration(12.4)).toBe("12 s");
  expect(formatDuration(185)).toBe("3 min 05 s");
  expect(formatDuration(3720)).toBe("1 h 02 min");
});

const totals = (extra: Partial<JobUsageTotals> = {}): JobUsageTotals => ({
  input_tokens: 1000,
  output_tokens: 234,
  total_tokens: 1234,
  cost_usd: 0,
  priced: 0,
  unpriced: 0,
  ...extra,
});

test("the running usage totals follow the events; an event without them keeps the last ones", () => {
  let progress = foldEvent(initialProgress("j"), event("snapshot", 0));
  expect(progress.usage).toBeNull();
  progress = foldEvent(progress, event("task_completed", 1, { usage_totals: totals({ unpriced: 1 }) }));
  expect(progress.usage).toEqual(totals({ unpriced: 1 }));
  const { usage_totals: _, ...withoutTotals } = event("job_completed", 2, { status: "completed" });
  progress = foldEvent(progress, withoutTotals as JobStreamEvent);
  expect(progress.usage).toEqual(totals({ unpriced: 1 }));
});

test("tokens and cost read with separators; the cost says when it covers priced models only", () => {
  expect(formatTokens(totals())).toBe("Tokens: 1,234 (1,000 in · 234 out)");
  expect(formatCost(totals({ cost_usd: 0.000234, priced: 3 }))).toBe("Cost: $0.0002");
  expect(formatCost(totals({ cost_usd: 12.345, priced: 3 }))).toBe("Cost: $12.35");
  expect(formatCost(totals({ cost_usd: 0.5, priced: 2, unpriced: 3 }))).toBe(
    "Cost: $0.50 (cost of priced models only: 2 of 5 tasks)",
  );
  expect(formatCost(totals({ unpriced: 4 }))).toBe("Cost: unknown (no price for these models)");
  expect(formatUsd(0)).toBe("$0.00");
});
