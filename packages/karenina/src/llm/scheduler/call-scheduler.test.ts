import { expect, test } from "vitest";
import { LlmAbortedError, RateLimitError } from "../errors.js";
import { RetryPolicySchema } from "../retry/index.js";
import type { Sleep } from "./backoff.js";
import { CallScheduler, SchedulerConfigError } from "./call-scheduler.js";

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A sleep whose timers fire only when the test says so. */
function manualTimers() {
  const timers: { ms: number; fire: () => void }[] = [];
  const sleep: Sleep = (ms) => new Promise<void>((resolve) => timers.push({ ms, fire: resolve }));
  return { timers, sleep };
}

const rateLimited = (retryAfter: number | null) =>
  new RateLimitError("429 too many requests", { model: "m", statusCode: 429 }, retryAfter);

test("calls in flight never exceed the global or the per-endpoint limit", async () => {
  const scheduler = new CallScheduler({ globalLimit: 3, endpointLimits: { a: 2 } });
  const live = { total: 0, a: 0, b: 0 };
  const peak = { total: 0, a: 0, b: 0 };
  let seed = 11;
  const nextTicks = () => {
    seed = (seed * 48271) % 2147483647;
    return 1 + (seed % 4);
  };
  const call = (key: "a" | "b") => async () => {
    live.total++;
    live[key]++;
    peak.total = Math.max(peak.total, live.total);
    peak[key] = Math.max(peak[key], live[key]);
    for (let i = nextTicks(); i > 0; i--) await flush();
    live.total--;
    live[key]--;
    return key;
  };
  const runs = Array.from({ length: 30 }, (_, i) => {
    const key = i % 3 === 0 ? "b" : "a";
    return scheduler.run(key, call(key));
  });
  expect(scheduler.stats().inFlight).toBe(3);
  expect(scheduler.stats().endpoints.a?.inFlight).toBe(2);
  await Promise.all(runs);
  expect(peak.total).toBe(3);
  expect(peak.a).toBe(2);
  expect(peak.b).toBeLessThanOrEqual(3);
  expect(scheduler.stats()).toMatchObject({ inFlight: 0, queued: 0 });
});

test("calls start in the order they were queued", async () => {
  const scheduler = new CallScheduler({ globalLimit: 1 });
  const started: number[] = [];
  const runs = [0, 1, 2, 3, 4].map((n) =>
    scheduler.run(n % 2 === 0 ? "x" : "y", async () => {
      started.push(n);
      await flush();
    }),
  );
  await Promise.all(runs);
  expect(started).toEqual([0, 1, 2, 3, 4]);
});

test("a full endpoint does not block calls to another endpoint queued behind it", async () => {
  const scheduler = new CallScheduler({ globalLimit: 4, endpointLimits: { slow: 1 } });
  const gate = deferred();
  const started: string[] = [];
  const slow1 = scheduler.run("slow", async () => {
    started.push("slow1");
    await gate.promise;
  });
  const slow2 = scheduler.run("slow", async () => void started.push("slow2"));
  const fast = scheduler.run("fast", async () => void started.push("fast"));
  await fast;
  expect(started).toEqual(["slow1", "fast"]);
  gate.resolve();
  await Promise.all([slow1, slow2]);
  expect(started).toEqual(["slow1", "fast", "slow2"]);
});

test("a queued call aborted before it starts never runs", async () => {
  const scheduler = new CallScheduler({ globalLimit: 1 });
  const gate = deferred();
  const ran: string[] = [];
  const first = scheduler.run("e", async () => {
    ran.push("first");
    await gate.promise;
  });
  const controller = new AbortController();
  const second = scheduler.run("e", async () => void ran.push("second"), { signal: controller.signal });
  const third = scheduler.run("e", async () => void ran.push("third"));
  expect(scheduler.stats().queued).toBe(2);
  controller.abort();
  await expect(second).rejects.toBeInstanceOf(LlmAbortedError);
  expect(scheduler.stats().queued).toBe(1);
  gate.resolve();
  await Promise.all([first, third]);
  expect(ran).toEqual(["first", "third"]);
  await expect(
    scheduler.run("e", async () => "never", { signal: AbortSignal.abort() }),
  ).rejects.toBeInstanceOf(LlmAbortedError);
});

