import { expect, test } from "vitest";
import { LlmAbortedError, LlmCallError, LlmTimeoutError, RateLimitError } from "../errors.js";
import { RetryPolicySchema } from "../retry/index.js";
import { backoffCapMs, backoffDelayMs, type Sleep } from "./backoff.js";
import { type RetryEvent, withRetries } from "./with-retries.js";

const policy = RetryPolicySchema.parse({});

function recordingSleep(): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

const serverError = () =>
  new LlmCallError("502 bad gateway", { category: "server_error", model: "m", statusCode: 502 });
const connectionError = () => new LlmCallError("ECONNRESET", { category: "connection", model: "m" });

test("backoff grows exponentially from backoff_min and is capped at backoff_max", () => {
  const config = { max_attempts: 10, backoff_min: 1, backoff_max: 10, backoff_multiplier: 2 };
  expect([0, 1, 2, 3, 4, 5].map((n) => backoffCapMs(config, n))).toEqual([
    1000, 2000, 4000, 8000, 10000, 10000,
  ]);
  expect(backoffDelayMs(config, 2, () => 0.25)).toBe(1000);
});

test("jittered delays stay within [0, cap] for every retry index", () => {
  const config = policy.timeout;
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return (seed - 1) / 2147483646;
  };
  for (let n = 0; n < 8; n++) {
    for (let i = 0; i < 50; i++) {
      const delay = backoffDelayMs(config, n, random);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(backoffCapMs(config, n));
    }
  }
  expect(backoffDelayMs(config, 0, () => 0)).toBe(0);
  expect(backoffDelayMs(config, 0, () => 1)).toBe(5000);
});

test("retryable errors are retried with the category's backoff sequence, then the last error is thrown", async () => {
  const { sleep, waits } = recordingSleep();
  const events: RetryEvent[] = [];
  let calls = 0;
  const failing = async () => {
    calls++;
    throw connectionError();
  };
  await expect(
    withRetries(failing, { policy, sleep, random: () => 1, onRetry: (e) => events.push(e) }),
  ).rejects.toThrow("ECONNRESET");
  expect(calls).toBe(4); // 1 call + connection.max_attempts (3) retries
  expect(waits).toEqual([1000, 2000, 4000]);
  expect(events.map((e) => [e.attempt, e.category, e.retriesUsed, e.delayMs])).toEqual([
    [2, "connection", 0, 1000],
    [3, "connection", 1, 2000],
    [4, "connection", 2, 4000],
  ]);
});

test("a call that succeeds after failures returns its value, and each category has its own budget", async () => {
  const { sleep, waits } = recordingSleep();
  const errors = [serverError(), serverError(), new LlmTimeoutError(100, { model: "m" }), connectionError()];
  const result = await withRetries(
    async (attempt) => {
      const error = errors.shift();
      if (error) throw error;
      return `ok on attempt ${attempt}`;
    },
    { policy, sleep, random: () => 0.5 },
  );
  expect(result).toBe("ok on attempt 5");
  // server_error 2 s, 4 s; timeout 5 s; connection 1 s — each halved by the jitter
  expect(waits).toEqual([1000, 2000, 2500, 500]);
});

test("Retry-After is the minimum wait after a 429", async () => {
  const { sleep, waits } = recordingSleep();
  const errors = [
    new RateLimitError("429", { model: "m", statusCode: 429 }, 42),
    new RateLimitError("429", { model: "m", statusCode: 429 }, 1),
    new RateLimitError("429", { model: "m", statusCode: 429 }, null),
  ];
  await withRetries(
    async () => {
      const error = errors.shift();
      if (error) throw error;
      return "done";
    },
    { policy, sleep, random: () => 0.5 },
  );
  // rate_limit backoff caps: 5 s, 10 s, 20 s, jittered by 0.5
  expect(waits).toEqual([42000, 5000, 10000]);
});

test("non-retryable errors and aborts are thrown at once without waiting", async () => {
  for (const error of [
    new LlmCallError("401 unauthorized", { category: "permanent", model: "m", statusCode: 401 }),
    new TypeError("bug in the caller"),
    new LlmAbortedError("m"),
  ]) {
    const { sleep, waits } = recordingSleep();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw error;
    };
    await expect(withRetries(failing, { policy, sleep })).rejects.toBe(error);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  }
});

test("aborting during the backoff wait stops with LlmAbortedError and no further attempt", async () => {
  const controller = new AbortController();
  let calls = 0;
  const neverWakes: Sleep = () => new Promise(() => {});
  const pending = withRetries(
    async () => {
      calls++;
      throw serverError();
    },
    { policy, signal: controller.signal, sleep: neverWakes, model: "gpt-x" },
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  controller.abort();
  await expect(pending).rejects.toBeInstanceOf(LlmAbortedError);
  await expect(pending).rejects.toThrow("gpt-x");
  expect(calls).toBe(1);
});

test("an already aborted signal never calls", async () => {
  let calls = 0;
  const call = async () => {
    calls++;
    return 1;
  };
  await expect(withRetries(call, { policy, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
    LlmAbortedError,
  );
  expect(calls).toBe(0);
});
