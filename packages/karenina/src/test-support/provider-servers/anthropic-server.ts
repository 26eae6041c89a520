/**
 * A fake Anthropic Messages API (`POST /v1/messages`) for tests, answering from a script.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Message ids
 * start with `msg_hand_written_test_data_` so a stray recording is recognisable.
 */
import { type ScriptedServer, type ScriptRule, startScriptedServer, type WireFormat } from "./wire-format.js";

/** A running fake Anthropic server; point the AI SDK's provider at its `baseURL` (`http://127.0.0.1:<port>/v1`). */
export type AnthropicTestServer = ScriptedServer;

const DEFAULT_TOKENS = { input: 13, output: 5 };

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

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

/** Whether the request asks for structured output through the SDK's forced `json` tool. */
function wantsJsonTool(body: Record<string, unknown>): boolean {
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string }[]) : [];
  return tools.some((tool) => tool.name === "json");
}

const anthropicWire: WireFormat = {
  basePath: "/v1",
  route: (path, body) =>
    path === "/v1/messages"
      ? { model: typeof body.model === "string" ? body.model : "", stream: body.stream === true }
      : undefined,
  streamed(payload) {
    const message = payload as {
      content: { type: string; text?: string }[];
      stop_reason: string;
      usage: unknown;
    };
    const usage = message.usage as { input_tokens: number; output_tokens: number };
    return {
      events: [
        { type: "message_start", message: { ...message, content: [], stop_reason: null, usage } },
        ...message.content.flatMap((block, index) => [
          { type: "content_block_start", index, content_block: { type: "text", text: "" } },
          { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text ?? "" } },
          { type: "content_block_stop", index },
        ]),
      ],
      tail: [
        {
          type: "message_delta",
          delta: { stop_reason: message.stop_reason, stop_sequence: null },
          usage: { output_tokens: usage.output_tokens },
        },
        { type: "message_stop" },
      ],
    };
  },
  lastUserText(body) {
    const messages = Array.isArray(body.messages) ? (body.messages as AnthropicMessage[]) : [];
    return textOf(messages.filter((m) => m.role === "user").at(-1)?.content);
  },
  reply(reply, model, body) {
    if ("status" in reply) {
      const type = ERROR_TYPES[reply.status] ?? "api_error";
      const message = reply.message ?? `scripted error ${reply.status}`;
      return {
        status: reply.status,
        payload: { type: "error", error: { type, message } },
      };
    }
    const tokens = reply.usage ?? DEFAULT_TOKENS;
    const toolUse = "json" in reply && wantsJsonTool(body);
    const content = toolUse
      ? [{ type: "tool_use", id: "toolu_hand_written_test_data", name: "json", input: reply.json }]
      : [{ type: "text", text: "text" in reply ? reply.text : JSON.stringify(reply.json) }];
    return {
      status: 200,
      payload: {
        id: `msg_hand_written_test_data_${Date.now()}`,
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: toolUse ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: tokens.input, output_tokens: tokens.output },
      },
    };
  },
  unscripted: (model, lastUser) => ({
    status: 500,
    payload: {
      type: "error",
      error: {
        type: "api_error",
        message: `no scripted response for model ${model}: ${lastUser.slice(0, 80)}`,
      },
    },
  }),
};

/**
 * Starts a fake Anthropic Messages API. A JSON reply is sent as a `json` tool call when the request offers
 * that tool (the SDK's structured-output fallback), else as text. Errors use the API's error body
 * (`{type: "error", error: {type, message}}`); a request no rule answers gets a 500 naming it.
 */
export function startAnthropicServer(rules: ScriptRule[] = []): Promise<AnthropicTestServer> {
  return startScriptedServer(anthropicWire, rules);
}
