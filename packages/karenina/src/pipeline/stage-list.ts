import { rubricTraits } from "../model/index.js";
import type { VerificationConfig } from "./config/index.js";
import type { Stage } from "./stage.js";
import { abstentionCheckStage } from "./stages/abstention-check.js";
import { agenticParseTemplateStage } from "./stages/agentic-parse-template.js";
import { agenticRubricEvaluationStage } from "./stages/agentic-rubric-evaluation.js";
import { deepJudgmentAutoFailStage } from "./stages/deep-judgment-auto-fail.js";
import { deepJudgmentRubricAutoFailStage } from "./stages/deep-judgment-rubric-auto-fail.js";
import { dynamicParseTemplateStage } from "./stages/dynamic-parse-template.js";
import { embeddingCheckStage } from "./stages/embedding-check.js";
import { generateAnswerStage } from "./stages/generate-answer.js";
import { parseTemplateStage } from "./stages/parse-template.js";
import { placeholderRetryAutoFailStage } from "./stages/placeholder-retry-auto-fail.js";
import { recursionLimitAutoFailStage } from "./stages/recursion-limit-auto-fail.js";
import { rubricEvaluationStage } from "./stages/rubric-evaluation.js";
import { sufficiencyCheckStage } from "./stages/sufficiency-check.js";
import { traceValidationAutoFailStage } from "./stages/trace-validation-auto-fail.js";
import { validateTemplateStage } from "./stages/validate-template.js";
import { verifyTemplateStage } from "./stages/verify-template.js";
import type { VerificationTask } from "./task.js";

function hasNonAgenticTraits(task: VerificationTask): boolean {
  const staticTraits = rubricTraits(task.rubric).some((trait) => trait.type !== "agentic");
  const dynamicTraits = rubricTraits(task.dynamicRubric).some((trait) => trait.type !== "agentic");
  return staticTraits || dynamicTraits;
}

function hasAgenticTraits(task: VerificationTask): boolean {
  return rubricTraits(task.rubric).some((trait) => trait.type === "agentic");
}

/**
 * The stages of one task, in execution order, per the evaluation-mode matrix of spec 04 §6.
 * Differences from the original (docs/decisions.md): DeepJudgmentRubricAutoFail is included whenever rubric
 * evaluation is (it skips itself when rubric deep judgment did not run), not only with template deep judgment.
 */
export function stagesFor(config: VerificationConfig, task: VerificationTask): readonly Stage[] {
  const nonAgentic = hasNonAgenticTraits(task);
  const agentic = hasAgenticTraits(task);
  const key = `${nonAgentic}|${agentic}`;
  const lists = stageLists.get(config) ?? new Map<string, readonly Stage[]>();
  stageLists.set(config, lists);
  let stages = lists.get(key);
  if (stages === undefined) {
    stages = Object.freeze(buildStages(config, nonAgentic, agentic));
    lists.set(key, stages);
  }
  return stages;
}

/** A run's stage lists, per config and rubric shape: every task of a run shares a handful of lists. */
const stageLists = new WeakMap<VerificationConfig, Map<string, readonly Stage[]>>();

/** The parse stage: 7a, or with `agentic_parsing` 7b (trigger `always`) or 7b′ (trigger `dynamic`). */
function parseStage(config: VerificationConfig): Stage {
  if (!config.agentic_parsing) return parseTemplateStage;
  return config.agentic_parsing_trigger === "dynamic" ? dynamicParseTemplateStage : agenticParseTemplateStage;
}

function buildStages(config: VerificationConfig, nonAgentic: boolean, agenticTraits: boolean): Stage[] {
  const templateMode = config.evaluation_mode !== "rubric_only";
  const rubricMode = config.evaluation_mode !== "template_only";
  const stages: Stage[] = [];
  if (templateMode) stages.push(validateTemplateStage);
  stages.push(
    generateAnswerStage,
    recursionLimitAutoFailStage,
    traceValidationAutoFailStage,
    placeholderRetryAutoFailStage,
  );
  if (config.abstention_enabled) stages.push(abstentionCheckStage);
  if (config.sufficiency_enabled && templateMode) stages.push(sufficiencyCheckStage);
  if (templateMode) {
    // Seed 002 §3: only one of 7a, 7b and 7b′ is ever in a pipeline.
    stages.push(parseStage(config), verifyTemplateStage, embeddingCheckStage);
    if (config.deep_judgment_mode !== "disabled") stages.push(deepJudgmentAutoFailStage);
  }
  if (rubricMode && nonAgentic) {
    stages.push(rubricEvaluationStage, deepJudgmentRubricAutoFailStage);
  }
  if (rubricMode && agenticTraits) stages.push(agenticRubricEvaluationStage);
  return stages;
}
