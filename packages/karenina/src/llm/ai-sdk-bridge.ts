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

/** What {@link callSignal} returns: the call's signal, what fired it, and `dispose` to run when the call ends. */
export interface CallGuard {
  signal: AbortSignal;
  timedOut(): boolean;
  aborted(): boolean;
  /** Clears the timer and the listener on the caller's signal; call it when the call settles. */
  dispose(): void;
}

/**
 * A signal that fires on the caller's abort or after `timeoutMs`, and tells which one happened. One controller
 * and one timer per call (cheaper than `AbortSignal.timeout` + `AbortSignal.any` at thousands of calls).
 */
export function callSignal(timeoutMs: number, signal: AbortSignal | undefined): CallGuard {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut && !signal?.aborted,
    aborted: () => signal?.aborted === true,
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
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
  /** Values (API keys) never to show: replaced by `[redacted]` in the message; a cause holding one is dropped. */
  secrets?: readonly string[];
}

const REDACTED = "[redacted]";

/** `text` with every occurrence of a secret replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== "") out = out.split(secret).join(REDACTED);
  return out;
}

/** Whether an SDK error carries a secret anywhere a logger could print it (message, response body, data). */
function leaksSecret(error: unknown, secrets: readonly string[]): boolean {
  if (secrets.length === 0) return false;
  const seen = new Set<unknown>();
  const texts: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 4 || value === null || value === undefined || seen.has(value)) return;
    if (typeof value === "string") {
      texts.push(value);
      return;
    }
    if (typeof value !== "object") return;
    seen.add(value);
    if (value instanceof Error) texts.push(value.message);
    for (const key of Object.getOwnPropertyNames(value)) {
      visit((value as Record<string, unknown>)[key], depth + 1);
    }
  };
  visit(error, 0);
  return texts.some((text) => secrets.some((secret) => secret !== "" && text.includes(secret)));
}

/**
 * Maps an error thrown by an AI SDK call onto the port errors (spec 05 §3.4), keeping the SDK error as cause.
 * Secrets are redacted from the message, and a cause that holds one (a server echoing the key) is dropped.
 */
export function toPortError(error: unknown, call: FailedCall): PortError {
  if (error instanceof PortError) return error;
  const secrets = call.secrets ?? [];
  return mapError(error, leaksSecret(error, secrets) ? undefined : error, call, secrets);
}

function mapError(error: unknown, cause: unknown, call: FailedCall, secrets: readonly string[]): PortError {
  const { model } = call;
  if (call.aborted) return new LlmAbortedError(model, cause);
  if (call.timedOut) return new LlmTimeoutError(call.timeoutMs, { model, cause });
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(last)) {
    const statusCode = last.statusCode;
    const message = redactSecrets(
      `LLM call to ${model} failed${statusCode === undefined ? "" : ` with HTTP ${statusCode}`}: ${last.message}`,
      secrets,
    );
    if (statusCode === 429) {
      const retryAfter = parseRetryAfter(last.responseHeaders?.["retry-after"]);
      return new RateLimitError(message, { model, statusCode, cause }, retryAfter);
    }
    const category =
      statusCode === undefined
        ? categoryOfMessage(messageOf(last.cause ?? last))
        : categoryOfStatus(statusCode);
    return new LlmCallError(message, {
      category,
      model,
      cause,
      ...(statusCode === undefined ? {} : { statusCode }),
    });
  }
  const message = messageOf(last);
  return new LlmCallError(redactSecrets(`LLM call to ${model} failed: ${message}`, secrets), {
    category: categoryOfMessage(message),
    model,
    cause,
  });
}
