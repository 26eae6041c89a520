/** Conversions between the library's port types and the Vercel AI SDK's, shared by the AI SDK adapters. */
import { APICallError, type LanguageModelUsage, type ModelMessage, RetryError } from "ai";
import {
  type ErrorCategory,
  LlmAbortedError,
  LlmCallError,
  LlmTimeoutError,
  PortError,
  RateLimitError,
} from "./errors.js";
import { type Message, messageText } from "./messages.js";
import type { UsageMetadata } from "./usage.js";

/** Text-only messages as the AI SDK wants them. Tool blocks are refused: an `LlmPort` call has no tools. */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  return messages.map((message) => {
    if (
      message.role === "tool" ||
      message.content.some((b) => b.type === "tool_use" || b.type === "tool_result")
    ) {
      throw new PortError(
        `a single LLM call takes text messages only; found a ${message.role} message with tools`,
      );
    }
    return { role: message.role, content: messageText(message) } as ModelMessage;
  });
}

/** The SDK's usage in the library's shape. */
export function fromSdkUsage(usage: LanguageModelUsage | undefined, model: string): UsageMetadata {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const result: UsageMetadata = {
    input_tokens: input,
    output_tokens: output,
    total_tokens: usage?.totalTokens ?? input + output,
    model,
  };
  const cacheRead = usage?.inputTokenDetails?.cacheReadTokens;
  const cacheWrite = usage?.inputTokenDetails?.cacheWriteTokens;
  if (cacheRead) result.cache_read_tokens = cacheRead;
  if (cacheWrite) result.cache_creation_tokens = cacheWrite;
  return result;
}

/** A signal that fires on the caller's abort or after `timeoutMs`, and tells which one happened. */
export function callSignal(timeoutMs: number, signal: AbortSignal | undefined) {
  const timeout = AbortSignal.timeout(timeoutMs);
  return {
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    timedOut: () => timeout.aborted && !signal?.aborted,
    aborted: () => signal?.aborted === true,
  };
}

/** Seconds to wait from a `Retry-After` header: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

function categoryOfStatus(status: number | undefined): ErrorCategory {
  if (status === undefined) return "connection";
  if (status === 408) return "timeout";
  if (status === 429) return "rate_limit";
  return status >= 500 ? "server_error" : "permanent";
}

/** The message of an error, or its string form. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function categoryOfMessage(message: string): ErrorCategory {
  const text = message.toLowerCase();
  if (/connection|network|dns|fetch failed|econnrefused|econnreset|socket/.test(text)) return "connection";
  if (/timeout|timed out/.test(text)) return "timeout";
  if (/rate limit|429|overloaded/.test(text)) return "rate_limit";
  if (/\b50[023]\b/.test(text)) return "server_error";
  return "permanent";
}

/** What a failed SDK call becomes, given how the call's signal ended. */
export interface FailedCall {
  model: string;
  timeoutMs: number;
  timedOut: boolean;
  aborted: boolean;
}

/** Maps an error thrown by an AI SDK call onto the port errors (spec 05 §3.4), keeping the SDK error as cause. */
export function toPortError(error: unknown, call: FailedCall): PortError {
  if (error instanceof PortError) return error;
  const { model } = call;
  if (call.aborted) return new LlmAbortedError(model, error);
  if (call.timedOut) return new LlmTimeoutError(call.timeoutMs, { model, cause: error });
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(last)) {
    const statusCode = last.statusCode;
    const message = `LLM call to ${model} failed${statusCode === undefined ? "" : ` with HTTP ${statusCode}`}: ${last.message}`;
    if (statusCode === 429) {
      const retryAfter = parseRetryAfter(last.responseHeaders?.["retry-after"]);
      return new RateLimitError(message, { model, statusCode, cause: error }, retryAfter);
    }
    const category =
      statusCode === undefined
        ? categoryOfMessage(messageOf(last.cause ?? last))
        : categoryOfStatus(statusCode);
    return new LlmCallError(message, {
      category,
      model,
      cause: error,
      ...(statusCode === undefined ? {} : { statusCode }),
    });
  }
  const message = messageOf(last);
  return new LlmCallError(`LLM call to ${model} failed: ${message}`, {
    category: categoryOfMessage(message),
    model,
    cause: error,
  });
}
