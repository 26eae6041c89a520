import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { ReplayMissError, userMessage, zodStructuredSchema } from "../../llm/index.js";
import { startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startAnthropicServer } from "../../test-support/provider-servers/index.js";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { llmPortFor, ModelConfigSchema, parserPortFor, requestKwargs } from "./index.js";

const server = serverPerTest(startOpenAiServer);
const anthropic = serverPerTest(startAnthropicServer);

/** Request arguments a user writes in a model's extra_kwargs that an OpenAI-compatible body carries as written. */
const REQUEST_ARGUMENTS = {
  top_p: 0.5,
  frequency_penalty: 0.25,
  presence_penalty: -0.5,
  stop: ["END"],
  seed: 7,
  repetition_penalty: 1.1,
  top_k: 20,
};

/** Request arguments and control keys, as a user writes them in a model's extra_kwargs. */
const EXTRA_KWARGS = {
  ...REQUEST_ARGUMENTS,
  model_kwargs: { min_p: 0.05 },
  endpoint_base_url_mode: "auto_v1",
  api_key: "sk-extra-should-not-be-sent",
  base_url: "http://127.0.0.1:9/never",
  effort: "high",
  claude_sdk_parser_openai_base_url: "http://127.0.0.1:9/parser",
  agent_runtime: { backend: "filesystem" },
  timeout: 30,
  max_retries: 4,
};

const SENT = { ...REQUEST_ARGUMENTS, min_p: 0.05 };
const CONTROL_KEYS = [
  "endpoint_base_url_mode",
  "api_key",
  "base_url",
  "effort",
  "claude_sdk_parser_openai_base_url",
  "agent_runtime",
  "timeout",
  "max_retries",
  "model_kwargs",
];

const endpointModel = (extra: Record<string, unknown> | null) =>
  ModelConfigSchema.parse({
    id: "local",
    model_name: "qwen",
    interface: "openai_endpoint",
    endpoint_base_url: server.url,
    endpoint_api_key: "sk-route",
    extra_kwargs: extra,
  });

const Answer = zodStructuredSchema("Answer", z.object({ gene: z.string() }));

/** Sends one "hi" through a model of `fields` on the scripted server with EXTRA_KWARGS, its API key in `env`. */
async function sayHiWithExtraKwargs(
  fields: Record<string, unknown>,
  env: Record<string, string>,
): Promise<void> {
  const model = ModelConfigSchema.parse({
    ...fields,
    endpoint_base_url: server.baseURL,
    extra_kwargs: EXTRA_KWARGS,
  });
  await llmPortFor(model, { env }).invoke([userMessage("hi")]);
}

function expectSentWithoutControlKeys(body: Record<string, unknown> | undefined) {
  expect(body).toMatchObject(SENT);
  for (const key of CONTROL_KEYS) expect(body).not.toHaveProperty(key);
}

describe("extra_kwargs reach the model's requests (spec 05 §5.1)", () => {
  test("an openai_endpoint answering model sends them on invoke and on streamed calls, control keys left out", async () => {
    server.script({ reply: { text: "one" } }, { reply: { text: "two" } });
    const port = llmPortFor(endpointModel(EXTRA_KWARGS));
    await port.invoke([userMessage("hi")]);
    await port.streamInvoke?.([userMessage("hi")]);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) expectSentWithoutControlKeys(request.body);
    expect(server.requests[1]?.body.stream).toBe(true);
  });

  test("an openai_endpoint judge model sends them with its structured-output request", async () => {
    server.script({ reply: { json: { gene: "BCL2" } } });
    const result = await parserPortFor(endpointModel(EXTRA_KWARGS)).parse([userMessage("gene?")], Answer);
    expect(result.parsed).toEqual({ gene: "BCL2" });
    expectSentWithoutControlKeys(server.requests[0]?.body);
    expect(server.requests[0]?.body.response_format).toMatchObject({ type: "json_schema" });
  });

  test("a stop given as one string is sent as a list, and extra_body opens into the body", async () => {
    server.script({ reply: { text: "ok" } });
    await llmPortFor(endpointModel({ stop: "###", extra_body: { chat_template_kwargs: { x: 1 } } })).invoke([
      userMessage("hi"),
    ]);
    expect(server.requests[0]?.body).toMatchObject({ stop: ["###"], chat_template_kwargs: { x: 1 } });
    expect(server.requests[0]?.body).not.toHaveProperty("extra_body");
  });

  test("a model without extra_kwargs sends exactly the fields it always sent", async () => {
    server.script({ reply: { text: "plain" } }, { reply: { text: "control only" } });
    await llmPortFor(endpointModel(null)).invoke([userMessage("hi")]);
    await llmPortFor(endpointModel({ endpoint_base_url_mode: "raw" })).invoke([userMessage("hi")]);
    for (const request of server.requests) {
      expect(Object.keys(request.body).sort()).toEqual(["max_tokens", "messages", "model", "temperature"]);
    }
    expect(requestKwargs(endpointModel({ endpoint_base_url_mode: "raw", api_key: "k" }))).toBeNull();
  });

  test("an openrouter model sends them through the same OpenAI-compatible body", async () => {
    server.script({ reply: { text: "routed" } });
    const openrouter = { id: "or", model_name: "vendor/model", interface: "openrouter" };
    await sayHiWithExtraKwargs(openrouter, { OPENROUTER_API_KEY: "sk-or" });
    expectSentWithoutControlKeys(server.requests[0]?.body);
  });

  test("an OpenAI model sends the settings the OpenAI client knows, not other fields", async () => {
    server.script({ reply: { text: "openai" } });
    const openai = { id: "oa", model_name: "gpt-test", interface: "langchain", model_provider: "openai" };
    await sayHiWithExtraKwargs(openai, { OPENAI_API_KEY: "sk-oa" });
    const body = server.requests[0]?.body;
    expect(body).toMatchObject({ top_p: 0.5, frequency_penalty: 0.25, presence_penalty: -0.5, seed: 7 });
    expect(body).toMatchObject({ stop: ["END"] });
    for (const key of [...CONTROL_KEYS, "repetition_penalty", "min_p"]) expect(body).not.toHaveProperty(key);
  });

  test("an Anthropic model sends top_p and top_k", async () => {
    anthropic.script({ reply: { text: "claude" } });
    const claude = ModelConfigSchema.parse({
      id: "c",
      model_name: "gateway-model",
      interface: "claude_tool",
      anthropic_base_url: anthropic.url,
      anthropic_api_key: "sk-ant",
      extra_kwargs: { top_k: 20, stop: ["END"], endpoint_base_url_mode: "raw" },
    });
    await llmPortFor(claude).invoke([userMessage("hi")]);
    expect(anthropic.requests[0]?.body).toMatchObject({ top_k: 20, stop_sequences: ["END"] });
    expect(anthropic.requests[0]?.body).not.toHaveProperty("endpoint_base_url_mode");
  });

  test("recordings tell models apart by their request arguments", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-extra-kwargs-rec-"));
    try {
      server.script({ reply: { text: "recorded" } });
      const recording = { dir, mode: "record" as const };
      await llmPortFor(endpointModel({ top_p: 0.5 }), { recording }).invoke([userMessage("q")]);
      const replay = { recording: { dir, mode: "replay" as const } };
      const same = await llmPortFor(endpointModel({ top_p: 0.5 }), replay).invoke([userMessage("q")]);
      expect(same.content).toBe("recorded");
      const other = await llmPortFor(endpointModel({ top_p: 0.9 }), replay)
        .invoke([userMessage("q")])
        .catch((error: unknown) => error);
      expect(other).toBeInstanceOf(ReplayMissError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
