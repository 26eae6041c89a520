import { describe, expect, test } from "vitest";
import { parseRubric } from "../model/index.js";
import { endpointModel, pipelineQuestion } from "../test-support/pipeline-context.js";
import { parseVerificationConfig } from "./config/index.js";
import { planTasks } from "./planning.js";
import { stagesFor } from "./stage-list.js";
import type { PipelineQuestion } from "./task.js";

const model = (id: string) => endpointModel("http://h", id);

function names(config: Record<string, unknown>, rubric: PipelineQuestion["rubric"] = null): string[] {
  const parsed = parseVerificationConfig({
    answering_models: [model("a")],
    parsing_models: [model("j")],
    ...config,
  });
  const question = pipelineQuestion({ rubric });
  const [task] = planTasks([question], parsed);
  if (task === undefined) throw new Error("no task planned");
  return stagesFor(parsed, task).map((stage) => stage.name);
}

const GUARDS = [
  "GenerateAnswer",
  "RecursionLimitAutoFail",
  "TraceValidationAutoFail",
  "PlaceholderRetryAutoFail",
];
const TEMPLATE_STAGES = ["ParseTemplate", "VerifyTemplate", "EmbeddingCheck"];
const rubric = parseRubric({ regex_traits: [{ name: "cites", pattern: String.raw`\[\d+\]` }] });

describe("the evaluation-mode stage matrix (spec 04 §6)", () => {
  test("template_only: validation, answer, guards, parse, verify, embedding check", () => {
    expect(names({}, rubric)).toEqual(["ValidateTemplate", ...GUARDS, ...TEMPLATE_STAGES]);
  });

  test("template_and_rubric adds rubric evaluation and its deep-judgment auto-fail when the rubric has traits", () => {
    expect(names({ evaluation_mode: "template_and_rubric" }, rubric)).toEqual([
      "ValidateTemplate",
      ...GUARDS,
      ...TEMPLATE_STAGES,
      "RubricEvaluation",
      "DeepJudgmentRubricAutoFail",
    ]);
    expect(names({ evaluation_mode: "template_and_rubric" })).toEqual([
      "ValidateTemplate",
      ...GUARDS,
      ...TEMPLATE_STAGES,
    ]);
  });

  test("rubric_only has no template stages, and ignores sufficiency but not abstention", () => {
    expect(
      names({ evaluation_mode: "rubric_only", abstention_enabled: true, sufficiency_enabled: true }, rubric),
    ).toEqual([...GUARDS, "AbstentionCheck", "RubricEvaluation", "DeepJudgmentRubricAutoFail"]);
  });

  test("the optional checks take their place: abstention, sufficiency, then parsing; deep judgment auto-fail last", () => {
    expect(
      names({ abstention_enabled: true, sufficiency_enabled: true, deep_judgment_mode: "full" }),
    ).toEqual([
      "ValidateTemplate",
      ...GUARDS,
      "AbstentionCheck",
      "SufficiencyCheck",
      ...TEMPLATE_STAGES,
      "DeepJudgmentAutoFail",
    ]);
  });
});
