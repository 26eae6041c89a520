import { isTemplateKind, type LlmTrait, type MetricTrait } from "../../model/index.js";
import {
  batchLiteralRequests,
  batchScoreRequests,
  type ConfusionLists,
  emptyConfusionLists,
  evaluateMetricReply,
  literalFailure,
  metricTraitRequest,
  parseBatchLiteralReply,
  parseBatchScoresReply,
  parseSequentialLiteralReply,
  parseSequentialScoreReply,
  parseTemplateTraitReply,
  type RubricJudgeRequest,
  type RubricPromptContext,
  sequentialLiteralRequest,
  sequentialScoreRequest,
  templateTraitRequest,
} from "../../rubrics/index.js";
import { errorMessage, isCancellation, type JudgeRequest, type RubricJudge } from "./judge.js";

/** How boolean/score and literal LLM traits are judged: all in one call, or one call per trait. */
export type RubricStrategy = "batch" | "sequential";

/** The scores of the LLM traits judged the standard way (spec 03 §9.3). */
export interface LlmTraitResults {
  /** Trait name (template kinds: `trait.field`) → value; null when that trait's call failed. */
  scores: Record<string, unknown>;
  /** Literal traits: trait name → class label (or the invalid label / error marker). */
  labels: Record<string, string>;
}

const toJudgeRequest = (request: RubricJudgeRequest): JudgeRequest => ({
  task: request.call,
  system: request.system,
  user: request.user,
  schema: request.schema,
  example: request.example,
});

/** The traits of a request, in the request's order. */
function requestTraits(traits: readonly LlmTrait[], request: RubricJudgeRequest): LlmTrait[] {
  const byName = new Map(traits.map((trait) => [trait.name, trait]));
  return request.traitNames.map((name) => byName.get(name)).filter((t): t is LlmTrait => t !== undefined);
}

/** Told about each trait that could not be evaluated (its value is then null or an error marker). */
export type TraitErrorReporter = (traitName: string, message: string) => void;

/**
 * Runs `evaluate` for each trait concurrently; a trait whose evaluation throws is reported and gets
 * `onError(trait, error)` instead, unless the run was cancelled. Results come back in trait order.
 */
async function perTrait<T extends { name: string }, R>(
  judge: RubricJudge,
  report: TraitErrorReporter,
  traits: readonly T[],
  evaluate: (trait: T) => Promise<R>,
  onError: (trait: T, error: unknown) => R,
): Promise<R[]> {
  return Promise.all(
    traits.map(async (trait) => {
      try {
        return await evaluate(trait);
      } catch (error) {
        if (isCancellation(judge, error)) throw error;
        report(trait.name, errorMessage(error));
        return onError(trait, error);
      }
    }),
  );
}

/** Template-kind traits: one call each; success gives `trait.field` keys, failure `trait: null`. */
async function templateTraits(
  judge: RubricJudge,
  report: TraitErrorReporter,
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
): Promise<Record<string, unknown>> {
  const results = await perTrait(
    judge,
    report,
    traits,
    async (trait) =>
      parseTemplateTraitReply(trait, await judge.call(toJudgeRequest(templateTraitRequest(trait, context)))),
    (trait): Record<string, unknown> => ({ [trait.name]: null }),
  );
  return Object.assign({}, ...results);
}

/** Boolean and score traits. Batch: a failed call fails the whole evaluation. Sequential: that trait is null. */
async function scalarTraits(
  judge: RubricJudge,
  report: TraitErrorReporter,
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
  strategy: RubricStrategy,
): Promise<Record<string, unknown>> {
  if (traits.length === 0) return {};
  if (strategy === "batch") {
    const scores: Record<string, unknown> = {};
    for (const request of batchScoreRequests(traits, context)) {
      const reply = await judge.call(toJudgeRequest(request));
      Object.assign(scores, parseBatchScoresReply(requestTraits(traits, request), reply));
    }
    return scores;
  }
  const values = await perTrait(
    judge,
    report,
    traits,
    async (trait) =>
      parseSequentialScoreReply(
        trait,
        await judge.call(toJudgeRequest(sequentialScoreRequest(trait, context))),
      ),
    () => null,
  );
  return Object.fromEntries(traits.map((trait, i) => [trait.name, values[i]]));
}

