import type { AgentMetrics, StageUsage, VerificationResult } from "./verification-result.js";

// A result cut down to what the aggregate views read, so that a summary of 100,000 stored rows parses a few
// hundred bytes per row instead of the whole trace. The digest has the shape of a VerificationResult with the
// unread fields left out: it is for summarizeResults, compareRuns, rowOutcome, the row keys and
// compareModels only. Stored as ASCII-only JSON (see digestJson): a run's digests are read 100,000 at a time,
// and text that is all ASCII reaches JavaScript and JSON.parse on their fast paths.

/**
 * The digest format. Stored digests carry it; a reader treats a digest of another version as absent (and
 * reads the whole row), so changing {@link resultDigest} means bumping this number.
 */
export const RESULT_DIGEST_VERSION = 2;

/** Only the keys of a map matter to the reader: the values are dropped (kept as null). */
function keysOnly(map: Record<string, unknown> | null | undefined): Record<string, null> | null | undefined {
  if (map === null || map === undefined) return map;
  return Object.fromEntries(Object.keys(map).map((key) => [key, null]));
}

/** What the summary's trace statistics and the model comparison read of the agent metrics. */
function agentCounts(metrics: AgentMetrics | null): Partial<AgentMetrics> | null {
  if (metrics === null) return null;
  return {
    iterations: metrics.iterations,
    ...(metrics.tool_calls === undefined ? {} : { tool_calls: metrics.tool_calls }),
    ...(metrics.tool_call_counts === undefined ? {} : { tool_call_counts: metrics.tool_call_counts }),
  };
}

/** Per stage: the token counts and the model the summary prices them as (provider details dropped). */
function usageCounts(usage: Record<string, StageUsage> | null): Record<string, StageUsage> | null {
  if (usage === null) return null;
  return Object.fromEntries(
    Object.entries(usage).map(([stage, counts]) => [
      stage,
      {
        input_tokens: counts.input_tokens,
        output_tokens: counts.output_tokens,
        total_tokens: counts.total_tokens,
        ...(counts.model === undefined ? {} : { model: counts.model }),
      },
    ]),
  );
}

/**
 * The parts of a result that `summarizeResults` (without prices or with them), `compareRuns`, `rowOutcome`,
 * `rowKey` and `modelComboKey` read, as a `VerificationResult` missing everything else: traces, parsed
 * responses, reasoning texts, excerpts. Those functions give the same output on the digests as on the
 * results; nothing else may be given a digest.
 * @example
 * const row = parseVerificationResult({
 *   metadata: { question_id: "q1", template_id: "t", question_text: "Why?",
 *     answering: { interface: "openai", model_name: "gpt-4.1" }, parsing: { interface: "openai", model_name: "gpt-4.1" },
 *     execution_time: 1, timestamp: "2026-04-21 12:00:00", result_id: "0000000000000001" },
 *   template: { raw_llm_response: "a long trace", template_verification_performed: true, verify_result: true },
 * });
 * const digest = resultDigest(row);
 * digest.template?.raw_llm_response; // undefined
 * rowOutcome(digest); // "passed"
 */
export function resultDigest(result: VerificationResult): VerificationResult {
  const { metadata, template, rubric, deep_judgment } = result;
  const digest = {
    metadata: {
      question_id: metadata.question_id,
      question_text: metadata.question_text,
      result_id: metadata.result_id,
      timestamp: metadata.timestamp,
      failure:
        metadata.failure === null
          ? null
          : {
              category: metadata.failure.category,
              stage: metadata.failure.stage,
              reason: metadata.failure.reason,
              group: metadata.failure.group,
            },
      keywords: metadata.keywords,
      answering: metadata.answering,
      parsing: metadata.parsing,
      execution_time: metadata.execution_time,
      run_name: metadata.run_name,
      replicate: metadata.replicate,
      // Read only inside row keys, where an absent value and null serialise alike.
      ...(metadata.scenario_id === null ? {} : { scenario_id: metadata.scenario_id }),
      ...(metadata.scenario_node === null ? {} : { scenario_node: metadata.scenario_node }),
      ...(metadata.scenario_turn === null ? {} : { scenario_turn: metadata.scenario_turn }),
    },
    template:
      template === null
        ? null
        : {
            template_verification_performed: template.template_verification_performed,
            verify_result: template.verify_result,
            answering_mcp_servers: template.answering_mcp_servers,
            usage_metadata: usageCounts(template.usage_metadata),
            agent_metrics: agentCounts(template.agent_metrics),
          },
    rubric:
      rubric === null
        ? null
        : {
            rubric_evaluation_performed: rubric.rubric_evaluation_performed,
            llm_trait_scores: rubric.llm_trait_scores,
            llm_trait_labels: rubric.llm_trait_labels,
            regex_trait_scores: rubric.regex_trait_scores,
            callable_trait_scores: rubric.callable_trait_scores,
            metric_trait_scores: rubric.metric_trait_scores,
            metric_trait_confusion_lists: keysOnly(rubric.metric_trait_confusion_lists),
            agentic_trait_scores: rubric.agentic_trait_scores,
          },
    deep_judgment:
      deep_judgment === null ? null : { deep_judgment_performed: deep_judgment.deep_judgment_performed },
  };
  return digest as unknown as VerificationResult;
}

/** A character JSON text may hold that is not ASCII (lone surrogates included: JSON.stringify escapes them). */
const NON_ASCII = /[\u0080-\uffff]/g;

const escapeChar = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * The stored form of a result's digest: the JSON of {@link resultDigest} with every character beyond ASCII
 * written as a `\uXXXX` escape. `JSON.parse` gives back the same digest; the text, all ASCII, is read from the
 * database into a one-byte string and parsed on V8's fast path (a summary of 100,000 rows with French and
 * Chinese question texts reads and parses about twice as fast). For any row, `JSON.parse(digestJson(row))`
 * deep-equals `resultDigest(row)` (pinned by `result-digest.test.ts`).
 */
export function digestJson(result: VerificationResult): string {
  return JSON.stringify(resultDigest(result)).replace(NON_ASCII, escapeChar);
}
