/**
 * Rubric deep judgment over real HTTP (a scripted OpenAI-compatible server on 127.0.0.1). Every judge reply is
 * hand-written test data.
 */
import { describe, expect, test } from "vitest";
import { type LlmTrait, parseRubricTrait } from "../../model/index.js";
import { effectiveDeepJudgment } from "../../rubrics/index.js";
import { type ScriptRule, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { pipelineContext } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import type { VerificationContext } from "../context.js";
import { evaluateTraitWithDeepJudgment } from "./deep-judgment.js";
import { createRubricJudge } from "./judge.js";
import { type ExcerptSearch, excerptSearch } from "./search.js";

const RESPONSE = "BCL2 is the target of venetoclax. Tumour lysis syndrome is its main early risk.";

const server = serverPerTest(startOpenAiServer);

/** A rubric-only context whose judge answers with `rules`, without retries. */
async function judgeContext(rules: ScriptRule[]): Promise<VerificationContext> {
  server.script(...rules);
  return pipelineContext({
    baseURL: server.baseURL,
    config: {
      evaluation_mode: "rubric_only",
      retry_policy: {
        connection: { max_attempts: 0 },
        timeout: { max_attempts: 0 },
        rate_limit: { max_attempts: 0 },
        server_error: { max_attempts: 0 },
      },
    },
    question: {
      id: "q1",
      text: "What is the molecular target of venetoclax?",
      rawAnswer: null,
      template: null,
    },
  });
}

const trait = (input: Record<string, unknown>) =>
  parseRubricTrait(
    { name: "names_risk", kind: "boolean", description: "Names a safety risk", ...input },
    "llm",
  ) as LlmTrait;

async function judgeTrait(ctx: VerificationContext, llmTrait: LlmTrait, search: ExcerptSearch) {
  const warnings: string[] = [];
  const outcome = await evaluateTraitWithDeepJudgment(
    { judge: createRubricJudge(ctx), search, warn: (message) => warnings.push(message) },
    { trait: llmTrait, settings: effectiveDeepJudgment(llmTrait), response: RESPONSE, question: null },
  );
  return { outcome, warnings };
}

const excerptReply = (text: string): ScriptRule => ({
  match: { lastUserIncludes: "Quote up to" },
  reply: { json: { excerpts: [{ text, confidence: "high" }] } },
});
const reasoningReply: ScriptRule = {
  match: { lastUserIncludes: "Explain how the response fares" },
  reply: { json: { reasoning: "It names tumour lysis syndrome as a risk." } },
};
const scoreReply: ScriptRule = {
  match: { lastUserIncludes: "<reasoning>" },
  reply: { json: { result: true } },
};

describe("rubric deep judgment of one trait", () => {
  test("a search function's results feed a hallucination assessment of each excerpt", async () => {
    const ctx = await judgeContext([
      excerptReply("Tumour lysis syndrome is its main early risk."),
      {
        match: { lastUserIncludes: "<search_results>" },
        reply: { json: { hallucination_risk: "low", justification: "Label warnings list it." } },
      },
      reasoningReply,
      scoreReply,
    ]);
    const queries: unknown[] = [];
    const search = excerptSearch(
      (query) => {
        queries.push(query);
        return ["Venetoclax label: tumour lysis syndrome warning."];
      },
      "tavily",
      {},
    );
    const { outcome } = await judgeTrait(
      ctx,
      trait({ deep_judgment_enabled: true, deep_judgment_search_enabled: true }),
      search,
    );

    expect(queries).toEqual([["Tumour lysis syndrome is its main early risk."]]);
    expect(outcome.score).toBe(true);
    expect(outcome.excerpts?.[0]).toMatchObject({
      search_results: "Venetoclax label: tumour lysis syndrome warning.",
      hallucination_risk: "low",
      hallucination_justification: "Label warnings list it.",
    });
    expect(outcome.hallucinationRisk).toEqual({ overall_risk: "low", per_excerpt_risks: ["low"] });
    expect(outcome.metadata).toMatchObject({
      stages_completed: [
        "excerpt_extraction",
        "hallucination_assessment",
        "reasoning_generation",
        "score_extraction",
      ],
      model_calls: 4,
    });
  });

  test("tavily without TAVILY_API_KEY is unavailable: search is skipped and the trait still gets a score", async () => {
    const ctx = await judgeContext([
      excerptReply("BCL2 is the target of venetoclax."),
      reasoningReply,
      scoreReply,
    ]);
    const search = excerptSearch("tavily", "tavily", {});
    expect(search).toMatchObject({ available: false });
    const { outcome } = await judgeTrait(
      ctx,
      trait({ deep_judgment_enabled: true, deep_judgment_search_enabled: true }),
      search,
    );
    expect(outcome.score).toBe(true);
    expect(outcome.hallucinationRisk).toBeNull();
    expect(outcome.metadata).toMatchObject({ model_calls: 3 });
  });

  test("an unusable excerpt reply uses up an attempt and the next one is told why", async () => {
    const ctx = await judgeContext([
      { match: { lastUserIncludes: "Quote up to" }, reply: { json: { quotes: ["BCL2"] } } },
      excerptReply("BCL2 is the target of venetoclax."),
      reasoningReply,
      scoreReply,
    ]);
    const { outcome } = await judgeTrait(ctx, trait({ deep_judgment_enabled: true }), {
      available: false,
      reason: "-",
    });
    const second = server.requests[1]?.body.messages as { content: string }[];
    expect(JSON.stringify(second)).toContain("Your previous reply could not be used");
    expect(outcome.score).toBe(true);
    expect(outcome.metadata).toMatchObject({ excerpt_retry_count: 1, model_calls: 4 });
  });

  test("a provider error auto-fails the trait with the error in its metadata", async () => {
    const ctx = await judgeContext([{ reply: { status: 500, message: "judge down" }, repeat: true }]);
    const { outcome } = await judgeTrait(ctx, trait({ deep_judgment_enabled: true }), {
      available: false,
      reason: "-",
    });
    expect(outcome.score).toBeNull();
    expect(outcome.metadata).toMatchObject({ stages_completed: [], model_calls: 0 });
    expect("error" in outcome.metadata && outcome.metadata.error).toContain("judge down");
  });

  test("a score reply without structure falls back to a plain call read as text", async () => {
    const ctx = await judgeContext([
      excerptReply("BCL2 is the target of venetoclax."),
      reasoningReply,
      { match: { lastUserIncludes: "<reasoning>" }, reply: { text: "Yes, the criterion is met." } },
      // the parser's own feedback retry
      {
        match: { lastUserIncludes: "Your previous reply could not be used" },
        reply: { text: "I said yes." },
      },
      { match: { lastUserIncludes: "<reasoning>" }, reply: { text: "Yes." } },
    ]);
    const { outcome } = await judgeTrait(ctx, trait({ deep_judgment_enabled: true }), {
      available: false,
      reason: "-",
    });
    expect(outcome.score).toBe(true);
    expect(outcome.metadata).toMatchObject({ model_calls: 4 });
    expect(server.requests.at(-1)?.body).not.toHaveProperty("response_format");
  });
});