/**
 * Literal traits: scores are class indices, labels the class names. Batch: a failed call fails the whole
 * evaluation. Sequential: a failed trait gets −1 and `[EVALUATION_ERROR: <message>]`.
 */
async function literalTraits(
  judge: RubricJudge,
  report: TraitErrorReporter,
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
  strategy: RubricStrategy,
): Promise<LlmTraitResults> {
  const results: LlmTraitResults = { scores: {}, labels: {} };
  if (traits.length === 0) return results;
  const record = (name: string, value: { score: number; label: string }) => {
    results.scores[name] = value.score;
    results.labels[name] = value.label;
  };
  if (strategy === "batch") {
    for (const request of batchLiteralRequests(traits, context)) {
      const reply = await judge.call(toJudgeRequest(request));
      const parsed = parseBatchLiteralReply(requestTraits(traits, request), reply);
      for (const [name, value] of Object.entries(parsed)) record(name, value);
    }
    return results;
  }
  const values = await perTrait(
    judge,
    report,
    traits,
    async (trait) =>
      parseSequentialLiteralReply(
        trait,
        await judge.call(toJudgeRequest(sequentialLiteralRequest(trait, context))),
      ),
    (_trait, error) => literalFailure(errorMessage(error)),
  );
  for (const [i, trait] of traits.entries())
    record(trait.name, values[i] as { score: number; label: string });
  return results;
}

/**
 * Judges LLM traits the standard way (spec 03 §9.3): template-kind traits one call each, then boolean/score
 * traits and literal traits by `strategy` (batch: one call per reference group; sequential: one call per
 * trait, concurrently). Traits with `include_ground_truth` see the reference answer; the others never do.
 * @throws the error of a failed batch call, which fails the whole rubric evaluation (quirk R3, mirrored).
 */
export async function evaluateLlmTraits(
  judge: RubricJudge,
  traits: readonly LlmTrait[],
  context: RubricPromptContext,
  strategy: RubricStrategy,
  report: TraitErrorReporter = () => {},
): Promise<LlmTraitResults> {
  const template = traits.filter((trait) => isTemplateKind(trait.kind));
  const scalar = traits.filter((trait) => trait.kind === "boolean" || trait.kind === "score");
  const literal = traits.filter((trait) => trait.kind === "literal");
  const templateScores = await templateTraits(judge, report, template, context);
  const scalarScores = await scalarTraits(judge, report, scalar, context, strategy);
  const literals = await literalTraits(judge, report, literal, context, strategy);
  return { scores: { ...templateScores, ...scalarScores, ...literals.scores }, labels: literals.labels };
}

/** The results of a rubric's metric traits. */
export interface MetricTraitResults {
  /** Trait name → metric name → value; `{}` for a trait whose call failed. */
  metrics: Record<string, Record<string, number>>;
  confusionLists: Record<string, ConfusionLists>;
}

/**
 * Metric traits, one call each, in order (spec 03 §5.2). A failed trait gets empty lists and no metrics; the
 * others carry on.
 */
export async function evaluateMetricTraits(
  judge: RubricJudge,
  traits: readonly MetricTrait[],
  context: RubricPromptContext,
  report: TraitErrorReporter = () => {},
): Promise<MetricTraitResults> {
  const results: MetricTraitResults = { metrics: {}, confusionLists: {} };
  for (const trait of traits) {
    try {
      const reply = await judge.call(toJudgeRequest(metricTraitRequest(trait, context)));
      const outcome = evaluateMetricReply(trait, reply);
      results.metrics[trait.name] = outcome.metrics as Record<string, number>;
      results.confusionLists[trait.name] = outcome.lists;
    } catch (error) {
      if (isCancellation(judge, error)) throw error;
      report(trait.name, errorMessage(error));
      results.metrics[trait.name] = {};
      results.confusionLists[trait.name] = emptyConfusionLists();
    }
  }
  return results;
}
