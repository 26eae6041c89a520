import { expect, test } from "vitest";
import type { JobStreamEvent } from "../library-types/index.js";
import { etaSeconds, foldEvent, formatDuration, initialProgress } from "./progress-state.js";

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
