import { ParseError } from "../../llm/index.js";
import type { LlmTrait } from "../../model/index.js";
import {
  type DeepJudgmentStage,
  type DeepJudgmentTraitOutcome,
  type EffectiveDeepJudgment,
  ExcerptReplyError,
  failedDeepJudgmentTrait,
  HALLUCINATION_RISKS,
  type HallucinationRisk,
  parseExcerptReply,
  parseFallbackScore,
  parseSequentialScoreReply,
  type RubricExcerpt,
  TraitEvaluationError,
  type TraitHallucinationRisk,
  traitHallucinationRisk,
  validateExcerpts,
} from "../../rubrics/index.js";
import {
  excerptExtractionRequest,
  hallucinationRequest,
  reasoningRequest,
  scoreExtractionRequest,
} from "./deep-judgment-prompts.js";
import { errorMessage, isCancellation, type RubricJudge } from "./judge.js";
import { type ExcerptSearch, searchTexts } from "./search.js";

/** What deep judgment of one trait works with. */
export interface DeepJudgmentTraitInput {
  /** The trait, with the deep-judgment settings the run resolved for it. */
  readonly trait: LlmTrait;
  readonly settings: EffectiveDeepJudgment;
  /** The rubric evaluation text: excerpts are quoted from it and validated against it. */
  readonly response: string;
  /** Shown in the reasoning prompt; null in TaskEval mode. */
  readonly question: string | null;
}

/** The run-wide services of deep judgment. */
export interface DeepJudgmentServices {
  readonly judge: RubricJudge;
  readonly search: ExcerptSearch;
  /** Records a warning on the task (search failures). */
  readonly warn: (message: string) => void;
}

/** The outcome of excerpt extraction: the validated excerpts (null when every attempt failed) and the calls made. */
interface ExtractionOutcome {
  valid: RubricExcerpt[] | null;
  calls: number;
}

/**
 * Excerpt extraction with validation and retries (spec 03 §10.3 step 1): up to `retries + 1` attempts; an
 * attempt succeeds when at least one excerpt is found in the response (similarity ≥ 0.75 and ≥ the trait's
 * threshold); otherwise the next attempt is told which excerpts failed. An unusable reply also uses up an
 * attempt. Provider errors propagate.
 */
async function extractExcerpts(
  judge: RubricJudge,
  input: DeepJudgmentTraitInput,
): Promise<ExtractionOutcome> {
  const { trait, settings, response } = input;
  const attempts = Math.max(1, settings.excerptRetryAttempts + 1);
  let feedback: RubricExcerpt[] | string | null = null;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const request = excerptExtractionRequest(trait, settings.maxExcerpts, response, feedback);
    let extracted: ReturnType<typeof parseExcerptReply>;
    try {
      extracted = parseExcerptReply(await judge.call(request));
    } catch (error) {
      if (!(error instanceof ExcerptReplyError || error instanceof ParseError)) throw error;
      feedback = errorMessage(error);
      continue;
    }
    const validation = validateExcerpts(
      extracted.slice(0, settings.maxExcerpts),
      response,
      settings.fuzzyMatchThreshold,
    );
    if (validation.valid.length > 0) return { valid: validation.valid, calls: attempt };
    feedback = validation.failed.length > 0 ? validation.failed : null;
  }
  return { valid: null, calls: attempts };
}

const isRisk = (value: unknown): value is HallucinationRisk =>
  HALLUCINATION_RISKS.includes(value as HallucinationRisk);

/**
 * Search and hallucination assessment (spec 03 §10.3 step 2): every excerpt is searched in one batched call,
 * then each excerpt with results is rated in its own call (an unusable reply rates it `medium`, "Failed to
 * parse"). Search failures are warned about and the trait carries on without. Returns the trait's risk (null
 * when nothing was assessed) and the calls made.
 */
