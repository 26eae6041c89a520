import { agentMetrics, type Message, renderRawTrace } from "../../llm/index.js";
import {
  type DynamicRubric,
  type Rubric,
  type RubricTrait,
  rubricFromTraits,
  rubricTraits,
} from "../../model/index.js";
import type { VerificationResult } from "../../results/index.js";
import type { TemplateCode } from "../../templates/index.js";
import type { SharedAnswer } from "../answer-share.js";
import { runBatch } from "../batch.js";
import { describeException } from "../classify-error.js";
import type { ModelConfig, VerificationConfig } from "../config/index.js";
import { planTasks } from "../planning.js";
import type { RunServices } from "../services.js";
import type { PipelineQuestion, VerificationTask } from "../task.js";
import { DuplicateTraitError, NothingToEvaluateError, TaskEvalError } from "./errors.js";
import { type LogEntry, type MergeStrategy, mergeLogs } from "./logs.js";
import { TASKEVAL_PASS_THROUGH_TEMPLATE } from "./pass-through-template.js";
import { StepEval } from "./step-eval.js";

/** A question of a scope, as `addQuestion` stores it. */
export interface ScopeQuestion {
  id: string;
  text: string;
  rawAnswer: string | null;
  keywords: string[] | null;
  template: TemplateCode | null;
}

/**
 * What one scope of a TaskEval (the global scope or a step) holds: logs, questions, templates, rubrics. It is
 * planned as one pipeline run by {@link planScope} and run by {@link runScope}.
 */
export class Scope {
  readonly logs: LogEntry[] = [];
  readonly questions = new Map<string, ScopeQuestion>();
  /** Templates given for one question, by question id. */
  readonly questionTemplates = new Map<string, TemplateCode>();
  /** The template of the scope's questions that have none of their own. */
  defaultTemplate: TemplateCode | null = null;
  rubric: Rubric | null = null;
  dynamicRubric: DynamicRubric | null = null;

  get hasTemplates(): boolean {
    return (
      this.defaultTemplate !== null ||
      this.questionTemplates.size > 0 ||
      [...this.questions.values()].some((question) => question.template !== null)
    );
  }

  get hasRubric(): boolean {
    return rubricTraits(this.rubric).length > 0 || rubricTraits(this.dynamicRubric).length > 0;
  }

  /** Something to evaluate the logs with. */
  get hasAttachments(): boolean {
    return this.hasTemplates || this.hasRubric;
  }

  templateOf(question: ScopeQuestion): TemplateCode | null {
    return this.questionTemplates.get(question.id) ?? question.template ?? this.defaultTemplate;
  }
}

type EvaluationMode = VerificationConfig["evaluation_mode"];

/** One scope, planned: its tasks (each with the logged answer) and the questions it could not plan. */
export interface ScopePlan {
  stepId: string | null;
  config: VerificationConfig;
  tasks: VerificationTask[];
  failedQuestions: Record<string, string[]>;
  questionOrder: string[];
}

export function describeScope(stepId: string | null): string {
  return stepId === null ? "the global scope" : `step "${stepId}"`;
}

/** The rubric of a scope with `added` merged in. @throws {DuplicateTraitError} on a name already used. */
export function mergeInto<R extends Rubric>(
  existing: R | null,
  added: R,
  stepId: string | null,
  dynamic: boolean,
): R {
  const names = new Set(rubricTraits(existing).map((trait) => trait.name));
  const traits: RubricTrait[] = rubricTraits(existing);
  for (const trait of rubricTraits(added)) {
    if (names.has(trait.name)) throw new DuplicateTraitError(trait.name, stepId, dynamic);
    names.add(trait.name);
    traits.push(trait);
  }
  return rubricFromTraits(traits) as R;
}

function detectMode(scope: Scope, stepId: string | null): EvaluationMode {
  if (scope.hasTemplates) return scope.hasRubric ? "template_and_rubric" : "template_only";
  if (scope.hasRubric) return "rubric_only";
  throw new NothingToEvaluateError(stepId);
}

/** The logged answer as GenerateAnswer takes a supplied one (spec 04 §5.2 step 3): no answering call is made. */
function loggedAnswer(messages: Message[]): SharedAnswer {
  const any = messages.length > 0;
  return {
    rawLlmResponse: any ? renderRawTrace(messages) : "",
    traceMessages: any ? messages : null,
    conversationContext: [],
    recursionLimitReached: false,
    responseTimeoutPartial: false,
    usage: null,
    usageUnavailable: false,
    agentMetrics: any ? agentMetrics(messages, false) : null,
    answeringMcpServers: null,
  };
}

