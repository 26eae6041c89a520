import type { Message } from "./messages.js";
import type { UsageMetadata } from "./usage.js";

/** What an adapter can do (spec 05 §2); the prompt assembler and stages read it. */
export interface PortCapabilities {
  supportsSystemPrompt: boolean;
  supportsStructuredOutput: boolean;
  supportsStreaming: boolean;
  supportsFileTools: boolean;
  supportsCodeExecution: boolean;
  usesSandboxedExecution: boolean;
}

/** Capabilities of a plain chat model: system prompts and nothing else. */
export const BASE_CAPABILITIES: PortCapabilities = Object.freeze({
  supportsSystemPrompt: true,
  supportsStructuredOutput: false,
  supportsStreaming: false,
  supportsFileTools: false,
  supportsCodeExecution: false,
  usesSandboxedExecution: false,
});

/** Per-call options of every port method. */
export interface CallOptions {
  /** Aborts the call; the port then throws `LlmAbortedError`. */
  signal?: AbortSignal;
  /** Wall-clock limit of one HTTP call in milliseconds; overrides the adapter's default. */
  timeoutMs?: number;
}

/** The answer of one LLM call. */
export interface LlmResponse {
  content: string;
  usage: UsageMetadata;
  /** True when the text was cut short (streaming timeout); always false for a completed call. */
  isPartial: boolean;
  /** True when the provider reported no usage (or only zeros). */
  usageUnavailable: boolean;
}

/** One LLM call, no tools: messages in, text and usage out (spec 05 §3.1). */
export interface LlmPort {
  readonly capabilities: PortCapabilities;
  invoke(messages: readonly Message[], options?: CallOptions): Promise<LlmResponse>;
  /** Releases resources; idempotent. */
  close(): Promise<void>;
}

/** The outcome of checking a value against a schema: the typed value, or a readable error. */
export type Validation<T> = { success: true; value: T } | { success: false; error: string };

/**
 * The shape a parser must produce: a JSON Schema sent to the model (native structured output and prompt
 * text) and a validator run on what comes back. Build one from a Zod schema with `zodStructuredSchema`.
 */
export interface StructuredSchema<T> {
  /** A short identifier (letters, digits, `_`, `-`), sent as the schema's name. */
  name: string;
  description?: string;
  jsonSchema: Record<string, unknown>;
  validate(value: unknown): Validation<T>;
}

/** How a parser obtained its object. */
export type ParseStrategy = "native" | "extracted" | "repaired" | "feedback_retry";

/** A validated object, the raw text it came from and the usage of every call made. */
export interface ParseResult<T> {
  parsed: T;
  rawText: string;
  usage: UsageMetadata;
  strategy: ParseStrategy;
}

/**
 * LLM-backed structured extraction (spec 05 §3.2): receives fully assembled messages, owns the fallback and
 * repair logic, and throws `ParseError` (with the raw judge text) when it cannot produce a valid object.
 */
export interface ParserPort {
  readonly capabilities: PortCapabilities;
  parse<T>(
    messages: readonly Message[],
    schema: StructuredSchema<T>,
    options?: CallOptions,
  ): Promise<ParseResult<T>>;
  /** Releases resources; idempotent. */
  close(): Promise<void>;
}
