/**
 * The `openai_endpoint` adapter (spec 05 §5.1): any OpenAI-compatible chat-completions server (vLLM, sglang,
 * llama.cpp, Ollama, a gateway), reached through the AI SDK's `@ai-sdk/openai-compatible` provider.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, type LanguageModel, NoObjectGeneratedError, Output } from "ai";
import { callSignal, fromSdkUsage, toModelMessages, toPortError } from "./ai-sdk-bridge.js";
import { AdapterUnavailableError, LlmCallError, ParseError } from "./errors.js";
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
import { addUsage, isUsageEmpty, type UsageMetadata } from "./usage.js";

/** How `baseURL` becomes the client's URL: `auto_v1` appends `/v1` unless present; `raw` keeps it as given. */
export type BaseUrlMode = "auto_v1" | "raw";

/** Settings of an OpenAI-compatible endpoint model. */
export interface OpenAiEndpointOptions {
  baseURL: string;
  /** Sent as a bearer token. Never read from the environment for this adapter. */
  apiKey: string;
  modelName: string;
  baseUrlMode?: BaseUrlMode;
  temperature?: number;
  maxTokens?: number;
  /** Default per-call timeout in milliseconds (120 000 when absent). */
  requestTimeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/** The base URL the client uses, per `mode` (spec 05 §5.1 "Base URL finalisation"). */
export function finalizeBaseUrl(baseURL: string, mode: BaseUrlMode = "auto_v1"): string {
  const trimmed = baseURL.replace(/\/+$/, "");
  if (mode === "raw") return trimmed;
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

interface Endpoint {
  model: LanguageModel;
  options: OpenAiEndpointOptions;
}

function endpoint(options: OpenAiEndpointOptions): Endpoint {
  if (!options.baseURL) {
    throw new AdapterUnavailableError("openai_endpoint needs endpoint_base_url", "missing endpoint_base_url");
  }
  if (!options.apiKey) {
    throw new AdapterUnavailableError("openai_endpoint needs endpoint_api_key", "missing endpoint_api_key");
  }
  if (!options.modelName) {
    throw new AdapterUnavailableError("openai_endpoint needs model_name", "missing model_name");
  }
  const provider = createOpenAICompatible({
    name: "openai_endpoint",
    baseURL: finalizeBaseUrl(options.baseURL, options.baseUrlMode),
    apiKey: options.apiKey,
    supportsStructuredOutputs: true,
  });
  return { model: provider.chatModel(options.modelName), options };
}

interface CallResult {
  text: string;
  usage: UsageMetadata;
  /** The already-parsed JSON value when native structured output produced one. */
  object?: unknown;
}

/**
 * One HTTP call through the SDK. With a schema it asks for native structured output; a reply that is not
 * JSON then still yields its text (no throw), so the caller can extract JSON from it.
 */
async function call(
  { model, options }: Endpoint,
  messages: readonly Message[],
  callOptions: CallOptions,
  schema?: StructuredSchema<unknown>,
): Promise<CallResult> {
  const timeoutMs = callOptions.timeoutMs ?? options.requestTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const guard = callSignal(timeoutMs, callOptions.signal);
  const name = options.modelName;
  try {
    const common = {
      model,
      messages: toModelMessages(messages),
      allowSystemInMessages: true,
      maxRetries: 0,
      abortSignal: guard.signal,
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxTokens === undefined ? {} : { maxOutputTokens: options.maxTokens }),
    };
    if (schema === undefined) {
      const result = await generateText(common);
      return { text: result.text, usage: fromSdkUsage(result.usage, name) };
    }
    const output = Output.object({
      schema: jsonSchema<unknown>(schema.jsonSchema),
      name: schema.name,
      ...(schema.description === undefined ? {} : { description: schema.description }),
    });
    const result = await generateText({ ...common, output });
    return { text: result.text, usage: fromSdkUsage(result.usage, name), object: result.output };
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error) && !guard.timedOut() && !guard.aborted()) {
      return { text: error.text ?? "", usage: fromSdkUsage(error.usage, name) };
    }
    throw toPortError(error, {
      model: name,
      timeoutMs,
      timedOut: guard.timedOut(),
      aborted: guard.aborted(),
    });
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
 * A structured call; a server that refuses `response_format` (HTTP 400/422) is asked again without it.
 */
async function structuredCall(
  target: Endpoint,
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

const LLM_CAPABILITIES: PortCapabilities = Object.freeze({ ...BASE_CAPABILITIES });
const PARSER_CAPABILITIES: PortCapabilities = Object.freeze({
  ...BASE_CAPABILITIES,
  supportsStructuredOutput: true,
});

/** An `LlmPort` over an OpenAI-compatible endpoint. Throws `AdapterUnavailableError` when a setting is missing. */
export function openAiEndpointLlm(options: OpenAiEndpointOptions): LlmPort {
  const target = endpoint(options);
  return {
    capabilities: LLM_CAPABILITIES,
    async invoke(messages, callOptions = {}): Promise<LlmResponse> {
      const { text, usage } = await call(target, messages, callOptions);
      return { content: text, usage, isPartial: false, usageUnavailable: isUsageEmpty(usage) };
    },
    close: async () => {},
  };
}

/**
 * A `ParserPort` over an OpenAI-compatible endpoint: native structured output with the schema (JSON-schema
 * `response_format`); when the reply is not valid, JSON extracted from its text, then repaired; then one
 * retry telling the model the validation error. Usage is summed over the calls. Provider errors (rate
 * limits, timeouts, ...) are thrown as they are, for the retry policy to handle.
 */
export function openAiEndpointParser(options: OpenAiEndpointOptions): ParserPort {
  const target = endpoint(options);
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