test("a 429 halves the endpoint limit and pauses it until Retry-After; successes raise the limit back", async () => {
  const { timers, sleep } = manualTimers();
  const scheduler = new CallScheduler({ endpointLimits: { api: 8 }, recoverAfterSuccesses: 2, sleep });
  await expect(
    scheduler.run("api", async () => {
      throw rateLimited(30);
    }),
  ).rejects.toBeInstanceOf(RateLimitError);
  expect(scheduler.stats().endpoints.api).toMatchObject({ limit: 4, cap: 8, paused: true, rateLimited: 1 });
  expect(scheduler.stats().rateLimited).toBe(1);
  expect(timers.map((t) => t.ms)).toEqual([30000]);

  let ran = 0;
  const queued = scheduler.run("api", async () => ++ran);
  const other = scheduler.run("other", async () => "unaffected");
  await expect(other).resolves.toBe("unaffected");
  await flush();
  expect(ran).toBe(0);
  timers[0]?.fire();
  await expect(queued).resolves.toBe(1);
  expect(scheduler.stats().endpoints.api).toMatchObject({ limit: 4, paused: false });

  // 1 success so far; each 2 consecutive successes add 1, up to the cap of 8
  for (let i = 0; i < 7; i++) await scheduler.run("api", async () => ++ran);
  expect(scheduler.stats().endpoints.api?.limit).toBe(8);
  for (let i = 0; i < 4; i++) await scheduler.run("api", async () => ++ran);
  expect(scheduler.stats().endpoints.api?.limit).toBe(8);
});

test("the cut limit is enforced and never drops below 1", async () => {
  const scheduler = new CallScheduler({ endpointLimits: { api: 2 } });
  for (let i = 0; i < 3; i++) {
    await expect(
      scheduler.run("api", async () => {
        throw rateLimited(null);
      }),
    ).rejects.toBeInstanceOf(RateLimitError);
  }
  expect(scheduler.stats().endpoints.api).toMatchObject({ limit: 1, paused: false, rateLimited: 3 });
  let live = 0;
  let peak = 0;
  await Promise.all(
    [1, 2, 3].map(() =>
      scheduler.run("api", async () => {
        peak = Math.max(peak, ++live);
        await flush();
        live--;
      }),
    ),
  );
  expect(peak).toBe(1);
});

test("runWithRetries retries through the scheduler, counts retries, and backoff holds no permit", async () => {
  const policy = RetryPolicySchema.parse({});
  const waits: number[] = [];
  const scheduler = new CallScheduler({ globalLimit: 1, sleep: async (ms) => void waits.push(ms) });
  let attempts = 0;
  const flaky = scheduler.runWithRetries(
    "api",
    async () => {
      attempts++;
      if (attempts < 3) throw rateLimited(2);
      return "ok";
    },
    { policy, random: () => 0 },
  );
  await expect(flaky).resolves.toBe("ok");
  expect(attempts).toBe(3);
  expect(waits).toEqual([2000, 2000, 2000, 2000]); // two backoffs and two endpoint pauses, all 2 s
  expect(scheduler.stats()).toMatchObject({ retries: 2, rateLimited: 2, inFlight: 0 });
  expect(scheduler.stats().endpoints.api).toMatchObject({ retries: 2, rateLimited: 2 });
});

test("impossible limits are refused", () => {
  expect(() => new CallScheduler({ globalLimit: 0 })).toThrow(SchedulerConfigError);
  expect(() => new CallScheduler({ endpointLimits: { a: 1.5 } })).toThrow("endpointLimits[a]");
});
