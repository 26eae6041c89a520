import { describe, expect, test } from "vitest";
import type { JobStreamEvent } from "../library-types/index.js";
import { formatDuration, outcomeOfEvent, preview60 } from "./generation-progress.js";

const event = (fields: Record<string, unknown>) => fields as unknown as JobStreamEvent;

describe("generation progress", () => {
  test("task events become template outcomes live; other events none", () => {
    expect(
      outcomeOfEvent(event({ type: "task_completed", question_id: "q1", success: true, template_code: "c" })),
    ).toEqual(["q1", { success: true, template_code: "c" }]);
    expect(outcomeOfEvent(event({ type: "task_failed", question_id: "q2", error: "bad JSON" }))).toEqual([
      "q2",
      { success: false, error: "bad JSON" },
    ]);
    expect(outcomeOfEvent(event({ type: "task_started", question_id: "q1" }))).toBeNull();
    expect(outcomeOfEvent(event({ type: "job_completed" }))).toBeNull();
  });

  test("durations and previews", () => {
    expect([formatDuration(3.21), formatDuration(65)]).toEqual(["3.2s", "1m 05s"]);
    expect(preview60("x".repeat(61))).toHaveLength(60);
    expect(preview60("short")).toBe("short");
  });
});
