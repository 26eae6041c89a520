/**
 * Acceptance scenarios of spec 07 §4 left out of the other files: A8 (template and rubric deep judgment,
 * embedding similarity, every feature together), A9 (two answering models: metadata and token usage per model)
 * and A10 (the model comparison's heatmap data), against the real server on 127.0.0.1 and the scripted
 * OpenAI-compatible server. Every question, template and scripted reply below is hand-written test data.
 * Embedding similarity needs no local model: the check asks the parsing model's endpoint (`/v1/embeddings`), which
 * the scripted server answers with hand-written vectors.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { trait } from "../../rubrics/index.js";
import {
  type OpenAiTestServer,
  type ScriptRule,
  startOpenAiServer,
} from "../../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../test-support/pipeline-context.js";
import {
  type ScenarioQuestion,
  scenarioCheckpoint,
  scenarioClient,
  scenarioConfig,
} from "../__fixtures__/scenario-fixtures.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let llm: OpenAiTestServer;
let server: TestServer;
let api: ReturnType<typeof scenarioClient>;

/** An answer quoting "Venetoclax, taken daily": the excerpt the deep-judgment judge gives. */
const answerOf = (tag: string) => `It is Venetoclax, taken daily (${tag}).`;
const EXCERPT = "Venetoclax, taken daily";
const TRAIT_REASONING = "The response names venetoclax, whose target is BCL2.";
const ATTRIBUTE_REASONING = "The excerpt names venetoclax as the drug.";

function replies(): ScriptRule[] {
  const judge = (includes: string, reply: ScriptRule["reply"]): ScriptRule => ({
    match: { model: "judge", lastUserIncludes: includes },
    reply,
    repeat: true,
  });
  return [
    // A9: two answerers with their own token counts; the judge extracts what each says
    {
      match: { model: "answerer-a" },
      reply: { text: "Venetoclax.", usage: { prompt_tokens: 100, completion_tokens: 10 } },
      repeat: true,
    },
    {
      match: { model: "answerer-b" },
      reply: { text: "Navitoclax.", usage: { prompt_tokens: 200, completion_tokens: 20 } },
      repeat: true,
    },
    // A8: abstention and sufficiency verdicts
    judge("abstains", { json: { reasoning: "It commits to an answer.", abstention_detected: false } }),
    judge("is sufficient", { json: { reasoning: "It names the drug.", sufficient: true } }),
    // A8: rubric deep judgment (excerpts, reasoning, score)
    judge("Quote up to", { json: { excerpts: [{ text: EXCERPT, confidence: "high" }] } }),
    judge("Explain how the response fares", { json: { reasoning: TRAIT_REASONING } }),
    judge("<reasoning>", { json: { result: true } }),
    // A8: template deep judgment (excerpts, reasoning, parameters)
    judge('"confidence"', { json: { drug: [{ text: EXCERPT, confidence: "high" }] } }),
    judge("Excerpts by attribute:", { json: { drug: ATTRIBUTE_REASONING } }),
    judge("Reasoning Traces:", { json: { drug: "venetoclax" } }),
    // A8: embedding check: vectors at cosine 0.96, then the equivalence question
    {
      match: { endpoint: "embeddings", model: "embedder" },
      reply: {
        embeddings: [
          [1, 0, 0],
          [0.96, 0.28, 0],
        ],
      },
      repeat: true,
    },
    judge("Are they equivalent?", { text: "YES, both name the same drug." }),
    judge("(a8-emb)", { json: { drug: "Venclexta" } }),
    judge("Navitoclax.", { json: { drug: "navitoclax" } }),
    judge("", { json: { drug: "venetoclax" } }),
    {
      match: { model: "answerer", lastUserIncludes: "[a8-emb]" },
      reply: { text: "The approved BCL-2 inhibitor is Venclexta (a8-emb)." },
      repeat: true,
    },
    ...["a8-dj", "a8-rubric-dj", "a8-all"].map(
      (tag): ScriptRule => ({
        match: { model: "answerer", lastUserIncludes: `[${tag}]` },
        reply: { text: answerOf(tag) },
        repeat: true,
      }),
    ),
  ];
}

beforeAll(async () => {
  llm = await startOpenAiServer(replies());
  server = await startTestServer();
  api = scenarioClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await llm.close();
});

const question = (id: string, tag: string): ScenarioQuestion => ({
  id,
  question: `[${tag}] Which drug inhibits BCL2?`,
  answer: "venetoclax",
  template: DRUG_TEMPLATE,
});

const namesTarget = () =>
  trait.llm.boolean({ name: "names_target", description: "Names the drug that targets BCL2" });

