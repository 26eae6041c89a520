/** EmbeddingCheck over real HTTP against the scripted OpenAI-compatible server (hand-written replies and vectors). */
import { expect, test } from "vitest";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_GROUND_TRUTH, scriptedPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { embeddingCheckStage } from "./embedding-check.js";

const BRAND_ANSWER = "The approved BCL-2 inhibitor is Venclexta.";
/** The same template in JavaScript, with a regex check the brand answer fails (it cites no PMID). */
const REGEX_TEMPLATE = `({
  className: "Answer",
  fields: {
    type: "object",
    properties: { drug: { type: "string", description: "The drug the response recommends" } },
    required: ["drug"],
  },
  groundTruth: { drug: "${DRUG_GROUND_TRUTH}" },
  verify(answer, correct) { return answer.drug.trim().toLowerCase() === correct.drug; },
  regex: { cites: { pattern: "PMID", expected: 1, match_type: "count" } },
})`;

const server = serverPerTest(startOpenAiServer);
const { contextFor, verify } = scriptedPipeline(server, {
  config: { embedding_check_model: "embedder", embedding_check_threshold: 0.9 },
});

const SIMILAR = [
  [1, 0, 0],
  [0.96, 0.28, 0],
];
const DISSIMILAR = [
  [1, 0, 0],
  [0, 1, 0],
];

/** The judge parses the brand name, which the ExactMatch field check rejects. */
function scriptBrandParse(vectors: number[][] | null, equivalence: string | null) {
  server.script({
    match: { model: "judge", lastUserIncludes: "Extract the fields" },
    reply: { json: { drug: "Venclexta" } },
  });
  if (vectors !== null)
    server.script({ match: { endpoint: "embeddings", model: "embedder" }, reply: { embeddings: vectors } });
  if (equivalence !== null) {
    server.script({
      match: { model: "judge", lastUserIncludes: "Are they equivalent?" },
      reply: { text: equivalence },
    });
  }
}

const embeddingRequests = () => server.requests.filter((request) => request.path.endsWith("/embeddings"));
const equivalenceRequests = () =>
  server.requests.filter((request) => JSON.stringify(request.body).includes("Are they equivalent?"));

test("a field failure whose parsed answer is similar and judged equivalent is overridden to pass", async () => {
  scriptBrandParse(SIMILAR, "YES, both name the same drug.");
  const { ctx, result } = await verify(BRAND_ANSWER, { embedding_check_enabled: true });

  expect(embeddingRequests().map((request) => request.body)).toMatchObject([
    { model: "embedder", input: [`{"drug":"${DRUG_GROUND_TRUTH}"}`, '{"drug":"Venclexta"}'] },
  ]);
  expect(result.template).toMatchObject({
    embedding_check_performed: true,
    embedding_model_used: "embedder",
    embedding_override_applied: true,
    verify_result: true,
  });
  expect(result.template?.embedding_similarity_score).toBeCloseTo(0.96, 10);
  expect(ctx.artifacts.fieldVerificationResult).toBe(true);
  expect(result.metadata.failure).toBeNull();
  expect(result.metadata.caveats).toEqual(["embedding_override"]);
  expect(result.template?.usage_metadata).toHaveProperty("embedding_check");
  // The equivalence call is the one judge call that is shown the ground truth, by design.
  expect(JSON.stringify(equivalenceRequests()[0]?.body)).toContain(DRUG_GROUND_TRUTH);
});

test("a similar answer judged not equivalent keeps its failure", async () => {
  scriptBrandParse(SIMILAR, "NO");
  const { result } = await verify(BRAND_ANSWER, { embedding_check_enabled: true });

  expect(result.template).toMatchObject({
    embedding_check_performed: true,
    embedding_model_used: "embedder",
    embedding_override_applied: false,
    verify_result: false,
  });
  expect(result.template?.embedding_similarity_score).toBeCloseTo(0.96, 10);
  expect(result.metadata.failure?.category).toBe("content");
  expect(result.metadata.caveats).toEqual([]);
});

test("an answer below the similarity threshold is not sent to the equivalence judge", async () => {
  scriptBrandParse(DISSIMILAR, null);
  const { result } = await verify(BRAND_ANSWER, { embedding_check_enabled: true });

  expect(equivalenceRequests()).toEqual([]);
  expect(result.template).toMatchObject({
    embedding_check_performed: true,
    embedding_similarity_score: 0,
    embedding_override_applied: false,
    verify_result: false,
  });
});

test("the check is inert when disabled: no embedding, no judge call, not performed", async () => {
  scriptBrandParse(null, null);
  const { result } = await verify(BRAND_ANSWER);

  expect(embeddingRequests()).toEqual([]);
  expect(equivalenceRequests()).toEqual([]);
  expect(result.template).toMatchObject({
    embedding_check_performed: false,
    embedding_similarity_score: null,
    embedding_model_used: null,
    embedding_override_applied: false,
    verify_result: false,
  });
});

test("a regex failure is never overridden: the fields pass, the verdict stays failed", async () => {
  scriptBrandParse(SIMILAR, "YES");
  const { ctx, result } = await verify(
    BRAND_ANSWER,
    { embedding_check_enabled: true },
    { template: { code: REGEX_TEMPLATE, language: "JavaScript" } },
  );

  expect(result.template).toMatchObject({
    embedding_override_applied: true,
    regex_overall_success: false,
    verify_result: false,
  });
  expect(ctx.artifacts.fieldVerificationResult).toBe(true);
  expect(result.metadata.failure?.category).toBe("content");
});

test("a passing answer is not checked", async () => {
  server.script({
    match: { model: "judge", lastUserIncludes: "Extract the fields" },
    reply: { json: { drug: "Venetoclax" } },
  });
  const { result } = await verify("Venetoclax.", { embedding_check_enabled: true });

  expect(embeddingRequests()).toEqual([]);
  expect(result.template).toMatchObject({ verify_result: true, embedding_check_performed: false });
});

test("an embedding failure is recorded as performed without a score, and does not override", async () => {
  server.script({ match: { endpoint: "embeddings" }, reply: { status: 400, message: "unknown model" } });
  scriptBrandParse(null, null);
  const { ctx, result } = await verify(BRAND_ANSWER, { embedding_check_enabled: true });

  expect(ctx.error).toBeNull();
  expect(result.template).toMatchObject({
    embedding_check_performed: true,
    embedding_similarity_score: null,
    embedding_model_used: null,
    embedding_override_applied: false,
    verify_result: false,
  });
  expect(
    result.metadata.warnings.some((warning) => warning.startsWith("Embedding check: embedding failed")),
  ).toBe(true);
});

test("the stage runs only on a field failure of a parsed answer", () => {
  const ctx = contextFor({ embedding_check_enabled: true });
  expect(embeddingCheckStage.shouldRun?.(ctx)).toBe(false);
  ctx.artifacts.fieldVerificationResult = false;
  expect(embeddingCheckStage.shouldRun?.(ctx)).toBe(false);
  ctx.artifacts.parsedAnswer = { drug: "Venclexta" };
  ctx.artifacts.templateEvaluation = {
    verify: false,
    fieldVerify: false,
    verifyGranular: null,
    fieldResults: { drug: false },
    regex: { success: true, results: {}, details: {} },
    error: null,
  };
  expect(embeddingCheckStage.shouldRun?.(ctx)).toBe(true);
  ctx.markError("boom");
  expect(embeddingCheckStage.shouldRun?.(ctx)).toBe(false);
});
