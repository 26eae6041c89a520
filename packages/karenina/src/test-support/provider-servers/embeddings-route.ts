/**
 * The embeddings endpoint a fake provider server serves beside its chat endpoint: rules marked
 * `endpoint: "embeddings"` answer it (matched by model and any input text), each provider contributing how a
 * request names its model and texts and how its reply and errors look. A request no rule answers gets
 * deterministic vectors made from its texts, so equal texts get equal vectors.
 *
 * Every vector is hand-written test data (or made from the text as below): nothing here was produced by a
 * real model.
 */
import {
  type AnswerRequest,
  type HttpReply,
  matchHolds,
  type RecordedRequest,
  retryAfterHeader,
  type ScriptMatch,
  type ScriptRuleOf,
} from "../scripted-http.js";
import type { ChatRule } from "./chat-completions-server.js";

/** What the embeddings endpoint sends back: vectors (with the tokens the API reports), or an error status. */
export type EmbeddingReply = (
  | { embeddings: number[][]; tokens?: number }
  | { status: number; message?: string; retryAfter?: number }
) & {
  /** Wait this long before answering (the request may be aborted meanwhile). */
  delayMs?: number;
};

/** A rule answering the embeddings endpoint; `lastUserIncludes` searches every input text. */
export type EmbeddingRule = ScriptRuleOf<ScriptMatch, EmbeddingReply> & { endpoint: "embeddings" };

/** A rule of a fake provider server: a chat rule, or an embeddings rule. */
export type ProviderRule = ChatRule | EmbeddingRule;

/** Whether a rule answers the embeddings endpoint. */
export function isEmbeddingRule(rule: ProviderRule): rule is EmbeddingRule {
  return "endpoint" in rule && rule.endpoint === "embeddings";
}

/** An embeddings request as a provider's wire format names it. */
export interface EmbeddingCall {
  model: string;
  inputs: string[];
}

/** How a provider's embeddings endpoint reads requests and writes replies. */
export interface EmbeddingsApi {
  /** The model and texts of a request to the embeddings endpoint; undefined when it is not one. */
  read(request: RecordedRequest): EmbeddingCall | undefined;
  /** A request the real API refuses (a required field missing), as an error message; undefined when fine. */
  invalid?(request: RecordedRequest): string | undefined;
  /** The successful reply: `vectors` in input order, `tokens` as the API counts them. */
  ok(call: EmbeddingCall, vectors: number[][], tokens: number, request: RecordedRequest): HttpReply;
  /** The API's error reply for a status and message (its `retry-after` header is added by the route). */
  error(status: number, message: string, reply: { retryAfter?: number }): HttpReply;
}

/** The texts of an `input` (or `texts`) field: a string or an array of strings. */
export function inputTexts(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === "string") : [];
}

/** A deterministic 8-dimension unit vector for a text, used when no embeddings rule matches. */
export function defaultEmbedding(text: string): number[] {
  const vector = new Array<number>(8).fill(0);
  for (let i = 0; i < text.length; i++) vector[i % 8] = (vector[i % 8] ?? 0) + text.charCodeAt(i);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

/** The tokens counted for texts no rule answers: one per word, at least one per text. */
const defaultTokens = (inputs: readonly string[]) =>
  inputs.reduce((sum, text) => sum + Math.max(1, text.split(/\s+/).filter(Boolean).length), 0);

/**
 * A fake API's answer with `api`'s embeddings endpoint beside `chat`: embeddings requests take only embeddings
 * rules, every other request goes to `chat`, which sees only chat rules.
 */
export function withEmbeddings(
  api: EmbeddingsApi,
  chat: AnswerRequest<ChatRule>,
): AnswerRequest<ProviderRule> {
  return (request, take) => {
    const call = api.read(request);
    if (call === undefined) {
      return chat(request, (holds) => {
        const rule = take((candidate) => !isEmbeddingRule(candidate) && holds(candidate));
        return rule === undefined || isEmbeddingRule(rule) ? undefined : rule;
      });
    }
    const invalid = api.invalid?.(request);
    if (invalid !== undefined) return api.error(400, invalid, {});
    const rule = take(
      (candidate) => isEmbeddingRule(candidate) && matchHolds(candidate.match, call.model, () => call.inputs),
    );
    const reply: EmbeddingReply =
      rule !== undefined && isEmbeddingRule(rule)
        ? rule.reply
        : { embeddings: call.inputs.map(defaultEmbedding) };
    if ("status" in reply) {
      const sent = api.error(reply.status, reply.message ?? `scripted error ${reply.status}`, reply);
      return { ...sent, headers: { ...retryAfterHeader(reply), ...sent.headers } };
    }
    return api.ok(call, reply.embeddings, reply.tokens ?? defaultTokens(call.inputs), request);
  };
}
