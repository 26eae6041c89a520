import { describe, expect, test } from "vitest";
import { verificationConfigWarnings } from "./config-warnings.js";

const base = {
  agentic_parsing: true,
  agentic_judge_context: "trace_only",
  agentic_parsing_trigger: "always",
} as const;

describe("config warnings for trace_only agentic judges (spec 04 §2.2)", () => {
  test("a trace_only judge is warned to be equivalent to classical parsing", () => {
    const warnings = verificationConfigWarnings(base);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      "agentic_parsing=True with agentic_judge_context='trace_only' is equivalent to classical parsing (Stage 7a).",
    );
  });

  test("the dynamic trigger with a trace_only judge gets a second warning", () => {
    const warnings = verificationConfigWarnings({ ...base, agentic_parsing_trigger: "dynamic" });
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain("can only escalate to the same trace context");
  });

  test.each([
    ["another judge context", { ...base, agentic_judge_context: "trace_and_workspace" }],
    ["agentic parsing off", { ...base, agentic_parsing: false }],
  ] as const)("nothing is warned with %s", (_name, config) => {
    expect(verificationConfigWarnings(config)).toEqual([]);
  });
});
