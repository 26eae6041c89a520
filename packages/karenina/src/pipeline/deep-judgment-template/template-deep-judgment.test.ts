/**
 * Template deep judgment (inside ParseTemplate) over real HTTP against the scripted OpenAI-compatible server
 * (hand-written replies).
 */
import { afterEach, expect, test, vi } from "vitest";
import { type RecordedRequest, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_GROUND_TRUTH, scriptedPipeline } from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { handWrittenHit, startTavilyServer } from "../../test-support/tavily-server.js";

/** The answer names another drug than the ground truth, so the ground truth appears in no request it causes. */
const ANSWER = "The approved BCL-2 inhibitor is navitoclax, taken orally.";

const server = serverPerTest(startOpenAiServer);
const tavily = serverPerTest(startTavilyServer);
const { verify } = scriptedPipeline(server, { config: { deep_judgment_mode: "full" } });
afterEach(() => {
  vi.unstubAllEnvs();
});

/** The text of a request's messages. */
const messageText = (request: RecordedRequest) =>
  ((request.body.messages ?? []) as { content?: unknown }[])
    .map((message) => String(message.content))
    .join("\n");
const judgeRequests = (includes: string) =>
  server.requests.filter(
    (request) => request.body.model === "judge" && messageText(request).includes(includes),
  );

/** The excerpt request carries the excerpt reply schema (with its `confidence`); no other request does. */
const EXCERPTS = '"confidence"';
const REASONING = "Excerpts by attribute:";
const PARAMETERS = "Reasoning Traces:";
const HALLUCINATION = "Assess all";

function scriptFullRun(excerptReplies: unknown[]) {
  for (const reply of excerptReplies) {
    server.script({
      match: { model: "judge", lastUserIncludes: EXCERPTS },
      reply: typeof reply === "string" ? { text: reply } : { json: reply },
    });
  }
  server.script(
    {
      match: { model: "judge", lastUserIncludes: REASONING },
      reply: { json: { drug: "The excerpt names navitoclax as the approved inhibitor." } },
    },
    { match: { model: "judge", lastUserIncludes: PARAMETERS }, reply: { json: { drug: "navitoclax" } } },
  );
}

function expectNoGroundTruthSent() {
  expect(server.requests.length).toBeGreaterThan(0);
  for (const request of server.requests)
    expect(JSON.stringify(request.body).toLowerCase()).not.toContain(DRUG_GROUND_TRUTH);
}

test("reasoning-only deep judgment: reasoning from the response, then the parse from the reasoning", async () => {
  server.script(
    { match: { model: "judge", lastUserIncludes: PARAMETERS }, reply: { json: { drug: "navitoclax" } } },
    {
      match: { model: "judge" },
      reply: { text: '```json\n{"drug": "The response names navitoclax as the approved inhibitor."}\n```' },
    },
  );
  const { ctx, result } = await verify(ANSWER, { deep_judgment_mode: "reasoning_only" });

  expect(result.deep_judgment).toEqual({
    deep_judgment_mode: "reasoning_only",
    deep_judgment_performed: true,
    extracted_excerpts: {},
    attribute_reasoning: { drug: "The response names navitoclax as the approved inhibitor." },
    deep_judgment_stages_completed: ["reasoning", "parameters"],
    deep_judgment_model_calls: 2,
    deep_judgment_excerpt_retry_count: 0,
    attributes_without_excerpts: [],
    deep_judgment_search_enabled: false,
    hallucination_risk_assessment: null,
  });
  expect(ctx.artifacts.deepJudgmentReasoningOnly).toBe(true);
  expect(result.template?.parsed_llm_response).toEqual({ drug: "navitoclax" });
  const parse = messageText(judgeRequests(PARAMETERS)[0] as RecordedRequest);
  expect(parse).toContain("The response names navitoclax as the approved inhibitor.");
  expect(parse).not.toContain(ANSWER);
  expect(Object.keys(result.template?.usage_metadata ?? {})).toEqual(
    expect.arrayContaining(["deep_judgment_reasoning", "parsing"]),
  );
  expect(result.metadata.failure?.category).toBe("content");
  expectNoGroundTruthSent();
});

test("full deep judgment with an excerpt found verbatim: excerpts, reasoning, parameters, no auto-fail", async () => {
  scriptFullRun([{ drug: [{ text: "navitoclax, taken orally", confidence: "high" }] }]);
  const { ctx, result } = await verify(ANSWER);

  expect(result.deep_judgment).toEqual({
    deep_judgment_mode: "full",
    deep_judgment_performed: true,
    extracted_excerpts: {
      drug: [{ text: "navitoclax, taken orally", confidence: "high", similarity_score: 1 }],
    },
    attribute_reasoning: { drug: "The excerpt names navitoclax as the approved inhibitor." },
    deep_judgment_stages_completed: ["excerpts", "reasoning", "parameters"],
    deep_judgment_model_calls: 3,
    deep_judgment_excerpt_retry_count: 0,
    attributes_without_excerpts: [],
    deep_judgment_search_enabled: false,
    hallucination_risk_assessment: null,
  });
  expect(ctx.draft.failedStage).toBeNull();
  expect(result.metadata.failure?.category).toBe("content");
  // The reasoning call sees the excerpts, not the response.
  expect(messageText(judgeRequests(REASONING)[0] as RecordedRequest)).not.toContain(ANSWER);
  expect(Object.keys(result.template?.usage_metadata ?? {})).toEqual(
    expect.arrayContaining(["deep_judgment_excerpts", "deep_judgment_reasoning", "parsing"]),
  );
  expectNoGroundTruthSent();
});

