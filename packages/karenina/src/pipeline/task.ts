import type { Message } from "../llm/index.js";
import type { DynamicRubric, Rubric, TraitProvenance } from "../model/index.js";
import type { TemplateCode } from "../templates/index.js";
import type { SharedAnswer } from "./answer-share.js";
import type { ModelConfig } from "./config/index.js";

/** A question as the pipeline receives it: a finished question of a benchmark (spec 04 §1 step 3). */
export interface PipelineQuestion {
  id: string;
  text: string;
  /** The reference answer; shown only to rubric traits that opt in with `include_ground_truth`. */
  rawAnswer: string | null;
  /** Null in `rubric_only` runs of questions without a template. */
  template: TemplateCode | null;
  keywords: string[] | null;
  /** The question's own few-shot examples (its few-shot pool). */
  fewShotExamples: { question: string; answer: string }[];
  /** The question-specific rubric, merged with the global one at planning time. */
  rubric: Rubric | null;
  dynamicRubric: DynamicRubric | null;
  workspacePath: string | null;
}

/** One unit of work: a question × an answering model × a parsing model × a replicate (spec 04 §15.1). */
export interface VerificationTask {
  question: PipelineQuestion;
  answering: ModelConfig;
  parsing: ModelConfig;
  /** Null when the run has one replicate, else 1-based. */
  replicate: number | null;
  runName: string;
  /** Global and question rubric merged; null in `template_only` runs or when there are no traits. */
  rubric: Rubric | null;
  dynamicRubric: DynamicRubric | null;
  traitProvenance: Record<string, TraitProvenance>;
  /** Few-shot examples resolved for the answering prompt; empty when few-shot is off. */
  fewShotExamples: { question: string; answer: string }[];
  fewShotEnabled: boolean;
  /** MD5 of the normalised template code, or `no_template` (spec 04 §1). */
  templateId: string;
  /** `qid\tansKey\tparseKey[\trep<N>]`: the identity resume uses (spec 04 §16). */
  key: string;
  /**
   * Tasks with the same answer key share one generated answer (spec 04 §15.3): question, answering model
   * canonical identity and replicate (the recommended fix: not the answering model's `id`).
   */
  answerKey: string;
  /** How many tasks of the plan share this task's answer (its parsing models not skipped). */
  answerSharers: number;
  /** Warnings produced while planning the task (rubric merges), copied into its result. */
  planWarnings: string[];
  /** An answer supplied instead of generated (TaskEval, spec 05 §9). */
  cachedAnswer?: SharedAnswer;
  /** TaskEval: the question is synthetic, so rubric prompts leave the question block out. */
  taskEvalMode?: boolean;
  /** Set when the task is one turn of a scenario execution (spec 08 §4.4). */
  scenario?: ScenarioTurnFields;
}

/**
 * What a scenario turn adds to its task (spec 08 §4.4): where it is in the execution, the conversation it
 * continues and what earlier nodes left (for conditional ground truth). The task's `question.text` is the
 * text actually sent (a handover may have changed it); `question.id` is the URN of the node's own text.
 */
export interface ScenarioTurnFields {
  scenarioId: string;
  node: string;
  /** 0-based turn index. */
  turn: number;
  /** Node ids visited so far, this one included. */
  path: string[];
  /** Earlier visits of this node. */
  visitIndex: number;
  /** The conversation this turn continues, sent between the system message and the question. */
  history: Message[];
  /** `node_results` before this turn (spec 08 §2.12), for conditional ground truth. */
  nodeResults: Record<string, unknown>;
  /** `metadata.run_name` of the turn rows: null when the run was given none (quirk Q30). */
  runName: string | null;
}

/** The resume key of a task: `qid\tansKey\tparseKey` plus `\trep<N>` when replicated. */
export function taskKey(
  questionId: string,
  answeringKey: string,
  parsingKey: string,
  replicate: number | null,
): string {
  const base = `${questionId}\t${answeringKey}\t${parsingKey}`;
  return replicate === null ? base : `${base}\trep${replicate}`;
}
