/**
 * A few hundred crafted rows of every kind the summary and the comparison read. Hand-written test data, not
 * the output of any model or run.
 */
import { richResult } from "../../storage/__fixtures__/results.js";
import type { VerificationResult } from "../verification-result.js";
import { row } from "./rows.js";

const FAILURES = ["timeout", "parsing", "rate_limit", "content", "abstention", "recursion_limit"] as const;

/**
 * A few hundred rows of every kind the summary reads: passes, template failures, system failures, rubric-only
 * rows, rows with deep judgment and every kind of rubric trait (the storage fixture), replicates, keywords, MCP
 * servers, usage with and without a `total` entry, agent metrics, several model combinations, duplicate keys.
 */
export function mixedRows(seed: number): VerificationResult[] {
  const rows: VerificationResult[] = [];
  for (let i = 0; i < 300; i++) {
    const question = `q${(i * 7 + seed) % 23}`;
    const replicate = i % 5 === 0 ? null : (i % 4) + 1;
    const kind = (i + seed) % 6;
    if (kind === 0) {
      rows.push(
        richResult({ questionId: question, replicate, passed: i % 3 !== 0, answeringModel: `m${i % 2}` }),
      );
      continue;
    }
    rows.push(
      row({
        question,
        keywords: i % 3 === 0 ? ["oncology", "__proto__"] : i % 3 === 1 ? null : ["cardio"],
        answering: i % 4 === 0 ? "anthropic:claude" : "answerer",
        parsing: i % 7 === 0 ? "judge-b" : "judge",
        mcp: i % 9 === 0 ? ["files", "search"] : null,
        replicate,
        runName: `run-${seed}`,
        verify: kind === 5 ? undefined : (i + seed) % 3 !== 0,
        failure: kind === 4 ? { category: FAILURES[i % FAILURES.length] as string } : undefined,
        executionTime: (i % 10) / 4,
        usage:
          i % 8 === 0
            ? null
            : {
                answer_generation: { input: 100 + i, output: 10 + (i % 13), model: i % 2 ? "gpt" : "" },
                parsing: { input: 50, output: i % 3 },
                ...(i % 5 === 0 ? { rubric_evaluation: { input: 30, output: 3 } } : {}),
                ...(i % 6 === 0 ? { deep_judgment_excerpts: { input: 70, output: 9 } } : {}),
              },
        agentMetrics:
          i % 4 === 0
            ? {
                iterations: 1 + (i % 5),
                tool_calls: i % 3,
                tool_call_counts: { search: i % 3 },
                limit_reached: false,
              }
            : null,
        rubric:
          kind === 5 || i % 3 === 0
            ? {
                rubric_evaluation_performed: true,
                llm_trait_scores: { clarity: (i % 5) + 1, safe: i % 2 === 0, tone: i % 3 },
                llm_trait_labels: i % 2 === 0 ? { tone: ["neutral", "warm", "cold"][i % 3] } : null,
                regex_trait_scores: { cites: i % 4 === 0 },
                callable_trait_scores: { short: i % 3 === 0 ? true : 0.5 },
                metric_trait_scores: { coverage: { precision: (i % 4) / 4, recall: 0.5 } },
                metric_trait_confusion_lists:
                  i % 2 === 0 ? { coverage: { tp: ["A", "B"], fn: ["C"], fp: [], tn: [] } } : null,
                agentic_trait_scores: i % 5 === 0 ? { looked_up: i % 2 === 0, unknown: null } : null,
              }
            : null,
        judgment: i % 10 === 0,
        timestamp: `2026-04-21 12:00:${String(i % 60).padStart(2, "0")}`,
        resultId: (i + seed * 1000).toString(16).padStart(16, "0"),
      }),
    );
  }
  return rows;
}
