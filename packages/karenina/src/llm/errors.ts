import { KareninaError } from "../errors/index.js";
import { emptyUsage, type UsageMetadata } from "./usage.js";

/** Base of every error a port or adapter throws (spec 05 §3.4). */
export class PortError extends KareninaError {
  override readonly name: string = "PortError";
}

/** An adapter cannot be built for a model configuration (missing setting, unknown interface, ...). */
export class AdapterUnavailableError extends PortError {
  override readonly name: string = "AdapterUnavailableError";

  constructor(
    message: string,
    readonly reason: string | null = null,
    readonly fallbackInterface: string | null = null,
  ) {
    super(message);
  }
}

/** How a failed call should be treated by a retry policy (spec 04 §14.1); only `permanent` is not retried. */
export type ErrorCategory = "connection" | "timeout" | "rate_limit" | "server_error" | "permanent";

/** What an LLM call error knows about the failed request. */
export interface LlmCallDetails {
  category: ErrorCategory;
  model: string;
  statusCode?: number;
  cause?: unknown;
}

/** An LLM call failed on the wire or at the provider. `category` drives retries. */
export class LlmCallError extends PortError {
  override readonly name: string = "LlmCallError";
  readonly category: ErrorCategory;
  readonly model: string;
  readonly statusCode: number | null;

  constructor(message: string, details: LlmCallDetails) {
    super(message, { cause: details.cause });
    this.category = details.category;
    this.model = details.model;
    this.statusCode = details.statusCode ?? null;
  }

  /** Whether a retry policy may try the call again. */
  get retryable(): boolean {
    return this.category !== "permanent";
  }
}

/** The provider refused the call for rate (HTTP 429). `retryAfterSeconds` comes from `Retry-After`, when sent. */
export class RateLimitError extends LlmCallError {
  override readonly name: string = "RateLimitError";

  constructor(
    message: string,
    details: Omit<LlmCallDetails, "category">,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message, { ...details, category: "rate_limit" });
  }
}

/** The call took longer than its per-call timeout. */
export class LlmTimeoutError extends LlmCallError {
  override readonly name: string = "LlmTimeoutError";

  constructor(
    readonly timeoutMs: number,
    details: Omit<LlmCallDetails, "category">,
  ) {
    super(`LLM call to ${details.model} timed out after ${timeoutMs} ms`, {
      ...details,
      category: "timeout",
    });
  }
}

/** The caller aborted the call through its `AbortSignal`. Not a failure of the provider: never retried. */
export class LlmAbortedError extends PortError {
  override readonly name: string = "LlmAbortedError";

  constructor(
    readonly model: string,
    cause?: unknown,
  ) {
    super(`LLM call to ${model} was aborted`, { cause });
  }
}

/** A parser could not produce a valid object. Keeps the judge's raw text and the usage spent trying. */
export class ParseError extends PortError {
  override readonly name: string = "ParseError";

  constructor(
    message: string,
    readonly rawResponse: string | null,
    readonly usage: UsageMetadata = emptyUsage(),
    readonly validationError: string | null = null,
  ) {
    super(message);
  }
}
