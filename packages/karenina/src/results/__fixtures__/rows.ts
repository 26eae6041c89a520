/**
 * Crafted result rows for the aggregation tests: minimal objects filled in by `parseVerificationResult`.
 * Hand-written test data, not output of any model or run.
 */
import { parseVerificationResult, type VerificationResult } from "../verification-result.js";

export interface RowSpec {
  question?: string;
  questionText?: string;
  keywords?: string[] | null;
  answering?: string;
  parsing?: string;
  /** MCP servers attached to the answering model. */
  mcp?: string[] | null;
  replicate?: number | null;
  runName?: string | null;
  timestamp?: string;
  /** `undefined`: no template verification; true/false: verified with that verdict. */
  verify?: boolean;
  failure?: { category: string; stage?: string; reason?: string } | null;
  executionTime?: number;
  usage?: Record<string, { input: number; output: number; model?: string }> | null;
  agentMetrics?: Record<string, unknown> | null;
  rubric?: Record<string, unknown> | null;
  judgment?: boolean;
  resultId?: string;
}

const identity = (name: string) => {
  const [iface, model] = name.includes(":") ? (name.split(":", 2) as [string, string]) : ["openai", name];
  return { interface: iface, model_name: model };
};

/** One row; a failed verification gets a `content` failure unless `failure` says otherwise. */
export function row(spec: RowSpec = {}): VerificationResult {
  const failure =
    spec.failure === undefined
      ? spec.verify === false
        ? { category: "content", stage: "verify_template", reason: "verify_template returned False" }
        : null
      : spec.failure === null
        ? null
        : { stage: "generate_answer", reason: spec.failure.category, ...spec.failure };
  let usage: Record<string, unknown> | null = null;
  if (spec.usage) {
    usage = {};
    let input = 0;
    let output = 0;
    for (const [stage, counts] of Object.entries(spec.usage)) {
      usage[stage] = {
        input_tokens: counts.input,
        output_tokens: counts.output,
        total_tokens: counts.input + counts.output,
        ...(counts.model === undefined ? {} : { model: counts.model }),
      };
      input += counts.input;
      output += counts.output;
    }
    usage.total = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }
  return parseVerificationResult({
    metadata: {
      question_id: spec.question ?? "q1",
      template_id: "0123456789abcdef0123456789abcdef",
      failure,
      question_text: spec.questionText ?? `Text of ${spec.question ?? "q1"}`,
      keywords: spec.keywords ?? null,
      answering: identity(spec.answering ?? "answerer"),
      parsing: identity(spec.parsing ?? "judge"),
      execution_time: spec.executionTime ?? 1,
      timestamp: spec.timestamp ?? "2026-04-21 12:00:00",
      result_id: spec.resultId ?? "0000000000000000",
      run_name: spec.runName ?? null,
      replicate: spec.replicate ?? null,
    },
    template: {
      template_verification_performed: spec.verify !== undefined,
      verify_result: spec.verify ?? null,
      answering_mcp_servers: spec.mcp ?? null,
      usage_metadata: usage,
      agent_metrics: spec.agentMetrics ?? null,
    },
    rubric: spec.rubric ?? null,
    deep_judgment: spec.judgment ? { deep_judgment_mode: "full", deep_judgment_performed: true } : null,
  });
}
