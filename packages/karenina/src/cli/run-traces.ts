/**
 * The `traces/` folder of a `--run-root` run directory: one file per result that involved an agent, holding
 * its traces (the answering agent's turns with tool calls and results, the agentic judge's investigation,
 * the agentic traits' investigations), so a run's agent work can be read without digging in results.json.
 * The original leaves the folder empty on the CLI path (spec 08 Q48).
 */
import { join } from "node:path";
import { safePathComponent } from "../agentic/index.js";
import { writeFileAtomic } from "../checkpoint/index.js";
import { displayString, type VerificationResult } from "../results/index.js";

/** Whether an answer's trace has tool calls or tool results: the answering model worked as an agent. */
const usedTools = (messages: readonly Record<string, unknown>[]) =>
  messages.some((message) => message.role === "tool" || Array.isArray(message.tool_calls));

/**
 * The agent traces of a result, or null when no agent took part: no tool call in the answer, no agentic
 * judge, no agentic trait (no trace file is written for it).
 */
export function agentTraces(result: VerificationResult): Record<string, unknown> | null {
  const { metadata, template, rubric } = result;
  const answeringAgent = usedTools(template?.trace_messages ?? []);
  const judge = template?.investigation_trace ?? null;
  const traits = rubric?.agentic_trait_investigation_traces ?? null;
  if (!answeringAgent && judge === null && traits === null) return null;
  return {
    question_id: metadata.question_id,
    result_id: metadata.result_id,
    replicate: metadata.replicate,
    answering_model: displayString(metadata.answering),
    parsing_model: displayString(metadata.parsing),
    answering_agent: answeringAgent
      ? {
          raw_trace: template?.raw_llm_response ?? null,
          trace_messages: template?.trace_messages ?? [],
          agent_metrics: template?.agent_metrics ?? null,
        }
      : null,
    agentic_judge_investigation: judge,
    agentic_trait_investigations: traits,
  };
}

/** The trace file of a result: `<safe question id>__<safe result id>.json`, as workspace captures are named. */
export function traceFileName(result: VerificationResult): string {
  return `${safePathComponent(result.metadata.question_id)}__${safePathComponent(result.metadata.result_id)}.json`;
}

/** Writes the trace file of every result with agent traces into `dir`; returns how many were written. */
export async function writeRunTraces(dir: string, results: readonly VerificationResult[]): Promise<number> {
  let written = 0;
  for (const result of results) {
    const traces = agentTraces(result);
    if (traces === null) continue;
    await writeFileAtomic(join(dir, traceFileName(result)), `${JSON.stringify(traces, null, 2)}\n`);
    written++;
  }
  return written;
}