async function assessExcerpts(
  services: DeepJudgmentServices,
  trait: LlmTrait,
  excerpts: RubricExcerpt[],
): Promise<{ risk: TraitHallucinationRisk | null; calls: number }> {
  const { judge, search, warn } = services;
  if (!search.available) {
    warn(`Deep judgment search skipped for trait "${trait.name}": ${search.reason}`);
    return { risk: null, calls: 0 };
  }
  try {
    const results = await searchTexts(
      search.search,
      excerpts.map((excerpt) => excerpt.text),
    );
    excerpts.forEach((excerpt, i) => {
      excerpt.search_results = results[i];
    });
  } catch (error) {
    warn(`Deep judgment search failed for trait "${trait.name}": ${errorMessage(error)}`);
    return { risk: null, calls: 0 };
  }
  const risks: HallucinationRisk[] = [];
  let calls = 0;
  for (const excerpt of excerpts) {
    calls++;
    let risk: HallucinationRisk = "medium";
    let justification = "Failed to parse";
    try {
      const reply = await judge.call(hallucinationRequest(trait, excerpt));
      if (isRisk(reply.hallucination_risk)) {
        risk = reply.hallucination_risk;
        justification = typeof reply.justification === "string" ? reply.justification : "";
      }
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
    }
    excerpt.hallucination_risk = risk;
    excerpt.hallucination_justification = justification;
    risks.push(risk);
  }
  return { risk: traitHallucinationRisk(risks), calls };
}

/**
 * Score extraction (spec 03 §10.3 step 4): the structured reply read as a boolean or a clamped score; when
 * structured output fails (no usable object), the same prompt as a plain call, read by
 * {@link parseFallbackScore}.
 */
async function extractScore(
  judge: RubricJudge,
  trait: LlmTrait,
  reasoning: string,
): Promise<{ score: boolean | number; calls: number }> {
  const request = scoreExtractionRequest(trait, reasoning);
  try {
    return { score: parseSequentialScoreReply(trait, await judge.call(request)), calls: 1 };
  } catch (error) {
    if (!(error instanceof ParseError || error instanceof TraitEvaluationError)) throw error;
  }
  return { score: parseFallbackScore(trait, await judge.text(request)), calls: 2 };
}

async function judgeTrait(
  services: DeepJudgmentServices,
  input: DeepJudgmentTraitInput,
): Promise<DeepJudgmentTraitOutcome> {
  const { judge } = services;
  const { trait, settings } = input;
  const stages: DeepJudgmentStage[] = [];
  let calls = 0;
  let retries = 0;
  let excerpts: RubricExcerpt[] | null = null;
  let risk: TraitHallucinationRisk | null = null;
  if (settings.excerptEnabled) {
    const extraction = await extractExcerpts(judge, input);
    calls += extraction.calls;
    retries = extraction.calls - 1;
    if (extraction.valid === null) {
      return {
        traitName: trait.name,
        score: null,
        excerpts: [],
        reasoning: null,
        metadata: {
          stages_completed: [],
          model_calls: calls,
          had_excerpts: true,
          excerpt_retry_count: retries,
          excerpt_validation_failed: true,
        },
        hallucinationRisk: null,
      };
    }
    excerpts = extraction.valid;
    stages.push("excerpt_extraction");
    if (settings.searchEnabled) {
      const assessment = await assessExcerpts(services, trait, excerpts);
      calls += assessment.calls;
      risk = assessment.risk;
      if (risk !== null) stages.push("hallucination_assessment");
    }
  }
  const evidence = excerpts === null ? { response: input.response } : { excerpts };
  const reply = await judge.call(reasoningRequest(trait, input.question, evidence));
  calls++;
  const reasoning = typeof reply.reasoning === "string" ? reply.reasoning : JSON.stringify(reply);
  stages.push("reasoning_generation");
  const extracted = await extractScore(judge, trait, reasoning);
  calls += extracted.calls;
  stages.push("score_extraction");
  return {
    traitName: trait.name,
    score: extracted.score,
    excerpts,
    reasoning,
    metadata: {
      stages_completed: stages,
      model_calls: calls,
      had_excerpts: settings.excerptEnabled,
      excerpt_retry_count: retries,
      excerpt_validation_failed: false,
    },
    hallucinationRisk: risk,
  };
}

/**
 * Evaluates one LLM trait with deep judgment (spec 03 §10.3, spec 04 §9.2). With excerpts: excerpt extraction
 * with validation and retries (all attempts failing auto-fails the trait: no score, metadata
 * `excerpt_validation_failed`), optional search and hallucination assessment, reasoning from the excerpts,
 * then score extraction. Without excerpts: reasoning from the whole response, then score extraction. Any
 * other error auto-fails the trait with metadata `error` — unless the run was cancelled, which propagates.
 */
export async function evaluateTraitWithDeepJudgment(
  services: DeepJudgmentServices,
  input: DeepJudgmentTraitInput,
): Promise<DeepJudgmentTraitOutcome> {
  try {
    return await judgeTrait(services, input);
  } catch (error) {
    if (isCancellation(services.judge, error)) throw error;
    return failedDeepJudgmentTrait(input.trait.name, errorMessage(error));
  }
}
