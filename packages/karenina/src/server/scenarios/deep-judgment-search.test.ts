/**
 * Acceptance scenario A8 of spec 07 §4, search validation: template deep judgment with
 * `deep_judgment_search_enabled` (spec 04 §9.1 steps 2–4) in a verification job of the real server on
 * 127.0.0.1. The job's `"tavily"` search reaches a local stand-in (`KARENINA_TAVILY_BASE_URL` in the server's
 * environment), the judge is the scripted OpenAI-compatible server. Every question, template, search hit and
 * scripted reply below is hand-written test data.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type OpenAiTestServer,
  type ScriptRule,
  startOpenAiServer,
} from "../../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../test-support/pipeline-context.js";
import {
  handWrittenHit,
  startTavilyServer,
  type TavilyTestServer,
} from "../../test-support/tavily-server.js";
import { scenarioCheckpoint, scenarioClient, scenarioConfig } from "../__fixtures__/scenario-fixtures.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let llm: OpenAiTestServer;
let tavily: TavilyTestServer;
let server: TestServer;
let api: ReturnType<typeof scenarioClient>;

const ANSWER = "It is Venetoclax, taken daily (a8-search).";
const DRUG_EXCERPT = "Venetoclax";
const DOSE_EXCERPT = "taken daily";
const DRUG_HIT = handWrittenHit("venetoclax", "Venetoclax is an approved BCL-2 inhibitor.");
const DOSE_HIT = handWrittenHit("dosing", "Venetoclax is taken once a day with a meal.");
const ATTRIBUTE_REASONING = "Both excerpts name venetoclax; the search results support it.";

function judgeReplies(): ScriptRule[] {
  const judge = (includes: string, reply: ScriptRule["reply"]): ScriptRule => ({
    match: { model: "judge", lastUserIncludes: includes },
    reply,
    repeat: true,
  });
  return [
    { match: { model: "answerer" }, reply: { text: ANSWER }, repeat: true },
    // step 1: excerpts (the excerpt prompt alone carries the reply schema's "confidence")
    judge('"confidence"', {
      json: {
        drug: [
          { text: DRUG_EXCERPT, confidence: "high" },
          { text: DOSE_EXCERPT, confidence: "medium" },
        ],
      },
    }),
    // step 3: hallucination assessment of both searched excerpts
    judge("Assess all 2 excerpts", {
      json: {
        excerpt_assessments: [
          { excerpt_id: "excerpt_1", hallucination_risk: "low", justification: "The hit names it." },
          { excerpt_id: "excerpt_2", hallucination_risk: "medium", justification: "Dosing only implied." },
        ],
      },
    }),
    // step 4: reasoning from the excerpts and their risks, then the parameters
    judge("Excerpts by attribute:", { json: { drug: ATTRIBUTE_REASONING } }),
    judge("Reasoning Traces:", { json: { drug: "venetoclax" } }),
  ];
}

beforeAll(async () => {
  llm = await startOpenAiServer(judgeReplies());
  tavily = await startTavilyServer([
    { match: { queryIncludes: DRUG_EXCERPT }, reply: { results: [DRUG_HIT] }, repeat: true },
    { match: { queryIncludes: DOSE_EXCERPT }, reply: { results: [DOSE_HIT] }, repeat: true },
  ]);
  server = await startTestServer({
    env: { TAVILY_API_KEY: "tvly-test-key", KARENINA_TAVILY_BASE_URL: tavily.url },
  });
  api = scenarioClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await tavily.close();
  await llm.close();
});

describe("A8 feature-toggles · deep judgment search validation", () => {
  test("A8 search validation: excerpts are searched through Tavily, judged for hallucination risk, and stored", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a8-search", [
        {
          id: "search",
          question: "[a8-search] Which drug inhibits BCL2?",
          answer: "venetoclax",
          template: DRUG_TEMPLATE,
        },
      ]),
      scenarioConfig(llm.baseURL, {
        deep_judgment_mode: "full",
        deep_judgment_search_enabled: true,
        deep_judgment_search_tool: "tavily",
      }),
    );

    expect(row.metadata.failure).toBeNull();
    expect(row.metadata.warnings).toEqual([]);
    expect(row.deep_judgment).toEqual({
      deep_judgment_mode: "full",
      deep_judgment_performed: true,
      extracted_excerpts: {
        drug: [
          {
            text: DRUG_EXCERPT,
            confidence: "high",
            similarity_score: 1,
            search_results: [DRUG_HIT],
            hallucination_risk: "low",
            hallucination_justification: "The hit names it.",
          },
          {
            text: DOSE_EXCERPT,
            confidence: "medium",
            similarity_score: 1,
            search_results: [DOSE_HIT],
            hallucination_risk: "medium",
            hallucination_justification: "Dosing only implied.",
          },
        ],
      },
      attribute_reasoning: { drug: ATTRIBUTE_REASONING },
      deep_judgment_stages_completed: [
        "excerpts",
        "excerpt_hallucination_assessment",
        "reasoning",
        "parameters",
      ],
      deep_judgment_model_calls: 4,
      deep_judgment_excerpt_retry_count: 0,
      attributes_without_excerpts: [],
      deep_judgment_search_enabled: true,
      // the attribute's risk is the highest of its excerpts'
      hallucination_risk_assessment: { drug: "medium" },
    });
    expect(row.template).toMatchObject({ verify_result: true, parsed_llm_response: { drug: "venetoclax" } });

    // the stand-in received each excerpt's text as a query, with the run's key
    // (one request per query, sent in parallel: their order is not fixed)
    const bodies = tavily.requests.map((request) => request.body);
    expect(bodies).toHaveLength(2);
    expect(bodies).toEqual(
      expect.arrayContaining([
        { query: DRUG_EXCERPT, max_results: 3, search_depth: "basic" },
        { query: DOSE_EXCERPT, max_results: 3, search_depth: "basic" },
      ]),
    );
    for (const request of tavily.requests) expect(request.headers.authorization).toBe("Bearer tvly-test-key");

    // the judge saw the hits when assessing, and the risks when reasoning
    const judgeText = (includes: string) =>
      llm.requests
        .map((request) => JSON.stringify(request.body.messages ?? []))
        .filter((text) => text.includes(includes));
    const [assessment] = judgeText("Assess all 2 excerpts");
    expect(assessment).toContain(DRUG_HIT.content);
    expect(assessment).toContain(DOSE_HIT.content);
    const [reasoning] = judgeText("Excerpts by attribute:");
    expect(reasoning).toContain("Hallucination risk: medium (Dosing only implied.)");
  });
});