test("full deep judgment retries excerpts not found in the response, then auto-fails the attribute", async () => {
  const invented = { drug: [{ text: "imatinib is the recommended agent", confidence: "high" }] };
  scriptFullRun([invented, invented]);
  const { ctx, result } = await verify(ANSWER, { deep_judgment_excerpt_retry_attempts: 1 });

  const excerptCalls = judgeRequests(EXCERPTS);
  expect(excerptCalls).toHaveLength(2);
  expect(messageText(excerptCalls[0] as RecordedRequest)).not.toContain("do not appear verbatim");
  expect(messageText(excerptCalls[1] as RecordedRequest)).toContain("do not appear verbatim");
  expect(result.deep_judgment).toMatchObject({
    deep_judgment_performed: true,
    extracted_excerpts: { drug: [] },
    deep_judgment_model_calls: 4,
    deep_judgment_excerpt_retry_count: 1,
    attributes_without_excerpts: ["drug"],
  });
  expect(ctx.draft.failedStage).toBe("DeepJudgmentAutoFail");
  expect(result.template?.verify_result).toBe(false);
  expect(result.metadata.failure).toMatchObject({ category: "deep_judgment", stage: "DeepJudgmentAutoFail" });
  expectNoGroundTruthSent();
});

test("an attribute the judge reports without evidence keeps its placeholder and auto-fails", async () => {
  scriptFullRun([{ drug: [{ text: "", confidence: "none", explanation: "No drug is named." }] }]);
  const { result } = await verify(ANSWER);

  expect(result.deep_judgment).toMatchObject({
    extracted_excerpts: {
      drug: [{ text: "", confidence: "none", similarity_score: 0, explanation: "No drug is named." }],
    },
    deep_judgment_excerpt_retry_count: 0,
    attributes_without_excerpts: ["drug"],
  });
  expect(result.metadata.failure?.category).toBe("deep_judgment");
});

test("an excerpt reply without JSON on the last attempt fails parsing, keeping the raw reply", async () => {
  scriptFullRun(["I would rather not quote anything."]);
  const { ctx, result } = await verify(ANSWER, { deep_judgment_excerpt_retry_attempts: 0 });

  expect(judgeRequests(REASONING)).toEqual([]);
  expect(ctx.error?.message).toMatch(/^Deep judgment excerpt extraction failed/);
  expect(result.metadata.failure).toMatchObject({
    category: "parsing",
    details: { judge_raw_response: "I would rather not quote anything." },
  });
  expect(result.deep_judgment?.deep_judgment_performed).toBe(false);
  expect(ctx.artifacts.deepJudgmentPerformed).toBe(false);
});

test("with a search function, excerpts are searched and judged for hallucination risk", async () => {
  const queries: unknown[] = [];
  const search = async (query: string | string[]) => {
    queries.push(query);
    return ["Navitoclax is an investigational BCL-2 family inhibitor (hand-written test result)."];
  };
  server.script({
    match: { model: "judge", lastUserIncludes: HALLUCINATION },
    reply: {
      json: {
        excerpt_assessments: [
          { excerpt_id: "excerpt_1", hallucination_risk: "medium", justification: "Not an approved drug." },
        ],
      },
    },
  });
  scriptFullRun([{ drug: [{ text: "navitoclax", confidence: "high" }] }]);
  const { result } = await verify(ANSWER, {
    deep_judgment_search_enabled: true,
    deep_judgment_search_tool: search,
  });

  expect(queries).toEqual([["navitoclax"]]);
  expect(result.deep_judgment).toMatchObject({
    deep_judgment_stages_completed: [
      "excerpts",
      "excerpt_hallucination_assessment",
      "reasoning",
      "parameters",
    ],
    deep_judgment_model_calls: 4,
    deep_judgment_search_enabled: true,
    hallucination_risk_assessment: { drug: "medium" },
    extracted_excerpts: {
      drug: [
        {
          text: "navitoclax",
          search_results:
            "Navitoclax is an investigational BCL-2 family inhibitor (hand-written test result).",
          hallucination_risk: "medium",
          hallucination_justification: "Not an approved drug.",
        },
      ],
    },
  });
  expect(messageText(judgeRequests(REASONING)[0] as RecordedRequest)).toContain("Hallucination risk: medium");
  expect(Object.keys(result.template?.usage_metadata ?? {})).toContain(
    "deep_judgment_hallucination_assessment",
  );
  expectNoGroundTruthSent();
});

