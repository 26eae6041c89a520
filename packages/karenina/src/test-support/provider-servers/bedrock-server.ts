/**
 * A fake Amazon Bedrock runtime speaking the Converse API (`POST /model/{modelId}/converse`) for tests,
 * answering from a script: the reply in `output.message.content` (text blocks, `toolUse` blocks), token counts
 * in `usage`, errors as the service sends them (`{"message": ...}` with the error's type in `x-amzn-errortype`,
 * a 429 being a `ThrottlingException`). `POST /model/{modelId}/converse-stream` answers as ConverseStream does:
 * the AWS event stream (`application/vnd.amazon.eventstream`), binary messages encoded by `@smithy/eventstream-codec`
 * (the codec the Bedrock provider decodes with) with the headers `:event-type`, `:content-type` and
 * `:message-type: event`: `messageStart`, a `contentBlockDelta` per chunk, `contentBlockStop`, `messageStop`,
 * then `metadata` with the usage; each payload carries the `p` padding field the service adds. Requests are recorded with their headers, SigV4's `authorization`
 * among them; the signature is not verified. Embedding models answer `POST /model/{modelId}/invoke` from
 * `endpoint: "embeddings"` rules in their family's shape: Titan (`inputText` → `embedding`,
 * `inputTextTokenCount`), Cohere (`texts` with `input_type` → `embeddings`, tokens in the
 * `x-amzn-bedrock-input-token-count` header) and Nova (`singleEmbeddingParams` → `embeddings[].embedding`).
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Replies carry
 * `x-amzn-requestid: hand-written-test-data` and tool-use ids starting `tooluse_hand_written_test_data_` so a
 * stray recording is recognisable.
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import {
  type AnswerRequest,
  lastUserText,
  matchHolds,
  retryAfterHeader,
  type ScriptedHttpServer,
  startScriptedHttp,
} from "../scripted-http.js";
import type { ChatReply, ChatRule } from "./chat-completions-server.js";
import { type EmbeddingsApi, inputTexts, type ProviderRule, withEmbeddings } from "./embeddings-route.js";
import { replyText, type ScriptedTokens, type StreamFraming, streamedReply } from "./wire-format.js";

/** A running fake Bedrock runtime; `url` is the endpoint the Bedrock provider wants. */
export type BedrockTestServer = ScriptedHttpServer<ProviderRule>;

const DEFAULT_TOKENS: ScriptedTokens = { input: 29, output: 7 };
const HAND_WRITTEN = "hand-written-test-data";
const CONVERSE = /^\/model\/([^/]+)\/converse(-stream)?$/;
const INVOKE = /^\/model\/([^/]+)\/invoke$/;

const ERROR_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** Whether the request offers the `json` tool the AI SDK uses for structured output. */
function offersJsonTool(body: Record<string, unknown>): boolean {
  const config = body.toolConfig as { tools?: { toolSpec?: { name?: string } }[] } | undefined;
  return (config?.tools ?? []).some((tool) => tool.toolSpec?.name === "json");
}

const toolUse = (index: number, name: string, input: unknown) => ({
  toolUse: { toolUseId: `tooluse_hand_written_test_data_${index}`, name, input },
});

function converseResponse(reply: Exclude<ChatReply, { status: number }>, body: Record<string, unknown>) {
  const tokens = reply.usage ?? DEFAULT_TOKENS;
  let content: unknown[];
  if ("toolCalls" in reply) {
    content = reply.toolCalls.map((call, index) => toolUse(index + 1, call.name, call.arguments));
  } else if ("json" in reply && offersJsonTool(body)) {
    content = [toolUse(1, "json", reply.json)];
  } else {
    content = [{ text: replyText(reply) }];
  }
  const usesTools = content.some((block) => Object.hasOwn(block as object, "toolUse"));
  return {
    output: { message: { role: "assistant", content } },
    stopReason: usesTools ? "tool_use" : "end_turn",
    usage: {
      inputTokens: tokens.input,
      outputTokens: tokens.output,
      totalTokens: tokens.input + tokens.output,
    },
    metrics: { latencyMs: 0 },
  };
}

const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);
/** The service pads event payloads (field `p`) so their length does not tell their content. */
const PADDING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** One event of a ConverseStream response as an AWS event-stream message. */
function eventMessage(type: string, payload: Record<string, unknown>): Uint8Array {
  const json = JSON.stringify(payload);
  const p = PADDING.slice(0, 1 + (json.length % PADDING.length));
  return codec.encode({
    headers: {
      ":event-type": { type: "string", value: type },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    },
    body: new TextEncoder().encode(JSON.stringify({ ...payload, p })),
  });
}

