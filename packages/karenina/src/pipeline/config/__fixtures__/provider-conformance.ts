/**
 * The five checks every provider reached through an AI SDK package passes (issue 20, point 2), over real HTTP
 * against its fake API on 127.0.0.1 (hand-written replies): it answers with the usage counted, gives native
 * structured judge output, falls back to JSON extraction, runs a tool loop, and has a 429 retried after its
 * `retry-after`. A sixth, {@link describeStreamedAnswer}, is opted into by the providers whose fake API streams:
 * a streamed call returns the whole text with its usage, and a stream cut by the call's timeout keeps the text
 * received so far.
 */
import { tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { toolLoopAgent } from "../../../agentic/index.js";
import {
  LlmCallError,
  RateLimitError,
  RetryPolicySchema,
  systemMessage,
  userMessage,
  withRetries,
} from "../../../llm/index.js";
import { GENE_QUESTION, GeneAnswer } from "../../../test-support/gene-question.js";
import type { ChatRule, RecordedRequest } from "../../../test-support/provider-servers/index.js";
import type { ScriptedHttpServer } from "../../../test-support/scripted-http.js";
import {
  callAdapterFor,
  languageModelFor,
  llmPortFor,
  type ModelConfig,
  type PortRoutingOptions,
  parserPortFor,
} from "../index.js";

type Server = ScriptedHttpServer<ChatRule>;

/** A provider under test: how to reach its fake API, and what its requests must look like. */
export interface ConformanceCase {
  name: string;
  adapter: string;
  /** Starts the fake API (the test file closes it after each test); the model config and options that reach it. */
  setUp(): Promise<{ server: Server; model: ModelConfig; options: PortRoutingOptions }>;
  /** What every request must look like: path, query, credentials. */
  expectRequest(request: RecordedRequest | undefined): void;
  /** The roles of the messages a plain call sends (Bedrock sends the system prompt beside them). */
  roles: string[];
  /** What a structured call asks of the API. */
  structured(body: Record<string, unknown>): void;
  /** The messages of a request, where the tool result must appear. */
  messagesOf(body: Record<string, unknown>): unknown;
  /**
   * Set when a structured call forces a tool (`tool_choice`), so that the API cannot answer it with prose and
   * the provider package drops any text: the prose-extraction check does not apply (Claude on Vertex AI).
   */
  structuredForcesTool?: boolean;
}

const lookups: string[] = [];
const lookupGene = tool({
  description: "Look up the target of a drug",
  inputSchema: z.object({ drug: z.string() }),
  execute: async ({ drug }) => {
    lookups.push(drug);
    return drug === "venetoclax" ? "BCL2" : "unknown";
  },
});

/** Registers the five checks for each case. */
export function describeProviderConformance(cases: readonly ConformanceCase[]): void {
  const setUp = (providerCase: ConformanceCase) => providerCase.setUp();

  describe.each(cases)("$name", (providerCase) => {
    test("routes to its adapter and answers, with the usage counted", async () => {
      const { server, model, options } = await setUp(providerCase);
      expect(callAdapterFor(model)).toBe(providerCase.adapter);
      server.script({ reply: { text: "BCL2", usage: { input: 31, output: 2 } } });
      const response = await llmPortFor(model, options).invoke(GENE_QUESTION);
      expect(response.content).toBe("BCL2");
      expect(response.usage).toMatchObject({ input_tokens: 31, output_tokens: 2, total_tokens: 33 });
      expect(response.usageUnavailable).toBe(false);
      providerCase.expectRequest(server.requests[0]);
      const messages = providerCase.messagesOf(server.requests[0]?.body ?? {}) as { role: string }[];
      expect(messages.map((m) => m.role)).toEqual(providerCase.roles);
    });

    test("a judge call gets native structured output and the parsed object, usage summed", async () => {
      const { server, model, options } = await setUp(providerCase);
      server.script({ reply: { json: { gene: "BCL2", confidence: 0.9 }, usage: { input: 40, output: 9 } } });
      const result = await parserPortFor(model, options).parse(GENE_QUESTION, GeneAnswer);
      expect(result).toMatchObject({ parsed: { gene: "BCL2", confidence: 0.9 }, strategy: "native" });
      expect(result.usage).toMatchObject({ input_tokens: 40, output_tokens: 9 });
      providerCase.structured(server.requests[0]?.body ?? {});
      providerCase.expectRequest(server.requests[0]);
    });

    test.skipIf(providerCase.structuredForcesTool === true)(
      "a reply that is prose around JSON is extracted (the fallback where native output is not kept)",
      async () => {
      const { server, model, options } = await setUp(providerCase);
      server.script({ reply: { text: 'Here it is:\n```json\n{"gene": "TP53", "confidence": 0.5}\n```' } });
      const result = await parserPortFor(model, options).parse(GENE_QUESTION, GeneAnswer);
      expect(result).toMatchObject({ parsed: { gene: "TP53", confidence: 0.5 }, strategy: "extracted" });
      },
    );

    test("the tool loop calls a tool and answers with its result", async () => {
      const { server, model, options } = await setUp(providerCase);
      server.script(
        { reply: { toolCalls: [{ name: "lookup_gene", arguments: { drug: "venetoclax" } }] } },
        { reply: { text: "The target is BCL2.", usage: { input: 50, output: 6 } } },
      );
      lookups.length = 0;
      const agent = toolLoopAgent(languageModelFor(model, options), { maxRetries: 0 });
      const result = await agent.run(
        [systemMessage("Use the tools."), userMessage("What is the target of venetoclax?")],
        { tools: { lookup_gene: lookupGene } },
      );
      expect(lookups).toEqual(["venetoclax"]);
      expect(result.finalResponse).toBe("The target is BCL2.");
      expect(result.turns).toBe(2);
      expect(result.usage.input_tokens).toBeGreaterThanOrEqual(50);
      expect(JSON.stringify(server.requests[0]?.body)).toContain("lookup_gene");
      expect(JSON.stringify(providerCase.messagesOf(server.requests[1]?.body ?? {}))).toContain("BCL2");
      providerCase.expectRequest(server.requests[1]);
    });

    test("HTTP 429 is a rate-limit error, retried after the server's retry-after", async () => {
      const { server, model, options } = await setUp(providerCase);
      server.script(
        {
          reply: { status: 429, retryAfter: 7, message: "Too many requests, please wait before trying again." },
        },
        { reply: { text: "BCL2" } },
      );
      const llm = llmPortFor(model, options);
      const errors: unknown[] = [];
      const waits: number[] = [];
      const response = await withRetries(
        () =>
          llm.invoke(GENE_QUESTION).catch((error: unknown) => {
            errors.push(error);
            throw error;
          }),
        { policy: RetryPolicySchema.parse({}), sleep: async (ms) => void waits.push(ms), random: () => 0 },
      );
      expect(response.content).toBe("BCL2");
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(RateLimitError);
      expect((errors[0] as RateLimitError).retryAfterSeconds).toBe(7);
      expect(server.requests).toHaveLength(2);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(7000);
    });
  });
}

/** A provider whose streamed calls are checked: how to reach its fake API, what a streamed request looks like. */
export interface StreamingCase {
  name: string;
  /** Starts the fake API (the test file closes it after each test); the model config and options that reach it. */
  setUp(): Promise<{ server: Server; model: ModelConfig; options: PortRoutingOptions }>;
  /** What a streamed request must look like: path, credentials, how it asks for the stream and its usage. */
  expectStreamRequest(request: RecordedRequest | undefined): void;
}

const STREAMED = "The target of venetoclax is BCL2.";
const STALLED = "The target is BCL2, which venetoclax binds.";
/** Long enough for a warm client to receive the first chunks, far shorter than the stall. */
const CUT_TIMEOUT_MS = 1_000;
const STALL_MS = 30_000;

/**
 * Registers the sixth check, "streamed answer", for each case: through the port's `streamInvoke` (spec 05 §3.1)
 * a reply streamed in the provider's wire format, in several chunks, comes back whole with its usage; a stream
 * stalling after three chunks is cut by the call's timeout and keeps those chunks' text, marked partial; a
 * stream stalling before any text is a rate-limit error. The fake API must pace text replies to streamed
 * requests as the scripted servers' `stallAfter` and `stallMs` say.
 */
export function describeStreamedAnswer(cases: readonly StreamingCase[]): void {
  describe.each(cases)("$name: streamed answer", (streamingCase) => {
    test("a streamed call returns the whole text, with the usage counted", async () => {
      const { server, model, options } = await streamingCase.setUp();
      server.script({ reply: { text: STREAMED, usage: { input: 27, output: 8 } } });
      const port = llmPortFor(model, options);
      expect(port.capabilities.supportsStreaming).toBe(true);
      const response = await port.streamInvoke?.(GENE_QUESTION);
      expect(response).toMatchObject({ content: STREAMED, isPartial: false, usageUnavailable: false });
      expect(response?.usage).toMatchObject({ input_tokens: 27, output_tokens: 8, total_tokens: 35 });
      expect(server.requests).toHaveLength(1);
      streamingCase.expectStreamRequest(server.requests[0]);
    });

    test("a stream cut by the call's timeout keeps the text received so far, marked partial", async () => {
      const { server, model, options } = await streamingCase.setUp();
      // The first call loads the provider package, so that the timeout of the second measures the stream only.
      server.script(
        { reply: { text: STREAMED } },
        { reply: { text: STALLED, stallAfter: 3, stallMs: STALL_MS, usage: { input: 27, output: 9 } } },
      );
      const port = llmPortFor(model, options);
      await port.streamInvoke?.(GENE_QUESTION);
      const response = await port.streamInvoke?.(GENE_QUESTION, { timeoutMs: CUT_TIMEOUT_MS });
      expect(response).toMatchObject({ content: "The target is ", isPartial: true, usageUnavailable: true });
      streamingCase.expectStreamRequest(server.requests[1]);
    });

    test("a stream that stalls before any text is a rate-limit error when the timeout passes", async () => {
      const { server, model, options } = await streamingCase.setUp();
      server.script(
        { reply: { text: STREAMED } },
        { reply: { text: STALLED, stallAfter: 0, stallMs: STALL_MS } },
      );
      const port = llmPortFor(model, options);
      await port.streamInvoke?.(GENE_QUESTION);
      const error = await port
        .streamInvoke?.(GENE_QUESTION, { timeoutMs: CUT_TIMEOUT_MS })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmCallError);
      expect(error).toMatchObject({ category: "rate_limit" });
      expect((error as Error).message).toContain(`sent no text within ${CUT_TIMEOUT_MS} ms`);
    });
  });
}