test("a failing search leaves a warning and deep judgment carries on without it", async () => {
  const search = async () => {
    throw new Error("search backend unreachable");
  };
  scriptFullRun([{ drug: [{ text: "navitoclax", confidence: "high" }] }]);
  const { ctx, result } = await verify(ANSWER, {
    deep_judgment_search_enabled: true,
    deep_judgment_search_tool: search,
  });

  expect(ctx.error).toBeNull();
  expect(judgeRequests(HALLUCINATION)).toEqual([]);
  expect(result.deep_judgment).toMatchObject({
    deep_judgment_stages_completed: ["excerpts", "reasoning", "parameters"],
    deep_judgment_search_enabled: false,
    hallucination_risk_assessment: null,
  });
  expect(result.metadata.warnings).toContain(
    "Deep judgment search failed: Error: search backend unreachable",
  );
});

test('the "tavily" search tool without TAVILY_API_KEY is skipped with a warning', async () => {
  vi.stubEnv("TAVILY_API_KEY", "");
  scriptFullRun([{ drug: [{ text: "navitoclax", confidence: "high" }] }]);
  const { result } = await verify(ANSWER, { deep_judgment_search_enabled: true });

  expect(judgeRequests(HALLUCINATION)).toEqual([]);
  expect(result.deep_judgment).toMatchObject({
    deep_judgment_search_enabled: false,
    hallucination_risk_assessment: null,
    deep_judgment_model_calls: 3,
  });
  expect(result.metadata.warnings).toContain(
    'Deep judgment search skipped: the "tavily" search tool needs TAVILY_API_KEY, which is not set',
  );
});

test('with TAVILY_API_KEY set, the "tavily" tool searches through Tavily\'s HTTP API and the hits are judged', async () => {
  vi.stubEnv("TAVILY_API_KEY", "tvly-test-key");
  vi.stubEnv("KARENINA_TAVILY_BASE_URL", tavily.url);
  const hit = handWrittenHit("navitoclax", "Navitoclax is an investigational BCL-2 family inhibitor.");
  tavily.script({ match: { queryIncludes: "navitoclax" }, reply: { results: [hit] } });
  server.script({
    match: { model: "judge", lastUserIncludes: HALLUCINATION },
    reply: {
      json: {
        excerpt_assessments: [
          { excerpt_id: "excerpt_1", hallucination_risk: "high", justification: "Not approved." },
        ],
      },
    },
  });
  scriptFullRun([{ drug: [{ text: "navitoclax", confidence: "high" }] }]);
  const { result } = await verify(ANSWER, { deep_judgment_search_enabled: true });

  expect(tavily.requests.map((request) => request.body)).toEqual([
    { query: "navitoclax", max_results: 3, search_depth: "basic" },
  ]);
  expect(result.deep_judgment).toMatchObject({
    deep_judgment_search_enabled: true,
    hallucination_risk_assessment: { drug: "high" },
    extracted_excerpts: { drug: [{ text: "navitoclax", search_results: [hit], hallucination_risk: "high" }] },
  });
  expect(messageText(judgeRequests(HALLUCINATION)[0] as RecordedRequest)).toContain(hit.content);
});

test("a Tavily query that fails gets no results and a warning; deep judgment carries on", async () => {
  vi.stubEnv("TAVILY_API_KEY", "tvly-test-key");
  vi.stubEnv("KARENINA_TAVILY_BASE_URL", tavily.url);
  tavily.script({ reply: { status: 500 } });
  server.script({
    match: { model: "judge", lastUserIncludes: HALLUCINATION },
    reply: {
      json: {
        excerpt_assessments: [
          { excerpt_id: "excerpt_1", hallucination_risk: "medium", justification: "No results." },
        ],
      },
    },
  });
  scriptFullRun([{ drug: [{ text: "navitoclax", confidence: "high" }] }]);
  const { ctx, result } = await verify(ANSWER, { deep_judgment_search_enabled: true });

  expect(ctx.error).toBeNull();
  expect(result.deep_judgment?.extracted_excerpts?.drug?.[0]?.search_results).toEqual([]);
  expect(result.metadata.warnings).toContain(
    'Deep judgment search found nothing for "navitoclax": Error: Tavily answered HTTP 500',
  );
});

test("no ground-truth value reaches any judge with abstention, sufficiency and full deep judgment on", async () => {
  server.script(
    {
      match: { model: "judge", lastUserIncludes: "abstains" },
      reply: { json: { reasoning: "It names a drug.", abstention_detected: false } },
    },
    {
      match: { model: "judge", lastUserIncludes: "is sufficient" },
      reply: { json: { reasoning: "drug: 'navitoclax'.", sufficient: true } },
    },
  );
  scriptFullRun([{ drug: [{ text: "navitoclax", confidence: "high" }] }]);
  const { result } = await verify(ANSWER, { abstention_enabled: true, sufficiency_enabled: true });

  expect(result.template).toMatchObject({
    abstention_check_performed: true,
    sufficiency_check_performed: true,
  });
  expect(result.deep_judgment?.deep_judgment_performed).toBe(true);
  expect(server.requests.filter((request) => request.body.model === "judge")).toHaveLength(5);
  expectNoGroundTruthSent();
});