/** ConverseStream's events for one text block, the usage in the closing `metadata` event. */
const CONVERSE_STREAM: StreamFraming = {
  contentType: "application/vnd.amazon.eventstream",
  open: () => [eventMessage("messageStart", { role: "assistant" })],
  delta: (text) => [eventMessage("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })],
  close: (tokens) => [
    eventMessage("contentBlockStop", { contentBlockIndex: 0 }),
    eventMessage("messageStop", { stopReason: "end_turn" }),
    eventMessage("metadata", {
      usage: {
        inputTokens: tokens.input,
        outputTokens: tokens.output,
        totalTokens: tokens.input + tokens.output,
      },
      metrics: { latencyMs: 0 },
    }),
  ],
};

const errorType = (status: number) => ERROR_TYPES[status] ?? "InternalServerException";

/** The text of a Nova embedding request (`singleEmbeddingParams.text.value`). */
function novaText(body: Record<string, unknown>): string | undefined {
  const params = body.singleEmbeddingParams as { text?: { value?: unknown } } | undefined;
  return typeof params?.text?.value === "string" ? params.text.value : undefined;
}

/** The texts of an embedding model's invoke body, whichever family's shape it has. */
function invokeInputs(body: Record<string, unknown>): string[] {
  if (typeof body.inputText === "string") return [body.inputText];
  const nova = novaText(body);
  return nova === undefined ? inputTexts(body.texts) : [nova];
}

/** Bedrock's `POST /model/{modelId}/invoke` for embedding models. */
const BEDROCK_INVOKE: EmbeddingsApi = {
  read({ method, path, body }) {
    const encoded = method === "POST" ? INVOKE.exec(path)?.[1] : undefined;
    return encoded === undefined
      ? undefined
      : { model: decodeURIComponent(encoded), inputs: invokeInputs(body) };
  },
  invalid({ body }) {
    if (typeof body.inputText === "string" || novaText(body) !== undefined) return undefined;
    if (!Array.isArray(body.texts)) return "Malformed input request: required key [inputText] not found";
    return typeof body.input_type === "string"
      ? undefined
      : "Malformed input request: #: required key [input_type] not found";
  },
  ok(_call, vectors, tokens, { body }) {
    const headers = { "x-amzn-requestid": HAND_WRITTEN, "x-amzn-bedrock-input-token-count": String(tokens) };
    if (typeof body.inputText === "string") {
      return { status: 200, headers, payload: { embedding: vectors[0], inputTextTokenCount: tokens } };
    }
    if (novaText(body) !== undefined) {
      const embeddings = [{ embeddingType: "TEXT", embedding: vectors[0] }];
      return { status: 200, headers, payload: { embeddings, inputTokenCount: tokens } };
    }
    return {
      status: 200,
      headers,
      payload: {
        embeddings: vectors,
        id: HAND_WRITTEN,
        response_type: "embeddings_floats",
        texts: inputTexts(body.texts),
      },
    };
  },
  error: (status, message) => ({
    status,
    headers: { "x-amzn-requestid": HAND_WRITTEN, "x-amzn-errortype": errorType(status) },
    payload: { message },
  }),
};

/** How the Converse endpoint answers from chat rules. */
const converse: AnswerRequest<ChatRule> = ({ method, path, body }, take) => {
  const route = method === "POST" ? CONVERSE.exec(path) : null;
  const encoded = route?.[1];
  if (encoded === undefined) return undefined;
  const streamed = route?.[2] !== undefined;
  const model = decodeURIComponent(encoded);
  const lastUser = lastUserText(body);
  const rule = take((candidate) => matchHolds(candidate.match, model, () => [lastUser]));
  const requestId = { "x-amzn-requestid": HAND_WRITTEN };
  if (rule === undefined) {
    return {
      status: 500,
      headers: { ...requestId, "x-amzn-errortype": errorType(500) },
      payload: { message: `no scripted response for model ${model}: ${lastUser}` },
    };
  }
  const { reply } = rule;
  if ("status" in reply) {
    return {
      status: reply.status,
      headers: { ...requestId, "x-amzn-errortype": errorType(reply.status), ...retryAfterHeader(reply) },
      payload: { message: reply.message ?? `scripted error ${reply.status}` },
    };
  }
  if (!streamed) return { status: 200, headers: requestId, payload: converseResponse(reply, body) };
  if ("toolCalls" in reply) {
    return {
      status: 500,
      headers: { ...requestId, "x-amzn-errortype": errorType(500) },
      payload: { message: "this fake runtime does not stream tool use" },
    };
  }
  return streamedReply(CONVERSE_STREAM, reply, DEFAULT_TOKENS, requestId);
};

/**
 * Starts a fake Bedrock runtime. A JSON reply is a `json` tool use when the request offers that tool (the AI
 * SDK's structured output on Bedrock), else text; streamed, a reply is text (tool use is not streamed). A
 * request no rule answers gets a 500 naming it. Embedding models are invoked as above.
 */
export function startBedrockServer(rules: ProviderRule[] = []): Promise<BedrockTestServer> {
  return startScriptedHttp<ProviderRule>(withEmbeddings(BEDROCK_INVOKE, converse), rules);
}