/** What planning a scope needs besides the scope. */
export interface PlanContext {
  config: VerificationConfig;
  answering: ModelConfig;
  runName: string;
  strategy: MergeStrategy;
}

function pipelineQuestion(question: ScopeQuestion, template: TemplateCode | null): PipelineQuestion {
  return {
    id: question.id,
    text: question.text,
    rawAnswer: question.rawAnswer,
    template,
    keywords: question.keywords,
    fewShotExamples: [],
    rubric: null,
    dynamicRubric: null,
    workspacePath: null,
  };
}

/**
 * The tasks of one scope: the questions to evaluate (a synthetic one in rubric-only mode without questions),
 * each × the config's replicates, against the first parsing model, with the scope's merged logs as answer.
 */
export function planScope(scope: Scope, stepId: string | null, context: PlanContext): ScopePlan {
  const mode = detectMode(scope, stepId);
  for (const questionId of scope.questionTemplates.keys()) {
    if (!scope.questions.has(questionId)) {
      throw new TaskEvalError(
        `a template is attached to question "${questionId}", which is not in ${describeScope(stepId)}: add it with addQuestion first`,
      );
    }
  }
  const failedQuestions: Record<string, string[]> = {};
  const questions: PipelineQuestion[] = [];
  if (mode === "rubric_only") {
    const scoped = [...scope.questions.values()];
    if (scoped.length === 0) {
      const prefix = stepId === null ? "" : `${stepId}_`;
      const suffix = stepId === null ? "" : ` in step ${stepId}`;
      scoped.push({
        id: `${prefix}rubric_only_eval`,
        text: `Evaluate the logged output${suffix}`,
        rawAnswer: null,
        keywords: null,
        template: null,
      });
    }
    for (const question of scoped) questions.push(pipelineQuestion(question, TASKEVAL_PASS_THROUGH_TEMPLATE));
  } else {
    if (scope.questions.size === 0) {
      throw new TaskEvalError(
        `${describeScope(stepId)} has a template but no question: add the question the logged output answers with addQuestion`,
      );
    }
    for (const question of scope.questions.values()) {
      const template = scope.templateOf(question);
      if (template === null) {
        failedQuestions[question.id] = [
          `no answer template for question "${question.id}" in ${describeScope(stepId)}: attach one with addTemplate(template, { questionId })`,
        ];
      } else {
        questions.push(pipelineQuestion(question, template));
      }
    }
  }
  const parsing = context.config.parsing_models[0] as ModelConfig;
  const config: VerificationConfig = {
    ...context.config,
    evaluation_mode: mode,
    answering_models: [context.answering],
    parsing_models: [parsing],
    parsing_only: true,
    few_shot_config: null,
    task_ordering: "generation_order",
    answerer_concurrency_limits: null,
  };
  const answer = loggedAnswer(mergeLogs(scope.logs, context.strategy));
  const tasks = planTasks(questions, config, {
    globalRubric: scope.rubric,
    globalDynamicRubric: scope.dynamicRubric,
    runName: context.runName,
  }).map((task) => ({ ...task, traitProvenance: {}, cachedAnswer: answer, taskEvalMode: true }));
  return { stepId, config, tasks, failedQuestions, questionOrder: questions.map((q) => q.id) };
}

/** Runs a scope's tasks and groups the results by question, in question and replicate order. */
export async function runScope(plan: ScopePlan, services: RunServices): Promise<StepEval> {
  const results = new Map<VerificationTask, VerificationResult>();
  const failedQuestions: Record<string, string[]> = { ...plan.failedQuestions };
  const outcome = await runBatch(plan.tasks, plan.config, services, {
    onResult: (result, task) => {
      results.set(task, result);
    },
  });
  for (const { task, error } of outcome.failures) {
    const id = task.question.id;
    failedQuestions[id] = [...(failedQuestions[id] ?? []), describeException(error)];
  }
  const byQuestion: Record<string, VerificationResult[]> = {};
  for (const id of plan.questionOrder) byQuestion[id] = [];
  for (const task of plan.tasks) {
    const result = results.get(task);
    if (result !== undefined) byQuestion[task.question.id]?.push(result);
  }
  for (const id of plan.questionOrder) {
    if (byQuestion[id]?.length === 0 && failedQuestions[id] !== undefined) delete byQuestion[id];
  }
  return new StepEval(byQuestion, failedQuestions);
}
