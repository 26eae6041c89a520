/**
 * The one implementation of `LlmPort` and `ParserPort` over an AI SDK `LanguageModel`, shared by every
 * provider adapter (`openai_endpoint`, `openai`, `anthropic`, `google`, `openrouter`): plain calls, and
 * parsing by native structured output, then JSON extraction, then repair, then one feedback retry.
 */
import type {
  JSONSchema7,
  LanguageModelV3,
  LanguageModelV3Prompt,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { callSignal, fromSdkUsage, toModelMessages, toPortError } from "./ai-sdk-bridge.js";
import { LlmCallError, ParseError } from "./errors.js";
import { extractJsonText, repairJson } from "./json-extraction.js";
import { assistantMessage, type Message, userMessage } from "./messages.js";
import {
  BASE_CAPABILITIES,
  type CallOptions,
  type LlmPort,
  type LlmResponse,
  type ParseResult,
  type ParserPort,
  type ParseStrategy,
  type PortCapabilities,
  type StructuredSchema,
} from "./ports.js";
import { type RequestSettings, requestSettings } from "./request-settings.js";
import { addUsage, emptyUsage, isUsageEmpty, type UsageMetadata } from "./usage.js";

/** Sampling and timeout settings every provider adapter takes. */
export interface ModelCallSettings {
  /** The provider's model name, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `gemini-2.5-flash`. */
  modelName: string;
  temperature?: number;
  maxTokens?: number;
  /** Default per-call timeout in milliseconds (120 000 when absent). */
  requestTimeoutMs?: number;
  /**
   * Further request arguments, named as the original's chat client takes them (`top_p`, `seed`, `stop`, ...):
   * a model's `extra_kwargs` without its control keys. See {@link requestSettings} for what each provider sends.
   */
  extraKwargs?: Readonly<Record<string, unknown>>;
}

/** An AI SDK model and how to call it: what {@link languageModelLlm} and {@link languageModelParser} need. */
export interface LanguageModelTarget extends ModelCallSettings {
  /** The adapter's name, used in messages (`openai_endpoint`, `anthropic`, ...). */
  adapter: string;
  model: LanguageModelV3;
  /** Values that must never appear in an error message (the API key); replaced by `[redacted]`. */
  secrets?: readonly string[];
  /** The call settings made of `extraKwargs` for this provider; spread them into every call. */
  request?: RequestSettings;
}

/** The sampling and timeout settings of any provider's options, without its connection settings. */
export function callSettings(options: ModelCallSettings): ModelCallSettings {
  return {
    modelName: options.modelName,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(options.extraKwargs === undefined ? {} : { extraKwargs: options.extraKwargs }),
  };
}

/**
 * The target of `model` for `adapter`: the call settings of `options`, and `apiKey` kept out of messages.
 * `bodyProvider` names the provider-options entry an OpenAI-compatible provider merges into the request body,
 * so that extra arguments it has no setting for still reach the server (see {@link requestSettings}).
 */
export function languageModelTarget(
  adapter: string,
  options: ModelCallSettings,
  model: LanguageModelV3,
  apiKey: string,
  bodyProvider?: string,
): LanguageModelTarget {
  const settings = callSettings(options);
  const request = requestSettings(settings.extraKwargs, bodyProvider);
  return { ...settings, adapter, model, secrets: [apiKey], request };
}

const DEFAULT_TIMEOUT_MS = 120_000;

interface CallResult {
  text: string;
  usage: UsageMetadata;
  /** The already-parsed JSON value when native structured output produced one. */
  object?: unknown;
}

/** The library's messages as the provider layer's prompt (text only: an `LlmPort` call has no tools). */
function toPrompt(messages: readonly Message[]): LanguageModelV3Prompt {
  return toModelMessages(messages).map((message) => {
    const text = message.content as string;
    return message.role === "system"
      ? { role: "system", content: text }
      : ({ role: message.role, content: [{ type: "text", text }] } as LanguageModelV3Prompt[number]);
  });
}

/** The provider layer's usage in the library's shape. */
function fromProviderUsage(usage: LanguageModelV3Usage | undefined, model: string): UsageMetadata {
  return fromSdkUsage(
    {
      inputTokens: usage?.inputTokens.total,
      outputTokens: usage?.outputTokens.total,
      totalTokens: undefined,
      inputTokenDetails: {
        noCacheTokens: usage?.inputTokens.noCache,
        cacheReadTokens: usage?.inputTokens.cacheRead,
        cacheWriteTokens: usage?.inputTokens.cacheWrite,
      },
      outputTokenDetails: {
        textTokens: usage?.outputTokens.text,
        reasoningTokens: usage?.outputTokens.reasoning,
      },
    },
    model,
  );
}

/**
 * One HTTP call through the provider's `doGenerate` (the AI SDK's provider interface). The SDK's
 * `generateText` wrapper is not used: it re-validates every prompt with Zod and doubled the CPU cost of a
 * call (measured by `bench/pipeline.ts`), while retries, JSON extraction and validation are done here anyway.
 * With a schema the call asks for native structured output (JSON-schema response format); a reply that is
 * not JSON still yields its text, so the caller can extract JSON from it.
 */
async function call(
  target: LanguageModelTarget,
  messages: readonly Message[],
  callOptions: CallOptions,
  schema?: StructuredSchema<unknown>,
): Promise<CallResult> {
  const timeoutMs = callOptions.timeoutMs ?? target.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const guard = callSignal(timeoutMs, callOptions.signal);
  const name = target.modelName;
  try {
    const result = await target.model.doGenerate({
      prompt: toPrompt(messages),
      abortSignal: guard.signal,
      ...(target.temperature === undefined ? {} : { temperature: target.temperature }),
      ...(target.maxTokens === undefined ? {} : { maxOutputTokens: target.maxTokens }),
      ...target.request,
      ...(schema === undefined
        ? {}
        : {
            responseFormat: {
              type: "json" as const,
              schema: schema.jsonSchema as JSONSchema7,
              name: schema.name,
              ...(schema.description === undefined ? {} : { description: schema.description }),
            },
          }),
    });
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    const usage = fromProviderUsage(result.usage, name);
    if (schema === undefined) return { text, usage };
    const parsed = parseJson(text);
    return parsed.ok ? { text, usage, object: parsed.value } : { text, usage };
  } catch (error) {
    throw toPortError(error, {
      model: name,
      timeoutMs,
      timedOut: guard.timedOut(),
      aborted: guard.aborted(),
      secrets: target.secrets ?? [],
    });
  } finally {
    guard.dispose();
  }
}

/** A promise rejecting when `signal` aborts, for racing a stream read that would ignore the abort. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * One streamed call through the provider's `doStream` (spec 05 §3.1 `streamInvoke`). The text is kept as it
 * arrives, so a call cut by its wall-clock timeout still returns what the model had said, marked `isPartial`
 * (usage is then unavailable: it comes in the last chunk). A stream that times out before any text is an error
 * of category `rate_limit`, as the original classifies it (the server took the request but never started to
 * answer), so the rate-limit budget retries it.
 */
async function streamCall(
  target: LanguageModelTarget,
  messages: readonly Message[],
  callOptions: CallOptions,
): Promise<LlmResponse> {
  const timeoutMs = callOptions.timeoutMs ?? target.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const guard = callSignal(timeoutMs, callOptions.signal);
  const name = target.modelName;
  let text = "";
  let usage: UsageMetadata | null = null;
  try {
    const { stream } = await target.model.doStream({
      prompt: toPrompt(messages),
      abortSignal: guard.signal,
      ...(target.temperature === undefined ? {} : { temperature: target.temperature }),
      ...(target.maxTokens === undefined ? {} : { maxOutputTokens: target.maxTokens }),
      ...target.request,
    });
    const reader = stream.getReader();
    const aborted = whenAborted(guard.signal);
    try {
      for (;;) {
        const next = await Promise.race([reader.read(), aborted.promise]);
        if (next.done) break;
        const part = next.value;
        if (part.type === "text-delta") text += part.delta;
        else if (part.type === "finish") usage = fromProviderUsage(part.usage, name);
        else if (part.type === "error") throw part.error;
      }
    } finally {
      aborted.dispose();
      reader.cancel().catch(() => undefined);
    }
    const used = usage ?? { ...emptyUsage(), model: name };
    return { content: text, usage: used, isPartial: false, usageUnavailable: isUsageEmpty(used) };
  } catch (error) {
    if (guard.timedOut()) {
      if (text !== "") {
        return {
          content: text,
          usage: { ...emptyUsage(), model: name },
          isPartial: true,
          usageUnavailable: true,
        };
      }
      throw new LlmCallError(`LLM stream from ${name} sent no text within ${timeoutMs} ms`, {
        category: "rate_limit",
        model: name,
        cause: error,
      });
    }
    throw toPortError(error, {
      model: name,
      timeoutMs,
      timedOut: false,
      aborted: guard.aborted(),
      secrets: target.secrets ?? [],
    });
  } finally {
    guard.dispose();
  }
}

function parseJson(text: string | null): { ok: true; value: unknown } | { ok: false } {
  if (text === null) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

type Attempt<T> = { ok: true; value: T; strategy: ParseStrategy } | { ok: false; error: string };

/** Native object first, then JSON extracted from the text, then the repaired text. */
function interpret<T>(result: CallResult, schema: StructuredSchema<T>, native: ParseStrategy): Attempt<T> {
  const candidates: [ParseStrategy, { ok: true; value: unknown } | { ok: false }][] = [
    [native, result.object === undefined ? { ok: false } : { ok: true, value: result.object }],
    [native === "native" ? "extracted" : native, parseJson(extractJsonText(result.text))],
    [native === "native" ? "repaired" : native, parseJson(repairJson(result.text))],
  ];
  let error = "the reply holds no JSON object";
  for (const [strategy, candidate] of candidates) {
    if (!candidate.ok) continue;
    const validation = schema.validate(candidate.value);
    if (validation.success) return { ok: true, value: validation.value, strategy };
    error = validation.error;
  }
  return { ok: false, error };
}

function feedback(schema: StructuredSchema<unknown>, error: string): string {
  return [
    `Your previous reply could not be used: ${error}.`,
    "Reply again with only a JSON object matching this JSON Schema, without code fences or comments:",
    JSON.stringify(schema.jsonSchema),
  ].join("\n");
}

const STRUCTURED_REFUSED = new Set([400, 422]);

/**
 * A structured call; a server that refuses native structured output (HTTP 400/422) is asked again without it.
 */
async function structuredCall(
  target: LanguageModelTarget,
  messages: readonly Message[],
  options: CallOptions,
  schema: StructuredSchema<unknown>,
): Promise<CallResult> {
  try {
    return await call(target, messages, options, schema);
  } catch (error) {
    if (
      error instanceof LlmCallError &&
      error.statusCode !== null &&
      STRUCTURED_REFUSED.has(error.statusCode)
    ) {
      return call(target, messages, options);
    }
    throw error;
  }
}

const LLM_CAPABILITIES: PortCapabilities = Object.freeze({ ...BASE_CAPABILITIES, supportsStreaming: true });
const PARSER_CAPABILITIES: PortCapabilities = Object.freeze({
  ...BASE_CAPABILITIES,
  supportsStructuredOutput: true,
});

/**
 * An `LlmPort` over an AI SDK language model: one call per `invoke`, no SDK retries (the retry policy
 * retries), the call's timeout and abort signal honoured, SDK errors mapped onto the port errors.
 */
export function languageModelLlm(target: LanguageModelTarget): LlmPort {
  return {
    capabilities: LLM_CAPABILITIES,
    async invoke(messages, callOptions = {}): Promise<LlmResponse> {
      const { text, usage } = await call(target, messages, callOptions);
      return { content: text, usage, isPartial: false, usageUnavailable: isUsageEmpty(usage) };
    },
    streamInvoke: (messages, callOptions = {}) => streamCall(target, messages, callOptions),
    close: async () => {},
  };
}

/**
 * A `ParserPort` over an AI SDK language model: native structured output with the schema; when the reply is
 * not valid, JSON extracted from its text, then repaired; then one retry telling the model the validation
 * error. Usage is summed over the calls. Provider errors (rate limits, timeouts, ...) are thrown as they
 * are, for the retry policy to handle. A server refusing native structured output (HTTP 400/422) is asked
 * again without it.
 */
export function languageModelParser(target: LanguageModelTarget): ParserPort {
  return {
    capabilities: PARSER_CAPABILITIES,
    async parse<T>(messages: readonly Message[], schema: StructuredSchema<T>, callOptions: CallOptions = {}) {
      const loose = schema as StructuredSchema<unknown>;
      const first = await structuredCall(target, messages, callOptions, loose);
      const firstAttempt = interpret(first, schema, "native");
      if (firstAttempt.ok) return done(firstAttempt, first.text, first.usage);

      const retryMessages = [
        ...messages,
        assistantMessage(first.text),
        userMessage(feedback(loose, firstAttempt.error)),
      ];
      const second = await structuredCall(target, retryMessages, callOptions, loose);
      const usage = addUsage(first.usage, second.usage);
      const secondAttempt = interpret(second, schema, "feedback_retry");
      if (secondAttempt.ok) return done(secondAttempt, second.text, usage);
      throw new ParseError(
        `Failed to parse response into ${schema.name} after all retry strategies: ${secondAttempt.error}; reply: ${second.text.slice(0, 200)}`,
        second.text,
        usage,
        secondAttempt.error,
      );
    },
    close: async () => {},
  };
}

function done<T>(
  attempt: { value: T; strategy: ParseStrategy },
  rawText: string,
  usage: UsageMetadata,
): ParseResult<T> {
  return { parsed: attempt.value, rawText, usage, strategy: attempt.strategy };
}
