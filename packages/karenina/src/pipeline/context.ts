import type { Workspace } from "../agentic/index.js";
import type { ErrorCategory, Message, UsageMetadata } from "../llm/index.js";
import type { Rubric } from "../model/index.js";
import {
  RetryTracker,
  UsageTracker,
  type VerificationResultDeepJudgment,
  type VerificationResultDeepJudgmentRubric,
  type VerificationResultRubric,
  type VerificationResultTemplate,
} from "../results/index.js";
import type { AnswerTemplate, TemplateEvaluation } from "../templates/index.js";
import type { VerificationConfig } from "./config/index.js";
import { ModelCalls } from "./model-calls.js";
import type { RunServices } from "./services.js";
import type { VerificationTask } from "./task.js";

/**
 * What one stage hands to later ones (spec 04 §4 "artifacts"). Stages declare the keys they need and give;
 * the orchestrator checks, before running a task, that every needed key is given by an earlier stage.
 */
export interface Artifacts {
  /** The loaded template (ValidateTemplate). */
  template: AnswerTemplate;
  templateValidationError: string | null;
  /** The answering model's full trace as text (spec 04 §11.1). */
  rawLlmResponse: string;
  /** The trace as messages; null when only text is known (a replayed string trace). */
  traceMessages: Message[] | null;
  /** The messages sent to the answering model. */
  conversationContext: Message[];
  recursionLimitReached: boolean;
  /**
   * The directory the answering agent worked in and judges investigate (seed 002 §2: `WORKSPACE_PATH` and
   * `workspace_is_copy`); null when the task has none. Never persisted in the result.
   */
  workspace: Workspace | null;
  /** The answer was cut by a timeout and only part of it is known. */
  responseTimeoutPartial: boolean;
  answeringModelStr: string;
  mcpEnabled: boolean;
  traceValidationFailed: boolean;
  abstentionDetected: boolean | null;
  /** True = sufficient (the original's naming). */
  sufficiencyDetected: boolean | null;
  /** A replayed answer's captured verdict (spec 05 §8.2): parsing is skipped when no parsed fields come with it. */
  replayedVerdict: boolean;
  /** A replayed answer's captured parsed fields: used instead of a judge call when they fit the template. */
  replayedParsedAnswer: Record<string, unknown>;
  /** The judge's raw reply when it could not be parsed, kept for the failure record. */
  judgeRawResponse: string | null;
  /** The judge's answer: field name → value, ground truth never included. */
  parsedAnswer: Record<string, unknown>;
  parsingModelStr: string;
  /** The agentic judge's investigation, as a raw trace (stage 7b). */
  investigationTrace: string;
  agenticParsingPerformed: boolean;
  /** Dynamic parsing's decision reply was malformed and escalated (stage 7b′): the result gets a caveat. */
  parseDecisionMalformed: boolean;
  /** The template's verdict on the parsed answer. */
  templateEvaluation: TemplateEvaluation;
  fieldVerificationResult: boolean;
  verifyResult: boolean | null;
  deepJudgmentPerformed: boolean;
  deepJudgmentReasoningOnly: boolean;
  attributesWithoutExcerpts: string[];
  /** The rubric actually evaluated: the task's rubric plus promoted dynamic traits. */
  evaluatedRubric: Rubric | null;
  /** The flat name → value map of evaluated traits (`verify_rubric`). */
  verifyRubric: Record<string, unknown> | null;
}

export type ArtifactKey = keyof Artifacts;

/** The error that stopped a task's stages (spec 04 §4 `markError`). */
export interface TaskError {
  message: string;
  category: ErrorCategory;
  stage: string | null;
}

/** Result fields stages write as they go; FinalizeResult turns them into a `VerificationResult`. */
export interface ResultDraft {
  template: Partial<VerificationResultTemplate>;
  rubric: Partial<VerificationResultRubric> | null;
  deepJudgment: Partial<VerificationResultDeepJudgment> | null;
  deepJudgmentRubric: Partial<VerificationResultDeepJudgmentRubric> | null;
  evaluationInput: string | null;
  usedFullTrace: boolean | null;
  traceExtractionError: string | null;
  /** The first guard stage that forced a failing verdict ("first guard wins"). */
  failedStage: string | null;
  fieldVerificationError: string | null;
}

const WARNING_LIMIT = 50;

/**
 * The mutable state of one task while its stages run (spec 04 §4): the task, the run's config, typed
 * artifacts, the result draft, the error state, warnings, usage and retry counts, and the model calls.
 */
export class VerificationContext {
  readonly calls: ModelCalls;
  readonly artifacts: Partial<Artifacts> = {};
  readonly draft: ResultDraft = {
    template: {},
    rubric: null,
    deepJudgment: null,
    deepJudgmentRubric: null,
    evaluationInput: null,
    usedFullTrace: null,
    traceExtractionError: null,
    failedStage: null,
    fieldVerificationError: null,
  };
  readonly warnings: string[] = [];
  readonly usage = new UsageTracker();
  readonly retries: RetryTracker;
  readonly startedAt = Date.now();
  error: TaskError | null = null;
  currentStage: string | null = null;

  constructor(
    readonly task: VerificationTask,
    readonly config: VerificationConfig,
    readonly services: RunServices,
  ) {
    this.retries = new RetryTracker(task.answering.retry_policy ?? config.retry_policy);
    this.calls = new ModelCalls(services, {
      replicate: task.replicate,
      recordUsage: (stage, usage, cached) => this.recordUsage(stage, usage, cached),
      recordRetry: (category) => this.retries.record(category),
    });
    for (const warning of task.planWarnings) this.warn(warning);
  }

  /** Records a warning; after 50, one truncation marker and nothing more. */
  warn(message: string): void {
    if (this.warnings.length < WARNING_LIMIT) this.warnings.push(message);
    else if (this.warnings.length === WARNING_LIMIT) this.warnings.push("warnings truncated");
  }

  /** Stops the task's remaining stages (those that skip on error) with an error (spec 04 §4). */
  markError(message: string, category: ErrorCategory = "permanent", stage?: string): void {
    if (this.error !== null) this.warn(`previous error overwritten: ${this.error.message}`);
    this.error = { message, category, stage: stage ?? this.currentStage };
  }

  /** Sets `failed_stage` unless an earlier guard already did ("first guard wins"). */
  failAt(stage: string): void {
    this.draft.failedStage ??= stage;
  }

  /** A guard stage's verdict: template verification fails, and the stage is named as the failure. */
  forceFail(stage: string): void {
    this.artifacts.verifyResult = false;
    this.artifacts.fieldVerificationResult = false;
    this.draft.template.verify_result = false;
    this.failAt(stage);
  }

  /**
   * Whether a response cut by a timeout may still be scored (spec 04 §4): allowed by the config, the
   * response is partial, and the only error is that timeout.
   */
  canScorePartialTimeout(): boolean {
    return (
      this.config.allow_partial_trace_scoring &&
      this.artifacts.responseTimeoutPartial === true &&
      (this.error === null || this.error.category === "timeout")
    );
  }

  /** Adds a call's usage to the task's per-stage usage and to the run's totals. */
  recordUsage(stage: string, usage: UsageMetadata, cached = false): void {
    this.usage.record(stage, usage);
    if (!cached) this.services.stats.addUsage(usage);
  }

  /** The run was cancelled: the task stops without a result. */
  get aborted(): boolean {
    return this.services.signal?.aborted === true;
  }

  /** Seconds since the task started. */
  elapsedSeconds(): number {
    return (Date.now() - this.startedAt) / 1000;
  }
}
