import { type ErrorCategory, type ErrorPatternConfig, LlmCallError } from "../llm/index.js";

const TYPE_NAMES: readonly [RegExp, ErrorCategory][] = [
  [/^(ConnectionError|APIConnectionError)$/, "connection"],
  [
    /^(TimeoutError|ReadTimeout|ConnectTimeout|APITimeoutError|StreamingTimeoutError|LlmTimeoutError)$/,
    "timeout",
  ],
  [/^(RateLimitError|OverloadedError)$/, "rate_limit"],
  [/^(InternalServerError|HTTPError)$/, "server_error"],
];

const MESSAGE_PATTERNS: readonly [RegExp, ErrorCategory][] = [
  [/connection|network|dns|econnrefused|econnreset|fetch failed/, "connection"],
  [/timeout|timed out/, "timeout"],
  [/rate limit|429|overloaded/, "rate_limit"],
  [/500|502|503/, "server_error"],
  [/event loop|portal|temporary failure/, "connection"],
];

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; ) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * The retry category of an exception (spec 04 §14.1): the library's own call errors carry it; otherwise user
 * patterns (type names, then message substrings), then built-in type names and message substrings, walking
 * the cause chain so a wrapped connection error is still recognised; `permanent` when nothing matches.
 */
export function classifyError(error: unknown, patterns: readonly ErrorPatternConfig[] = []): ErrorCategory {
  const chain = causeChain(error);
  for (const link of chain) if (link instanceof LlmCallError) return link.category;
  for (const link of chain) {
    const name = (link as { name?: unknown }).name;
    const message = String((link as { message?: unknown }).message ?? link).toLowerCase();
    for (const pattern of patterns) {
      const hit =
        pattern.match_type === "type_name"
          ? name === pattern.pattern
          : message.includes(pattern.pattern.toLowerCase());
      if (hit) return pattern.category;
    }
    for (const [regex, category] of TYPE_NAMES)
      if (typeof name === "string" && regex.test(name)) return category;
    for (const [regex, category] of MESSAGE_PATTERNS) if (regex.test(message)) return category;
  }
  return "permanent";
}

/** `<Type>: <message>` of an exception, as stage errors quote it. */
export function describeException(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