describe("A8 feature-toggles · deep judgment and embedding", () => {
  test("A8 deep judgment excerpts: excerpts, reasoning and parameters per attribute; the verdict passes", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a8-dj", [question("dj", "a8-dj")]),
      scenarioConfig(llm.baseURL, { deep_judgment_mode: "full" }),
    );
    expect(row.deep_judgment).toEqual({
      deep_judgment_mode: "full",
      deep_judgment_performed: true,
      extracted_excerpts: { drug: [{ text: EXCERPT, confidence: "high", similarity_score: 1 }] },
      attribute_reasoning: { drug: ATTRIBUTE_REASONING },
      deep_judgment_stages_completed: ["excerpts", "reasoning", "parameters"],
      deep_judgment_model_calls: 3,
      deep_judgment_excerpt_retry_count: 0,
      attributes_without_excerpts: [],
      deep_judgment_search_enabled: false,
      hallucination_risk_assessment: null,
    });
    expect(row.template).toMatchObject({ verify_result: true, parsed_llm_response: { drug: "venetoclax" } });
    expect(row.metadata.failure).toBeNull();
  });

  test("A8 rubric deep judgment: the trait's excerpts, reasoning and score", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a8-rubric-dj", [question("rubric-dj", "a8-rubric-dj")], [namesTarget()]),
      scenarioConfig(llm.baseURL, {
        evaluation_mode: "template_and_rubric",
        deep_judgment_rubric_mode: "enable_all",
      }),
    );
    expect(row.rubric).toMatchObject({
      rubric_evaluation_performed: true,
      llm_trait_scores: { names_target: true },
    });
    expect(row.deep_judgment_rubric).toMatchObject({
      deep_judgment_rubric_performed: true,
      extracted_rubric_excerpts: {
        names_target: [{ text: EXCERPT, confidence: "high", similarity_score: 1 }],
      },
      rubric_trait_reasoning: { names_target: TRAIT_REASONING },
      deep_judgment_rubric_scores: { names_target: true },
      traits_without_valid_excerpts: [],
      total_traits_evaluated: 1,
    });
    expect(row.metadata.failure).toBeNull();
  });

  test("A8 embedding similarity computed: a field failure at cosine 0.96 judged equivalent is overridden to pass", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint("a8-emb", [question("emb", "a8-emb")]),
      scenarioConfig(llm.baseURL, { embedding_check_enabled: true, embedding_check_model: "embedder" }),
    );
    expect(row.template).toMatchObject({
      parsed_llm_response: { drug: "Venclexta" },
      embedding_check_performed: true,
      embedding_similarity_score: 0.96,
      embedding_model_used: "embedder",
      embedding_override_applied: true,
      verify_result: true,
    });
    expect(row.metadata.caveats).toContain("embedding_override");
    expect(row.metadata.failure).toBeNull();
    const embeddings = llm.requests.filter((request) => request.path.endsWith("/embeddings"));
    expect(embeddings.map((request) => request.body.model)).toEqual(["embedder"]);
  });

  test("A8 all features together: abstention, sufficiency, template and rubric deep judgment, regex trait, embedding armed", async () => {
    const [row] = await api.runToEnd(
      scenarioCheckpoint(
        "a8-all",
        [question("all", "a8-all")],
        [namesTarget(), trait.regex({ name: "names_dose", pattern: "daily" })],
      ),
      scenarioConfig(llm.baseURL, {
        evaluation_mode: "template_and_rubric",
        abstention_enabled: true,
        sufficiency_enabled: true,
        deep_judgment_mode: "full",
        deep_judgment_rubric_mode: "enable_all",
        embedding_check_enabled: true,
        embedding_check_model: "embedder",
      }),
    );
    expect(row.metadata.failure).toBeNull();
    expect(row.template).toMatchObject({
      abstention_check_performed: true,
      abstention_detected: false,
      sufficiency_check_performed: true,
      sufficiency_detected: true,
      verify_result: true,
      // the embedding check only runs on a field failure: armed, not needed
      embedding_check_performed: false,
    });
    expect(row.deep_judgment).toMatchObject({
      deep_judgment_performed: true,
      extracted_excerpts: { drug: [{ text: EXCERPT }] },
    });
    expect(row.rubric).toMatchObject({
      llm_trait_scores: { names_target: true },
      regex_trait_scores: { names_dose: true },
    });
    expect(row.deep_judgment_rubric).toMatchObject({
      deep_judgment_rubric_performed: true,
      deep_judgment_rubric_scores: { names_target: true },
    });
  });
});

/** Two answering models on the scripted server, one judge. */
function twoModelConfig() {
  const model = (name: string) => ({
    id: name,
    model_provider: "openai",
    model_name: name,
    interface: "openai_endpoint",
    endpoint_base_url: llm.baseURL,
    endpoint_api_key: "sk-test",
  });
  return { answering_models: [model("answerer-a"), model("answerer-b")], parsing_models: [model("judge")] };
}

