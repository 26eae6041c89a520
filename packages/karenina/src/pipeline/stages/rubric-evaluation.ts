import { type Message, prepareEvaluationInput } from "../../llm/index.js";
import { type DynamicRubric, type Rubric, rubricTraits, type TraitProvenance } from "../../model/index.js";
import { buildRubricResult, type VerificationResultRubric } from "../../rubrics/index.js";
import type { VerificationContext } from "../context.js";
import {
  callableRuntime,
  createRubricJudge,
  type DynamicResolution,
  errorMessage,
  evaluateRubric,
  excerptSearch,
  type RubricEvaluation,
  resolveDynamicRubric,
  rubricDeepJudgmentSettings,
} from "../rubric-evaluation/index.js";
import type { Stage } from "../stage.js";
import { searchFailureWarning } from "../web-search/index.js";

const hasNonAgenticTraits = (rubric: Rubric | DynamicRubric | null) =>
  rubricTraits(rubric).some((trait) => trait.type !== "agentic");

/** Whether a rubric has a trait this stage evaluates: LLM, regex, callable or metric. */
const hasEvaluableTraits = hasNonAgenticTraits;

/** The answer as the rubric sees it: the trace messages when there are any, else the raw response. */
function answerTrace(ctx: VerificationContext): readonly Message[] | string {
  const messages = ctx.artifacts.traceMessages;
  return messages !== null && messages !== undefined && messages.length > 0
    ? messages
    : (ctx.artifacts.rawLlmResponse ?? "");
}

/** The rubric result fields this stage owns (the agentic stage adds its own). */
type RubricFields = Omit<
  VerificationResultRubric,
  "agentic_trait_scores" | "agentic_trait_investigation_traces" | "agentic_trait_extraction_metadata"
>;

function rubricFields(
  ctx: VerificationContext,
  rubric: Rubric | null,
  dynamic: DynamicResolution,
  evaluation: RubricEvaluation | null,
): RubricFields {
  const provenance: Record<string, TraitProvenance> = { ...ctx.task.traitProvenance };
  for (const name of dynamic.promoted) provenance[name] = "dynamic";
  const {
    agentic_trait_scores: _scores,
    agentic_trait_investigation_traces: _traces,
    agentic_trait_extraction_metadata: _metadata,
    ...fields
  } = buildRubricResult({
    rubric: rubric ?? {
      llm_traits: [],
      regex_traits: [],
      callable_traits: [],
      metric_traits: [],
      agentic_traits: [],
    },
    scores: evaluation?.verifyRubric ?? null,
    strategy: ctx.config.rubric_evaluation_strategy,
    ...(evaluation === null
      ? {}
      : {
          labels: evaluation.labels,
          metricScores: evaluation.metrics.metrics,
          confusionLists: evaluation.metrics.confusionLists,
        }),
    dynamicSkipped: dynamic.skipped,
    dynamicPromoted: dynamic.promoted,
    provenance,
  });
  return fields;
}

/** Writes the stage's artifacts and result fields. */
function store(
  ctx: VerificationContext,
  rubric: Rubric | null,
  dynamic: DynamicResolution,
  evaluation: RubricEvaluation | null,
): void {
  ctx.artifacts.evaluatedRubric = rubric;
  ctx.artifacts.verifyRubric = evaluation?.verifyRubric ?? null;
  ctx.draft.rubric = { ...ctx.draft.rubric, ...rubricFields(ctx, rubric, dynamic, evaluation) };
  if (evaluation?.deepJudgment) ctx.draft.deepJudgmentRubric = evaluation.deepJudgment;
}

async function evaluate(ctx: VerificationContext, rubric: Rubric, text: string): Promise<RubricEvaluation> {
  const { config, task } = ctx;
  const evaluation = await evaluateRubric(
    {
      judge: createRubricJudge(ctx),
      search: excerptSearch(
        config.deep_judgment_rubric_search_tool,
        config.deep_judgment_search_tool,
        ctx.services.env,
        (query, error) => ctx.warn(searchFailureWarning(query, error)),
      ),
      warn: (message) => ctx.warn(message),
    },
    {
      rubric,
      text,
      question: task.taskEvalMode === true ? null : task.question.text,
      referenceAnswer: task.question.rawAnswer,
      questionId: task.question.id,
      strategy: config.rubric_evaluation_strategy === "batch" ? "batch" : "sequential",
      deepJudgment: {
        settings: rubricDeepJudgmentSettings(config),
        fallbacks: {
          maxExcerpts: config.deep_judgment_max_excerpts_per_attribute,
          fuzzyMatchThreshold: config.deep_judgment_fuzzy_match_threshold,
          excerptRetryAttempts: config.deep_judgment_excerpt_retry_attempts,
        },
      },
      callables: await callableRuntime(
        rubric,
        ctx.services.pythonSandbox,
        ctx.services.callables ?? undefined,
      ),
    },
  );
  for (const [name, message] of Object.entries(evaluation.traitErrors)) {
    ctx.warn(`Rubric trait "${name}" has no score: ${message}`);
  }
  return evaluation;
}

/**
 * Stage 11a (spec 04 §5.11): resolves the dynamic rubric (presence check, §12.6), then evaluates the rubric's
 * regex, callable, LLM (standard or deep judgment, §9.2, §12) and metric traits on the answer — the whole trace
 * or the final AI message, per `use_full_trace_for_rubric`. A final message that cannot be extracted is a task
 * error. A failing evaluation (a judge error after retries, a failed batch call) is not: the task gets the
 * warning "Rubric evaluation failed: …" and no rubric scores. A dynamic-rubric conflict or a failing presence
 * call escape the stage and become the task's error, as in the original.
 */
export const rubricEvaluationStage: Stage = {
  name: "RubricEvaluation",
  needs: ["rawLlmResponse", "traceMessages"],
  gives: ["evaluatedRubric", "verifyRubric"],
  shouldRun(ctx) {
    if (ctx.error !== null) return false;
    if (hasNonAgenticTraits(ctx.task.dynamicRubric)) return true;
    if (!hasEvaluableTraits(ctx.task.rubric)) return false;
    return !(ctx.artifacts.traceValidationFailed === true && !ctx.config.use_full_trace_for_rubric);
  },
  async run(ctx) {
    const trace = answerTrace(ctx);
    const dynamic = await resolveDynamicRubric(ctx, ctx.task.rubric, ctx.task.dynamicRubric, trace);
    const rubric = dynamic.rubric;
    const input = prepareEvaluationInput(trace, ctx.config.use_full_trace_for_rubric);
    if (input.error !== null) {
      ctx.artifacts.evaluatedRubric = rubric;
      ctx.artifacts.verifyRubric = null;
      ctx.markError(`Rubric evaluation: ${input.error}`);
      return;
    }
    if (rubric === null || !hasEvaluableTraits(rubric)) {
      store(ctx, rubric, dynamic, null);
      return;
    }
    let evaluation: RubricEvaluation | null = null;
    try {
      evaluation = await evaluate(ctx, rubric, input.text);
    } catch (error) {
      if (ctx.aborted) throw error;
      ctx.warn(`Rubric evaluation failed: ${errorMessage(error)}`);
    }
    store(ctx, rubric, dynamic, evaluation);
  },
};
