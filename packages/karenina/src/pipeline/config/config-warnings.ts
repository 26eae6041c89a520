import type { VerificationConfig } from "./verification-config.js";

/**
 * The warnings of a verification config (spec 04 §2.2): settings that are valid but probably not what the user
 * meant. The original logs them when the config is built; `runVerification` reports them as `warning` progress
 * events before the run starts, and `karenina verify` prints them.
 * @example
 * verificationConfigWarnings({ agentic_parsing: true, agentic_judge_context: "trace_only", agentic_parsing_trigger: "always" }).length; // 1
 */
export function verificationConfigWarnings(
  config: Pick<VerificationConfig, "agentic_parsing" | "agentic_judge_context" | "agentic_parsing_trigger">,
): string[] {
  if (!config.agentic_parsing || config.agentic_judge_context !== "trace_only") return [];
  const warnings = [
    "agentic_parsing=True with agentic_judge_context='trace_only' is equivalent to classical parsing (Stage 7a). " +
      "Use agentic_judge_context='workspace_only' or 'trace_and_workspace' to let the judge inspect the workspace.",
  ];
  if (config.agentic_parsing_trigger === "dynamic") {
    warnings.push(
      "agentic_parsing_trigger='dynamic' with agentic_judge_context='trace_only' can only escalate to the same " +
        "trace context that was already judged insufficient. Use agentic_judge_context='workspace_only' or " +
        "'trace_and_workspace' for workspace recovery.",
    );
  }
  return warnings;
}
