/**
 * A fake Anthropic Messages API for tests, answering from a script, in both of its URL shapes:
 * - Anthropic's API: `POST /v1/messages`, the model in the body, `stream: true` for a stream;
 * - Claude on Google Vertex AI: `POST /v1/projects/{project}/locations/{location}/publishers/anthropic/models/
 *   {model}:rawPredict` (`:streamRawPredict` for a stream), the model in the path, `anthropic_version` in the
 *   body.
 * Both answer in the Messages format: tool calls are `tool_use` blocks; a stream is named server-sent events
 * (`message_start`, `content_block_*`, `message_delta` with the usage, `message_stop`); errors are
 * `{type: "error", error: {type, message}}`.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Message ids
 * start with `msg_hand_written_test_data_` so a stray recording is recognisable.
 */
import {
  type AnswerRequest,
  type HttpReply,
  type ScriptedHttpServer,
  startScriptedHttp,
} from "../scripted-http.js";
import { type ChatReply, type ChatRule, takeChatReply } from "./chat-completions-server.js";
import {
  replyText,
  type ScriptedTokens,
  type StreamFraming,
  sseFrame,
  streamedReply,
} from "./wire-format.js";

/**
 * A running fake Anthropic server: point the AI SDK's Anthropic provider at its `baseURL`
 * (`http://127.0.0.1:<port>/v1`), a Vertex client at its `url`.
 */
export interface AnthropicTestServer extends ScriptedHttpServer<ChatRule> {
  readonly baseURL: string;
}

const DEFAULT_TOKENS: ScriptedTokens = { input: 13, output: 5 };

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

const VERTEX_ROUTE =
  /^\/v1(?:beta1)?\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/([^/:]+):(rawPredict|streamRawPredict)$/;

/** The model a request asks for and whether it wants a stream; undefined for another path. */
function routeOf(
  path: string,
  body: Record<string, unknown>,
): { model: string; stream: boolean } | undefined {
  if (path === "/v1/messages") {
    return { model: typeof body.model === "string" ? body.model : "", stream: body.stream === true };
  }
  const vertex = VERTEX_ROUTE.exec(path);
  if (vertex?.[1] === undefined) return undefined;
  return { model: decodeURIComponent(vertex[1]), stream: vertex[2] === "streamRawPredict" };
}

interface AnthropicMessage {
  role?: string;
  content?: unknown;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as { type?: string; text?: unknown }[])
    .map((block) => (block.type === "text" && typeof block.text === "string" ? block.text : ""))
    .join("");
}

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as AnthropicMessage[]) : [];
  return textOf(messages.filter((m) => m.role === "user").at(-1)?.content);
}

/** Whether the request asks for structured output through the SDK's forced `json` tool. */
function wantsJsonTool(body: Record<string, unknown>): boolean {
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string }[]) : [];
  return tools.some((tool) => tool.name === "json");
}

const errorReply = (status: number, message: string): HttpReply => ({
  status,
  payload: { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } },
});

type ContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/** The content blocks of a scripted success: tool calls, a JSON reply as the `json` tool's call, or text. */
function contentOf(
  reply: Exclude<ChatReply, { status: number }>,
  body: Record<string, unknown>,
): ContentBlock[] {
  const toolUse = (name: string, input: unknown, index: number): ContentBlock => ({
    type: "tool_use",
    id: `toolu_hand_written_test_data_${index}`,
    name,
    input,
  });
  if ("toolCalls" in reply) return reply.toolCalls.map((call, i) => toolUse(call.name, call.arguments, i));
  if ("json" in reply && wantsJsonTool(body)) return [toolUse("json", reply.json, 0)];
  return [{ type: "text", text: replyText(reply) }];
}

const messageId = () => `msg_hand_written_test_data_${Date.now()}`;

function message(model: string, content: ContentBlock[], tokens: ScriptedTokens) {
  return {
    id: messageId(),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: tokens.input, output_tokens: tokens.output },
  };
}

/** One named event of a stream (its name is its `type`). */
const event = (data: { type: string; [field: string]: unknown }) => sseFrame(data, data.type);

/** The events opening a streamed message; its usage comes at the end, in `message_delta`. */
const messageStart = (model: string) =>
  event({
    type: "message_start",
    message: {
      ...message(model, [], { input: 0, output: 0 }),
      stop_reason: null,
    },
  });

/** The events closing a streamed message: its stop reason and usage, then `message_stop`. */
const messageEnd = (stopReason: string, tokens: ScriptedTokens) => [
  event({
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { input_tokens: tokens.input, output_tokens: tokens.output },
  }),
  event({ type: "message_stop" }),
];

/** A text answer streamed as one text block, a `text_delta` per chunk. */
const textFraming = (model: string): StreamFraming => ({
  contentType: "text/event-stream",
  open: () => [
    messageStart(model),
    event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  ],
  delta: (text) => [event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })],
  close: (tokens) => [event({ type: "content_block_stop", index: 0 }), ...messageEnd("end_turn", tokens)],
});

/** A message of tool calls streamed at once, each call's input as one `input_json_delta`. */
function streamedToolUse(model: string, content: ContentBlock[], tokens: ScriptedTokens): HttpReply {
  const blocks = content.flatMap((block, index) =>
    block.type === "tool_use"
      ? [
          event({ type: "content_block_start", index, content_block: { ...block, input: {} } }),
          event({
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
          }),
          event({ type: "content_block_stop", index }),
        ]
      : [],
  );
  return {
    status: 200,
    payload: null,
    stream: {
      contentType: "text/event-stream",
      head: [messageStart(model), ...blocks, ...messageEnd("tool_use", tokens)],
      tail: [],
    },
  };
}

const chat: AnswerRequest<ChatRule> = ({ method, path, body }, take) => {
  const route = method === "POST" ? routeOf(path, body) : undefined;
  if (route === undefined) return undefined;
  const lastUser = lastUserText(body);
  const answer = takeChatReply(take, route.model, lastUser, errorReply);
  if ("sent" in answer) return answer.sent;
  const { reply } = answer;
  const content = contentOf(reply, body);
  const tokens = reply.usage ?? DEFAULT_TOKENS;
  if (!route.stream) return { status: 200, payload: message(route.model, content, tokens) };
  if (content.some((block) => block.type === "tool_use"))
    return streamedToolUse(route.model, content, tokens);
  return streamedReply(textFraming(route.model), reply, DEFAULT_TOKENS);
};

/**
 * Starts a fake Anthropic Messages API (Anthropic's and Vertex AI's paths). A JSON reply is sent as a `json`
 * tool call when the request offers that tool (the SDK's structured-output fallback), else as text; a scripted
 * tool call as `tool_use` blocks; a text reply to a streamed request is streamed word by word, paced as its
 * `stallAfter` and `stallMs` say. A request no rule answers gets a 500 naming it.
 */
export async function startAnthropicServer(rules: ChatRule[] = []): Promise<AnthropicTestServer> {
  const server = await startScriptedHttp<ChatRule>(chat, rules);
  return Object.assign(server, { baseURL: `${server.url}/v1` });
}
