import { describe, expect, test } from "vitest";
import { mergeRubrics, parseRubric } from "../model/rubric/index.js";
import { buildRubricResult, getAllTraitScores, VerificationResultRubricSchema } from "./result.js";

describe("routing scores into the rubric result (spec 03 §9.6, §11)", () => {
  const globalRubric = parseRubric({
    llm_traits: [{ name: "clarity", kind: "score" }],
    regex_traits: [{ name: "has_citation", pattern: String.raw`\[\d+\]` }],
  });
  const questionRubric = parseRubric({
    llm_traits: [
      { name: "mentions_acetylation", kind: "boolean" },
      { name: "tone", kind: "literal", classes: { formal: "F", neutral: "N", casual: "C" } },
    ],
    metric_traits: [
      { name: "coverage", metrics: ["precision", "recall"], tp_instructions: ["COX-1", "COX-2"] },
    ],
  });
  const merged = mergeRubrics(globalRubric, questionRubric);

  test("reproduces the spec's example block", () => {
    const block = buildRubricResult({
      rubric: merged.rubric ?? parseRubric({}),
      scores: { clarity: 4, mentions_acetylation: true, tone: 1, has_citation: false },
      strategy: "batch",
      labels: { tone: "neutral" },
      metricScores: { coverage: { precision: 1.0, recall: 0.5 } },
      confusionLists: { coverage: { tp: ["COX-1"], fn: ["COX-2"], fp: [], tn: [] } },
      provenance: merged.provenance,
    });
    expect(block).toEqual({
      rubric_evaluation_performed: true,
      rubric_evaluation_strategy: "batch",
      llm_trait_scores: { clarity: 4, mentions_acetylation: true, tone: 1 },
      llm_trait_labels: { tone: "neutral" },
      regex_trait_scores: { has_citation: false },
      callable_trait_scores: null,
      metric_trait_scores: { coverage: { precision: 1.0, recall: 0.5 } },
      metric_trait_confusion_lists: { coverage: { tp: ["COX-1"], fn: ["COX-2"], fp: [], tn: [] } },
      agentic_trait_scores: null,
      agentic_trait_investigation_traces: null,
      agentic_trait_extraction_metadata: null,
      dynamic_rubric_skipped_traits: null,
      dynamic_rubric_promoted_traits: null,
      trait_provenance: {
        clarity: "global",
        has_citation: "global",
        mentions_acetylation: "question_specific",
        tone: "question_specific",
        coverage: "question_specific",
      },
    });
  });

  test("null values are dropped, template keys route by base name, empty maps become null", () => {
    const rubric = parseRubric({
      llm_traits: [
        { name: "structure", kind: { type: "template", schema: { properties: {} } }, higher_is_better: null },
      ],
      callable_traits: [{ name: "short", kind: "boolean", callable_code: "" }],
    });
    const block = buildRubricResult({
      rubric,
      scores: { "structure.steps": 3, "structure.ordered": null, short: null, unknown: 1 },
    });
    expect(block.llm_trait_scores).toEqual({ "structure.steps": 3 });
    expect(block.callable_trait_scores).toBeNull();
    expect(block.rubric_evaluation_performed).toBe(true);
    expect(buildRubricResult({ rubric, scores: null }).rubric_evaluation_performed).toBe(false);
  });

  test("agentic scores keep nulls, agentic traces drop them", () => {
    const block = buildRubricResult({
      rubric: parseRubric({}),
      scores: null,
      agenticScores: { tests_pass: null, "report.files": 2 },
      agenticTraces: { tests_pass: null, report: "ran ls" },
    });
    expect(block.agentic_trait_scores).toEqual({ tests_pass: null, "report.files": 2 });
    expect(block.agentic_trait_investigation_traces).toEqual({ report: "ran ls" });
  });

  test("getAllTraitScores merges llm, regex, callable, metric, agentic, later maps winning", () => {
    const block = VerificationResultRubricSchema.parse({
      llm_trait_scores: { a: 1, same: "llm" },
      regex_trait_scores: { b: true },
      metric_trait_scores: { m: { recall: 0.5 } },
      agentic_trait_scores: { same: "agentic" },
    });
    expect(getAllTraitScores(block)).toEqual({ a: 1, same: "agentic", b: true, m: { recall: 0.5 } });
  });
});
