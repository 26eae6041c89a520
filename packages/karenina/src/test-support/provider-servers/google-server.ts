/**
 * A fake Gemini API (Google Generative Language API, `POST /v1beta/models/{model}:generateContent`) for
 * tests, answering from a script.
 *
 * Every scripted reply is hand-written test data: nothing here was produced by a real model. Replies carry
 * `modelVersion: "hand-written-test-data"` so a stray recording is recognisable.
 */
import { type ScriptedServer, type ScriptRule, startScriptedServer, type WireFormat } from "./wire-format.js";

/** A running fake Gemini server; point the AI SDK's provider at its `baseURL` (`http://127.0.0.1:<port>/v1beta`). */
export type GoogleTestServer = ScriptedServer;

const DEFAULT_TOKENS = { input: 17, output: 4 };

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

interface GoogleContent {
  role?: string;
  parts?: { text?: unknown }[];
}

const googleWire: WireFormat = {
  basePath: "/v1beta",
  route(path) {
    const match = ROUTE.exec(path);
    if (match?.[1] === undefined) return undefined;
    return { model: decodeURIComponent(match[1]), stream: match[2] === "streamGenerateContent" };
  },
  streamed: (payload) => ({ events: [payload], tail: [] }),
  lastUserText(body) {
    const contents = Array.isArray(body.contents) ? (body.contents as GoogleContent[]) : [];
    const last = contents.filter((c) => c.role === "user").at(-1);
    return (last?.parts ?? []).map((part) => (typeof part.text === "string" ? part.text : "")).join("");
  },
  reply(reply) {
    if ("status" in reply) {
      const message = reply.message ?? `scripted error ${reply.status}`;
      const status = STATUS_NAMES[reply.status] ?? "UNKNOWN";
      return {
        status: reply.status,
        payload: { error: { code: reply.status, message, status } },
      };
    }
    const tokens = reply.usage ?? DEFAULT_TOKENS;
    const text = "text" in reply ? reply.text : JSON.stringify(reply.json);
    return {
      status: 200,
      payload: {
        candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: {
          promptTokenCount: tokens.input,
          candidatesTokenCount: tokens.output,
          totalTokenCount: tokens.input + tokens.output,
        },
        modelVersion: "hand-written-test-data",
        responseId: `hand-written-test-data-${Date.now()}`,
      },
    };
  },
  unscripted: (model, lastUser) => ({
    status: 500,
    payload: {
      error: {
        code: 500,
        message: `no scripted response for model ${model}: ${lastUser.slice(0, 80)}`,
        status: "INTERNAL",
      },
    },
  }),
};

/**
 * Starts a fake Gemini API. JSON replies are sent as the candidate's text (as the API does under
 * `responseMimeType: application/json`); errors use the API's body (`{error: {code, message, status}}`);
 * a request no rule answers gets a 500 naming it.
 */
export function startGoogleServer(rules: ScriptRule[] = []): Promise<GoogleTestServer> {
  return startScriptedServer(googleWire, rules);
}