describe("A9 multi-model and A10 comparison", () => {
  let jobId: string;
  // biome-ignore lint/suspicious/noExplicitAny: result rows, read loosely.
  let rows: any[];
  const A = "openai_endpoint:answerer-a";
  const B = "openai_endpoint:answerer-b";
  beforeAll(async () => {
    const checkpoint = scenarioCheckpoint("a9-two-models", [question("q1", "a9-1"), question("q2", "a9-2")]);
    const started = await api.start(checkpoint, twoModelConfig());
    expect(started.status).toBe(202);
    jobId = started.body.job_id;
    await api.waitForStatus(jobId, "completed");
    rows = (await api.call("GET", `/api/v2/verifications/${jobId}/results?limit=500`)).body.items;
  });

  test("A9 per-model metadata: one row per question and answering model, each naming its models", () => {
    const seen = rows
      .map((row) => [
        row.metadata.question_id,
        row.metadata.answering.model_name,
        row.metadata.parsing.model_name,
      ])
      .sort();
    expect(seen).toEqual([
      ["q1", "answerer-a", "judge"],
      ["q1", "answerer-b", "judge"],
      ["q2", "answerer-a", "judge"],
      ["q2", "answerer-b", "judge"],
    ]);
    for (const row of rows) {
      expect(row.metadata.answering).toEqual({
        interface: "openai_endpoint",
        model_name: row.metadata.answering.model_name,
        tools: [],
        config_id: null,
      });
      expect(row.template.verify_result).toBe(row.metadata.answering.model_name === "answerer-a");
    }
  });

  test("A9 token usage per model: each row's total is its answerer's tokens plus the judge's", async () => {
    // answerer-a reports 100 in / 10 out, answerer-b 200 / 20, the judge's parse 11 / 7 (the server's default)
    for (const row of rows) {
      const a = row.metadata.answering.model_name === "answerer-a";
      expect(row.template.usage_metadata.total).toEqual({
        input_tokens: a ? 111 : 211,
        output_tokens: a ? 17 : 27,
        total_tokens: a ? 128 : 238,
      });
    }
    const summary = await api.call("POST", "/api/v2/verifications/summary", { job_ids: [jobId] });
    expect(summary.status).toBe(200);
    expect(Object.keys(summary.body.summary.tokens_by_combo).sort()).toEqual([
      `${A} | openai_endpoint:judge`,
      `${B} | openai_endpoint:judge`,
    ]);
    expect(summary.body.summary.tokens_by_combo).toMatchObject({
      [`${A} | openai_endpoint:judge`]: { input: 222, output: 34, total: 256 },
      [`${B} | openai_endpoint:judge`]: { input: 422, output: 54, total: 476 },
    });
  });

  test("A10 comparison heatmap data: per-model summaries, one cell per question and model, token statistics", async () => {
    const res = await api.call("POST", "/api/v2/verifications/compare-models", {
      job_ids: [jobId],
      models: [
        { answering_model: "answerer-a", interface: "openai_endpoint" },
        { answering_model: "answerer-b", interface: "openai_endpoint" },
      ],
      parsing_model: "openai_endpoint:judge",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, result_count: 4 });
    expect(res.body.model_summaries[A]).toMatchObject({ num_results: 2 });
    expect(res.body.model_summaries[B]).toMatchObject({ num_results: 2 });
    const cell = (passed: boolean, input: number, output: number) => ({
      result_id: expect.any(String),
      replicate: null,
      passed,
      abstained: false,
      insufficient: false,
      error: !passed,
      execution_type: "Standard",
      input_tokens: input,
      output_tokens: output,
      iterations: 0,
    });
    expect(
      // biome-ignore lint/suspicious/noExplicitAny: response rows, read loosely.
      res.body.heatmap_data.map((q: any) => [q.question_id, q.keywords, q.results_by_model]).sort(),
    ).toEqual([
      ["q1", [], { [A]: { replicates: [cell(true, 111, 17)] }, [B]: { replicates: [cell(false, 211, 27)] } }],
      ["q2", [], { [A]: { replicates: [cell(true, 111, 17)] }, [B]: { replicates: [cell(false, 211, 27)] } }],
    ]);
    const tokens = (model: string, input: number, output: number) => ({
      model_key: model,
      model_display_name: model,
      input_tokens_median: input,
      input_tokens_std: 0,
      output_tokens_median: output,
      output_tokens_std: 0,
    });
    // biome-ignore lint/suspicious/noExplicitAny: response rows, read loosely.
    for (const q of res.body.question_token_data as any[])
      expect(q.models).toEqual([tokens(A, 111, 17), tokens(B, 211, 27)]);
    expect(res.body.question_token_data).toHaveLength(2);
  });
});
