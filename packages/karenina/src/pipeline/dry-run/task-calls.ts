import {
  assistantMessage,
  deserializeMessages,
  ManualTraces,
  type Message,
  prepareEvaluationInput,
  questionHash,
  ReplayMissError,
  type ReplayStore,
} from "../../llm/index.js";
import type { AnswerTemplate } from "../../templates/index.js";
import { displayString, type ModelConfig, modelIdentity } from "../config/index.js";
import type { VerificationTask } from "../task.js";
import {
  type AgenticJudging,
  agenticParseCalls,
  agenticTraitCalls,
  dynamicParseCalls,
} from "./agentic-calls.js";
import { ANSWER_MARKER, type CallPlanner, type PlannedCall, TRACE_MARKER } from "./planned-call.js";
import { rubricCalls } from "./rubric-calls.js";
import { abstentionCall, embeddingCalls, parseCalls, sufficiencyCall } from "./template-calls.js";

/**
 * Where a task's answer would come from: a live call, an answer supplied without a call (a manual trace or a
 * replay entry, with the text the judges will see), or nowhere (the task fails before any judge call).
 */
export type AnswerSource =
  | { kind: "live" }
  | {
      kind: "supplied";
      by: "manual" | "replay";
      trace: readonly Message[] | string;
      /** A replay entry with a parsed answer or a verdict: no parse call. */
      skipParse: boolean;
    }
  | { kind: "missing"; reason: string };

const manualRegistries = new WeakMap<object, ManualTraces>();

function manualTraces(model: ModelConfig): ManualTraces | null {
  const value = model.manual_traces;
  if (value === null) return null;
  let traces = manualRegistries.get(value);
  if (traces === undefined) {
    traces = ManualTraces.from(value);
    manualRegistries.set(value, traces);
  }
  return traces;
}

function replayedSource(task: VerificationTask, store: ReplayStore): AnswerSource | null {
  let entry: ReturnType<ReplayStore["lookup"]>;
  try {
    entry = store.lookup({
      question_id: task.question.id,
      answering_model_id: displayString(modelIdentity(task.answering, "answering")),
      replicate: task.replicate,
    });
  } catch (error) {
    if (error instanceof ReplayMissError)
      return { kind: "missing", reason: "no replay entry (strict replay)" };
    throw error;
  }
  if (entry === null) return null;
  let trace: readonly Message[] | string = entry.raw_trace;
  try {
    if (entry.trace_messages !== null) trace = deserializeMessages(entry.trace_messages);
  } catch {
    // The run falls back to the raw trace too.
  }
  return {
    kind: "supplied",
    by: "replay",
    trace,
    skipParse: entry.parsed_answer_fields !== null || entry.verify_result !== null,
  };
}

/** Where the answer of `task` comes from, in the run's order: replay store, manual trace, live call (spec 04 §5.2). */
export function answerSource(task: VerificationTask, replay: ReplayStore | null): AnswerSource {
  const replayed = replay === null ? null : replayedSource(task, replay);
  if (replayed !== null) return replayed;
  if (task.answering.interface !== "manual") return { kind: "live" };
  const record = manualTraces(task.answering)?.get(questionHash(task.question.text));
  if (record === undefined) return { kind: "missing", reason: "no manual trace for the question" };
  return { kind: "supplied", by: "manual", trace: record.messages ?? record.trace, skipParse: false };
}

/** Stages that never call a model. */
const NO_CALL_STAGES = new Set([
  "ValidateTemplate",
  "GenerateAnswer",
  "RecursionLimitAutoFail",
  "TraceValidationAutoFail",
  "PlaceholderRetryAutoFail",
  "VerifyTemplate",
  "DeepJudgmentAutoFail",
  "DeepJudgmentRubricAutoFail",
]);

/** The judge-side calls of one task, and the stages in its list this estimate does not know how to count. */
export interface JudgeCalls {
  calls: PlannedCall[];
  unestimated: string[];
}

/**
 * The judge-side calls of one task whose stage list is `stages`, on its happy path: no error, no abstention,
 * every answer sufficient, the embedding check's calls counted as if the field check failed. A live answer is
 * the answer placeholder; a supplied one is its own text. An answer whose final AI message cannot be extracted
 * stops the template stages (or the rubric stage) as the run does. Agentic judges see a live answer's whole
 * trace as a placeholder of `workspace.traceTokens`, and the task's workspace, if any.
 */
export function judgeCalls(
  planner: CallPlanner,
  task: VerificationTask,
  stages: readonly string[],
  source: Exclude<AnswerSource, { kind: "missing" }>,
  template: AnswerTemplate | null,
  agent: { traceTokens: number; workspacePath: string | null },
): JudgeCalls {
  const { config } = planner;
  const trace = source.kind === "live" ? [assistantMessage(ANSWER_MARKER)] : source.trace;
  const input = prepareEvaluationInput(trace, config.use_full_trace_for_template);
  const judging = { question: task.question.text, response: input.text };
  const agentic: AgenticJudging = {
    question: task.question.text,
    trace: source.kind === "live" ? TRACE_MARKER : prepareEvaluationInput(source.trace, true).text,
    traceTokens: agent.traceTokens,
    workspacePath: agent.workspacePath,
  };
  const calls: PlannedCall[] = [];
  const unestimated: string[] = [];
  for (const stage of stages) {
    if (stage === "AbstentionCheck") {
      if (input.error === null) calls.push(abstentionCall(planner, judging));
    } else if (stage === "SufficiencyCheck") {
      if (input.error === null && template !== null) calls.push(sufficiencyCall(planner, judging, template));
    } else if (stage === "ParseTemplate") {
      if (input.error !== null) break;
      const skip = source.kind === "supplied" && source.skipParse;
      if (template !== null && !skip) calls.push(...parseCalls(planner, judging, template));
    } else if (stage === "AgenticParseTemplate") {
      if (input.error !== null) break;
      const skip = source.kind === "supplied" && source.skipParse;
      if (template !== null && !skip)
        calls.push(...agenticParseCalls(planner, agentic, template, task.parsing));
    } else if (stage === "DynamicParseTemplate") {
      const skip = source.kind === "supplied" && source.skipParse;
      const final = prepareEvaluationInput(trace, false);
      if (template !== null && !skip)
        calls.push(
          ...dynamicParseCalls(
            planner,
            agentic,
            template,
            task.parsing,
            final.error === null ? final.text : null,
          ),
        );
    } else if (stage === "AgenticRubricEvaluation") {
      calls.push(...agenticTraitCalls(planner, agentic, task.rubric, task.parsing));
    } else if (stage === "EmbeddingCheck") {
      if (config.embedding_check_enabled && template !== null)
        calls.push(...embeddingCalls(planner, task.question.text, template));
    } else if (stage === "RubricEvaluation") {
      const rubricInput = prepareEvaluationInput(trace, config.use_full_trace_for_rubric);
      if (rubricInput.error !== null) break;
      calls.push(
        ...rubricCalls(planner, {
          questionId: task.question.id,
          question: task.taskEvalMode === true ? null : task.question.text,
          referenceAnswer: task.question.rawAnswer,
          response: rubricInput.text,
          rubric: task.rubric,
          dynamicRubric: task.dynamicRubric,
        }),
      );
    } else if (!NO_CALL_STAGES.has(stage)) {
      unestimated.push(stage);
    }
  }
  return { calls, unestimated };
}
