/**
 * Streamed answers and the partial answer a timeout leaves (spec 04 §5.2 steps 8–9, §4 `canScorePartialTimeout`,
 * §14.2), against a scripted OpenAI-compatible server on 127.0.0.1 that streams chunks and then stalls. Every
 * scripted reply is hand-written test data.
 */
import { describe, expect, test } from "vitest";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import {
  endpointModel,
  FAST_RETRIES,
  runPipeline,
  scriptedPipeline,
} from "../../test-support/pipeline-context.js";
import { serverPerTest } from "../../test-support/server-per-test.js";

const server = serverPerTest(startOpenAiServer);

const AI_HEADER = "--- AI Message ---\n";

/**
 * Runs the drug question with an answerer that cuts its calls after one second; timeouts keep a budget of
 * retries (so a timeout error is not "retries exhausted"), other categories have none.
 */
async function run(config: Record<string, unknown> = {}) {
  const { contextFor } = scriptedPipeline(server, {
    config: {
      answering_models: [{ ...endpointModel(server.baseURL, "answerer"), request_timeout: 1 }],
      retry_policy: { ...FAST_RETRIES, timeout: { max_attempts: 3, backoff_min: 0, backoff_max: 0 } },
    },
  });
  return runPipeline(contextFor(config));
}

/** The answerer streams `chunks`, then stalls far past its timeout. */
function stallingAnswer(chunks: string[]) {
  server.script({ match: { model: "answerer" }, reply: { chunks, stallMs: 30_000 } });
}

function judgeSays(drug: string) {
  server.script({ match: { model: "judge" }, reply: { json: { drug } } });
}

const answererRequests = () => server.requests.filter((r) => r.body.model === "answerer");
const judgeRequests = () => server.requests.filter((r) => r.body.model === "judge");

describe("a streamed answer cut by the call's timeout", () => {
  test("keeps the text streamed before the stall, is marked partial, and is still scored", async () => {
    stallingAnswer(["The approved drug is ", "venetoclax", ", taken once daily"]);
    judgeSays("venetoclax");
    const result = await run();
    expect(answererRequests()[0]?.body.stream).toBe(true);
    expect(result.template?.raw_llm_response).toBe(
      `${AI_HEADER}The approved drug is venetoclax, taken once daily`,
    );
    expect(result.template?.response_timeout_partial).toBe(true);
    expect(result.template?.usage_unavailable).toBe(true);
    // allow_partial_trace_scoring (default true): the judge reads the partial answer and the template scores it.
    expect(judgeRequests()).toHaveLength(1);
    expect(result.template?.verify_result).toBe(true);
    expect(result.metadata.caveats).toContain("partial_content");
    // The timeout is the task's error (§5.2 step 8); with retries left it is classified unexpected_error (§14.2).
    expect(result.metadata.failure?.category).toBe("unexpected_error");
    expect(result.metadata.failure?.details?.error_message).toMatch(
      /Response truncated by streaming timeout \(49 chars captured\)/,
    );
  });

  test("a wrong partial answer fails on content", async () => {
    stallingAnswer(["I would prescribe ibrutinib"]);
    judgeSays("ibrutinib");
    const result = await run();
    expect(result.template?.response_timeout_partial).toBe(true);
    expect(result.template?.verify_result).toBe(false);
    expect(result.metadata.failure?.category).toBe("content");
  });

  test("with allow_partial_trace_scoring off the partial text is kept but not judged", async () => {
    stallingAnswer(["The approved drug is ", "venetoclax"]);
    const result = await run({ allow_partial_trace_scoring: false });
    expect(result.template?.raw_llm_response).toBe(`${AI_HEADER}The approved drug is venetoclax`);
    expect(result.template?.response_timeout_partial).toBe(true);
    expect(judgeRequests()).toHaveLength(0);
    expect(result.template?.verify_result).toBeNull();
  });

  test("a stream that stalls before any text is a rate-limit error, with no partial answer", async () => {
    stallingAnswer([]);
    const result = await run();
    expect(result.template?.raw_llm_response).toBe("");
    expect(result.template?.response_timeout_partial).toBe(false);
    expect(judgeRequests()).toHaveLength(0);
    // FAST_RETRIES gives rate limits no retry: the budget is spent at once.
    expect(result.metadata.failure?.category).toBe("rate_limit");
    expect(result.metadata.failure?.details?.error_message).toMatch(/sent no text within 1000 ms/);
  });
});

describe("a streamed answer that completes", () => {
  test("is whole, not partial, with the usage of its last chunk", async () => {
    server.script({
      match: { model: "answerer" },
      reply: { chunks: ["Venetoclax", " is approved."], usage: { prompt_tokens: 21, completion_tokens: 4 } },
    });
    judgeSays("venetoclax");
    const result = await run();
    expect(answererRequests()[0]?.body.stream).toBe(true);
    expect(result.template?.raw_llm_response).toBe(`${AI_HEADER}Venetoclax is approved.`);
    expect(result.template?.response_timeout_partial).toBe(false);
    expect(result.template?.usage_unavailable).toBe(false);
    expect(result.template?.usage_metadata?.answer_generation?.input_tokens).toBe(21);
    expect(result.template?.verify_result).toBe(true);
    expect(result.metadata.failure).toBeNull();
  });
});
