/**
 * What wraps a tool-loop agent's calls (spec 05 §5.1, §10: the original's LangChain agent middleware): retries
 * of model calls and of MCP tool calls with exponential backoff, a limit on tool calls, and the summarisation
 * of a conversation that grew past a token threshold. `agentMiddlewareFor` (pipeline config) builds it from a
 * model's `agent_middleware`.
 */
import { type LanguageModelTarget, type RandomSource, realSleep, type Sleep } from "../../llm/index.js";

/** Exponential backoff: wait `initialDelayMs × backoffFactor^n` before retry n (0-based), capped, ±25 % jitter. */
export interface RetrySettings {
  maxRetries: number;
  backoffFactor: number;
  initialDelayMs: number;
  maxDelayMs: number;
  jitter: boolean;
}

/** Summarise the older messages once the conversation is estimated (characters / 4) at `triggerTokens`. */
export interface SummarizationSettings {
  triggerTokens: number;
  /** The most recent messages kept as they are. */
  keepMessages: number;
  /** The model that writes the summary (the agent's own, or another at its endpoint). */
  model: LanguageModelTarget;
}

/** The middleware of a tool-loop agent. */
export interface AgentMiddleware {
  /** Tool calls allowed in one run. */
  toolCallLimit: number;
  /**
   * Beyond the limit: `refuse` answers each further call with an error result telling the model to stop (the
   * original's `exit_behavior: end`); `error` ends the run with an `AgentExecutionError` (`continue`).
   */
  toolLimitExceeded: "refuse" | "error";
  /**
   * A model call failing after its retries: `continue` ends the run with a placeholder assistant message
   * ("Model call failed after …", caught by the pipeline's PlaceholderRetryAutoFail); `raise` throws.
   */
  modelRetry: RetrySettings & { onFailure: "continue" | "raise" };
  /**
   * An MCP tool call failing after its retries: `return_message` gives the model an error result saying so;
   * `raise` ends the run with an `AgentExecutionError`.
   */
  toolRetry: RetrySettings & { onFailure: "return_message" | "raise" };
  summarization: SummarizationSettings | null;
  /** Waits between retries; injectable for tests. */
  sleep?: Sleep;
  random?: RandomSource;
}

/** The wait before retry `retryNumber` (0-based), in milliseconds. */
export function retryDelayMs(settings: RetrySettings, retryNumber: number, random: RandomSource): number {
  const base = Math.min(settings.initialDelayMs * settings.backoffFactor ** retryNumber, settings.maxDelayMs);
  return settings.jitter ? base * (0.75 + 0.5 * random()) : base;
}

/** `attempt` or `attempts`, as the original's failure messages write it. */
export function attempts(count: number): string {
  return `${count} ${count === 1 ? "attempt" : "attempts"}`;
}

/** An error's type and message as the original's failure messages show them: `Type: message`. */
export function errorSummary(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

/**
 * Runs `call` with retries; after the last failure returns `onExhausted(error, attemptsMade)` (which may
 * throw). Never retries once `signal` aborts.
 */
export async function retrying<T>(
  call: () => Promise<T>,
  settings: RetrySettings,
  context: { signal: AbortSignal | undefined; sleep?: Sleep; random?: RandomSource },
  onExhausted: (error: unknown, attemptsMade: number) => T | Promise<T>,
): Promise<T> {
  const sleep = context.sleep ?? realSleep;
  for (let retry = 0; ; retry++) {
    try {
      return await call();
    } catch (error) {
      if (context.signal?.aborted) throw error;
      if (retry >= settings.maxRetries) return onExhausted(error, retry + 1);
      await sleep(retryDelayMs(settings, retry, context.random ?? Math.random), context.signal);
      if (context.signal?.aborted) throw error;
    }
  }
}
