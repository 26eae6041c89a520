import { canonicalJson, LlmAbortedError } from "../../llm/index.js";
import { describeException } from "../classify-error.js";
import type { VerificationContext } from "../context.js";
import { equivalencePrompt, promptMessages, readEquivalenceReply } from "../prompts/index.js";
import type { Stage } from "../stage.js";

/** The usage bucket of the equivalence call (the original tracks it nowhere; ours is named like the stage). */
const USAGE_STAGE = "embedding_check";

const NOT_ANSWER_FIELDS = new Set(["id", "correct", "regex"]);

/** The cosine similarity of two vectors, clamped to [0, 1]; 0 when either has no length. */
function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  if (normA === 0 || normB === 0) return 0;
  return Math.min(1, Math.max(0, dot / Math.sqrt(normA * normB)));
}

/** What the check found; written as the four `embedding_*` result fields. */
interface EmbeddingOutcome {
  performed: boolean;
  score: number | null;
  model: string | null;
  override: boolean;
}

function record(ctx: VerificationContext, outcome: EmbeddingOutcome): void {
  Object.assign(ctx.draft.template, {
    embedding_check_performed: outcome.performed,
    embedding_similarity_score: outcome.score,
    embedding_model_used: outcome.model,
    embedding_override_applied: outcome.override,
  });
}

/** The similarity of the two dicts' canonical JSON; 0 when either dict is empty. */
async function similarity(
  ctx: VerificationContext,
  groundTruth: Record<string, unknown>,
  parsed: Record<string, unknown>,
): Promise<number> {
  if (Object.keys(groundTruth).length === 0 || Object.keys(parsed).length === 0) return 0;
  const [a, b] = await ctx.calls.embed(ctx.task.parsing, ctx.config.embedding_check_model, [
    canonicalJson(groundTruth),
    canonicalJson(parsed),
  ]);
  if (a === undefined || b === undefined) {
    throw new TypeError("the embedding endpoint returned fewer than two vectors");
  }
  return cosineSimilarity(a, b);
}

/** Asks the parsing model whether the two dicts say the same thing. Sends the ground truth, by design. */
async function equivalent(
  ctx: VerificationContext,
  groundTruth: Record<string, unknown>,
  parsed: Record<string, unknown>,
): Promise<boolean> {
  const model = ctx.task.parsing;
  const prompt = equivalencePrompt({ question: ctx.task.question.text, groundTruth, parsed });
  const supportsSystem = ctx.services.ports.llm(model).capabilities.supportsSystemPrompt;
  const response = await ctx.calls.invoke({
    stage: USAGE_STAGE,
    model,
    messages: promptMessages(prompt, supportsSystem),
  });
  return readEquivalenceReply(response.content);
}

/**
 * Stage 9 (spec 04 §10): a second chance for an answer whose **field** checks failed. The template's ground
 * truth and the judge's parsed fields are embedded as canonical JSON (`embedding_check_model`, served by the
 * parsing model's endpoint); when their cosine similarity reaches `embedding_check_threshold`, the parsing
 * model is asked whether they are equivalent, and a YES flips the field verdict to pass. The verdict then
 * becomes the regex checks' verdict — a regex failure is never overridden — and a passing verdict clears
 * `failed_stage`; the result carries the `embedding_override` caveat.
 *
 * Ground truth: this is the one judge call that deliberately receives the template's ground truth, next to
 * an answer that was already parsed without it; the parse itself never sees it.
 *
 * Differences from the original (docs/decisions.md): the config's enable flag, model and threshold are used
 * (the original's batch path never forwards them, so the check never runs there). Never fatal: an embedding
 * failure gives `performed = true` with no score, an equivalence-call failure keeps the score and does not
 * override; both leave a warning. Writes `embedding_check_performed`, `embedding_similarity_score`,
 * `embedding_model_used` and `embedding_override_applied`.
 */
export const embeddingCheckStage: Stage = {
  name: "EmbeddingCheck",
  needs: ["templateEvaluation", "fieldVerificationResult"],
  gives: ["fieldVerificationResult", "verifyResult"],
  shouldRun: (ctx) =>
    ctx.error === null &&
    ctx.artifacts.fieldVerificationResult === false &&
    ctx.artifacts.parsedAnswer !== undefined &&
    ctx.artifacts.templateEvaluation !== undefined,
  async run(ctx) {
    const { artifacts, config, draft } = ctx;
    const parsedAnswer = artifacts.parsedAnswer;
    const evaluation = artifacts.templateEvaluation;
    if (!config.embedding_check_enabled || parsedAnswer === undefined || evaluation === undefined) {
      record(ctx, { performed: false, score: null, model: null, override: false });
      return;
    }
    const groundTruth = artifacts.template?.groundTruth ?? {};
    const parsed = Object.fromEntries(
      Object.entries(parsedAnswer).filter(([key]) => !NOT_ANSWER_FIELDS.has(key)),
    );
    const model = config.embedding_check_model;
    let score: number;
    try {
      score = await similarity(ctx, groundTruth, parsed);
    } catch (error) {
      if (error instanceof LlmAbortedError || ctx.aborted) throw error;
      ctx.warn(`Embedding check: embedding failed: ${describeException(error)}`);
      record(ctx, { performed: true, score: null, model: null, override: false });
      return;
    }
    let override = false;
    if (score >= config.embedding_check_threshold) {
      try {
        override = await equivalent(ctx, groundTruth, parsed);
      } catch (error) {
        if (error instanceof LlmAbortedError || ctx.aborted) throw error;
        ctx.warn(`Embedding check: equivalence call failed: ${describeException(error)}`);
      }
    }
    record(ctx, { performed: true, score, model, override });
    if (!override) return;
    const verify = evaluation.regex.success;
    artifacts.fieldVerificationResult = true;
    artifacts.verifyResult = verify;
    draft.template.verify_result = verify;
    if (verify) draft.failedStage = null;
  },
};
