/**
 * Scenario turn rows for the tests: hand-written test data (a capital-of-Australia pushback scenario), not
 * output of any model or run.
 */
import { parseVerificationResult, type VerificationResult } from "../../verification-result.js";
import type { ScenarioExecutionSummary } from "../scenario-execution-line.js";

export interface TurnSpec {
  scenario?: string;
  node: string;
  turn: number;
  path: string[];
  resultId: string;
  answering?: string;
  parsing?: string;
  replicate?: number | null;
  verify?: boolean | null;
  answer?: string;
  parsed?: Record<string, unknown> | null;
  failure?: { category: string; stage: string; reason: string } | null;
  questionText?: string;
  /** Leave out the template section (a turn that failed before answering). */
  noTemplate?: boolean;
}

/** One turn row with the scenario metadata of spec 08 §6.1. */
export function turnRow(spec: TurnSpec): VerificationResult {
  return parseVerificationResult({
    metadata: {
      question_id: `urn:uuid:question-${spec.node}`,
      template_id: "0123456789abcdef0123456789abcdef",
      failure: spec.failure ?? null,
      question_text: spec.questionText ?? `Question of ${spec.node}`,
      answering: { interface: "langchain", model_name: spec.answering ?? "solver" },
      parsing: { interface: "langchain", model_name: spec.parsing ?? "judge" },
      execution_time: 1.5,
      timestamp: "2026-01-01 00:00:00",
      result_id: spec.resultId,
      run_name: null,
      replicate: spec.replicate ?? null,
      scenario_id: spec.scenario ?? "capital-pushback",
      scenario_node: spec.node,
      scenario_turn: spec.turn,
      scenario_path: spec.path,
    },
    template: spec.noTemplate
      ? null
      : {
          raw_llm_response: spec.answer ?? "--- AI Message ---\nCanberra.",
          parsed_llm_response: spec.parsed === undefined ? { city: "Canberra" } : spec.parsed,
          template_verification_performed: spec.verify !== null && spec.verify !== undefined,
          verify_result: spec.verify ?? null,
        },
  });
}

/** A summary line's payload for rows already built. */
export function summaryOf(
  rows: readonly VerificationResult[],
  extra: Partial<ScenarioExecutionSummary> = {},
): ScenarioExecutionSummary {
  const first = rows[0]?.metadata;
  return {
    combo_key: `${first?.scenario_id}\tlangchain:solver:\tlangchain:judge:`,
    scenario_id: first?.scenario_id ?? "capital-pushback",
    status: "completed",
    replicate: first?.replicate ?? null,
    path: rows.map((row) => row.metadata.scenario_node ?? ""),
    turn_count: rows.length,
    outcome_results: {},
    terminal_failure: null,
    result_ids: rows.map((row) => row.metadata.result_id),
    ...extra,
  };
}
