import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CallScheduler, LlmAbortedError, RateLimitError } from "../llm/index.js";
import {
  createTestDatabase,
  endPool,
  postgresForTests,
  type TestDatabase,
} from "../test-support/postgres.js";
import { CALL_LIMITS_SCHEMA_SQL } from "./fleet-schema-limits.js";
import {
  FleetCallLimitsError,
  PostgresCallLimits,
  type PostgresCallLimitsOptions,
} from "./postgres-call-limits.js";

const { adminUrl, skipReason } = postgresForTests();
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const PERMIT_HOLDER = fileURLToPath(new URL("./__fixtures__/permit-holder.ts", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts the calls running at once, as the provider would see them. */
class ConcurrencyProbe {
  running = 0;
  peak = 0;

  async run<T>(ms: number, value: T): Promise<T> {
    this.running += 1;
    this.peak = Math.max(this.peak, this.running);
    try {
      await sleep(ms);
      return value;
    } finally {
      this.running -= 1;
    }
  }
}

describe.skipIf(skipReason !== null)("PostgresCallLimits on a real PostgreSQL", () => {
  let db: TestDatabase;
  let admin: pg.Pool;
  const pools: pg.Pool[] = [];
  const instances: PostgresCallLimits[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(adminUrl as string);
    admin = new pg.Pool({ connectionString: db.url, max: 2 });
    await admin.query(CALL_LIMITS_SCHEMA_SQL);
    await admin.query(CALL_LIMITS_SCHEMA_SQL); // idempotent
  });

  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    for (const instance of instances) await instance.close();
    for (const pool of pools) await endPool(pool);
    if (admin) await endPool(admin);
    await db?.drop();
  });

  /** One worker of the fleet: its own pool (its own connections) and its own PostgresCallLimits. */
  function fleetWorker(options: Omit<PostgresCallLimitsOptions, "pool" | "holder"> & { holder?: string }) {
    const pool = new pg.Pool({ connectionString: db.url, max: 4 });
    pools.push(pool);
    const limits = new PostgresCallLimits({
      holder: `worker-${instances.length}`,
      warmMs: WARM_MS,
      ...options,
      pool,
    });
    instances.push(limits);
    return limits;
  }

  const newScope = () => `run-${randomUUID()}`;

  /** A permit whose call ended stays warm this long for this process's next call before it goes back. */
  const WARM_MS = 25;
  const warmPermitsCooled = () => sleep(80);

  /**
   * `n` calls of `api` on one worker that end only once all `n` run, so each needs a permit of its own (none
   * can be handed over from a call that ended).
   */
  async function callsAtOnce(worker: PostgresCallLimits, n: number, call: () => Promise<unknown>) {
    let started = 0;
    let allStarted = () => {};
    const all = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    await Promise.all(
      Array.from({ length: n }, () =>
        worker.hold("api", async () => {
          if (++started === n) allStarted();
          await all;
          return call();
        }),
      ),
    );
  }

  async function permitsOf(scope: string): Promise<number> {
    await warmPermitsCooled();
    const { rows } = await admin.query<{ n: string }>(
      "SELECT count(*) AS n FROM karenina_fleet_permits WHERE scope = $1",
      [scope],
    );
    return Number(rows[0]?.n);
  }

  async function limitOf(scope: string, endpoint: string): Promise<number> {
    await warmPermitsCooled();
    const { rows } = await admin.query<{ current_limit: number }>(
      "SELECT current_limit FROM karenina_fleet_endpoints WHERE scope = $1 AND endpoint = $2",
      [scope, endpoint],
    );
    return rows[0]?.current_limit as number;
  }

  test("an endpoint limit of 4 holds across three workers: at most 4 calls run at once and all 30 finish", async () => {
    const scope = newScope();
    const workers = [0, 1, 2].map(() =>
      fleetWorker({ scope, globalLimit: 10, endpointLimits: { "api-a": 4 } }),
    );
    const probe = new ConcurrencyProbe();

    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (workers[i % 3] as PostgresCallLimits).hold("api-a", () => probe.run(100, i)),
      ),
    );

    expect(results).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(probe.peak).toBe(4);
    expect(await permitsOf(scope)).toBe(0);
    for (const worker of workers) expect(worker.stats).toMatchObject({ lost: 0, failedUpdates: 0 });
    expect(workers.reduce((sum, worker) => sum + worker.stats.taken, 0)).toBeLessThanOrEqual(30);
  });

  test("a busy worker reuses its permits: 40 calls in a row take one permit, and the limit still holds", async () => {
    const scope = newScope();
    const worker = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 2 } });
    const other = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 2 } });
    const probe = new ConcurrencyProbe();
    for (let i = 0; i < 40; i++) await worker.hold("api", () => probe.run(2, i));
    expect(worker.stats.taken).toBeLessThanOrEqual(2);
    // Four callers on each of two workers sharing a limit of 2: permits handed over locally never add a third.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? worker : other).hold("api", () => probe.run(20, i)),
      ),
    );
    expect(probe.peak).toBe(2);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("a worker keeps each of its idle permits for its next calls: 10 rounds of 4 calls at once take 4 permits", async () => {
    const scope = newScope();
    const worker = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 4 }, warmMs: 60_000 });
    const probe = new ConcurrencyProbe();
    try {
      for (let n = 0; n < 10; n++) await callsAtOnce(worker, 4, () => probe.run(1, n));
      expect(worker.stats.taken).toBe(4);
      expect(probe.peak).toBe(4);
    } finally {
      await worker.close(); // gives its idle permits back
    }
    expect(await permitsOf(scope)).toBe(0);
  });

  test("idle permits never keep another worker waiting: a refused take makes their holder give them back", async () => {
    const scope = newScope();
    const options = { scope, globalLimit: 10, endpointLimits: { api: 2 }, warmMs: 60_000 };
    const keeper = fleetWorker(options);
    const other = fleetWorker(options);
    try {
      await callsAtOnce(keeper, 2, async () => {});
      expect(await permitsOf(scope)).toBe(2); // both kept idle for the keeper's next calls (60 s)
      const held = await other.hold("api", async () => permitsOf(scope));
      // The other worker ran while the keeper's idle permits were back in the pool: only its own was held.
      expect(held).toBe(1);
      expect(other.stats.refused).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([keeper.close(), other.close()]);
    }
    expect(await permitsOf(scope)).toBe(0);
  });

  test("a 429 in one worker stops another from reusing its permits: its next call waits for the pause", async () => {
    const scope = newScope();
    const options = { scope, globalLimit: 10, endpointLimits: { api: 4 } };
    const busy = fleetWorker(options);
    const limited = fleetWorker(options);
    await limited.hold("api", async () => "listening");
    const starts: number[] = [];
    let rateLimitedAt = Number.POSITIVE_INFINITY;
    const loop = (async () => {
      while (Date.now() < rateLimitedAt + 1_500)
        await busy.hold("api", async () => {
          starts.push(Date.now());
          await sleep(20);
        });
    })();
    await sleep(200);
    await expect(
      limited.hold("api", () => Promise.reject(new RateLimitError("429 from api", { model: "api" }, 1))),
    ).rejects.toBeInstanceOf(RateLimitError);
    rateLimitedAt = Date.now();
    await loop;
    // The busy worker's calls started before the 429 was announced (a few ms), then none until the pause ended.
    const duringPause = starts.filter((t) => t > rateLimitedAt + 100 && t < rateLimitedAt + 900);
    expect(duringPause).toEqual([]);
    expect(starts.some((t) => t >= rateLimitedAt + 900)).toBe(true);
    expect(starts.filter((t) => t < rateLimitedAt).length).toBeGreaterThan(3);
  });

  test("the global limit binds calls to different endpoints together", async () => {
    const scope = newScope();
    const workers = [0, 1].map(() => fleetWorker({ scope, globalLimit: 3, endpointLimits: { a: 3, b: 3 } }));
    const all = new ConcurrencyProbe();
    const perEndpoint = { a: new ConcurrencyProbe(), b: new ConcurrencyProbe() };

    await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const endpoint = i % 2 === 0 ? "a" : "b";
        return (workers[i % 2 === 0 ? 0 : 1] as PostgresCallLimits).hold(endpoint, () =>
          Promise.all([all.run(80, i), perEndpoint[endpoint].run(80, i)]),
        );
      }),
    );

    expect(all.peak).toBe(3);
    expect(perEndpoint.a.peak).toBeGreaterThan(0);
    expect(perEndpoint.b.peak).toBeGreaterThan(0);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("a 429 in one worker pauses the endpoint for another and halves the shared limit; successes restore it", async () => {
    const scope = newScope();
    const options = { scope, globalLimit: 10, endpointLimits: { api: 4 }, recoverAfterSuccesses: 2 };
    const first = fleetWorker(options);
    const second = fleetWorker(options);

    await expect(
      first.hold("api", () => Promise.reject(new RateLimitError("429 from api", { model: "api" }, 1))),
    ).rejects.toBeInstanceOf(RateLimitError);
    const rateLimitedAt = Date.now();
    expect(await limitOf(scope, "api")).toBe(2);

    const startedAt = await second.hold("api", async () => Date.now());
    expect(startedAt - rateLimitedAt).toBeGreaterThanOrEqual(900);

    // That success was the first of a streak of 2: one more raises the limit to 3, two more to 4 (the cap).
    await second.hold("api", async () => "ok");
    expect(await limitOf(scope, "api")).toBe(3);
    await first.hold("api", async () => "ok");
    await second.hold("api", async () => "ok");
    expect(await limitOf(scope, "api")).toBe(4);
    await first.hold("api", async () => "ok");
    await first.hold("api", async () => "ok");
    expect(await limitOf(scope, "api")).toBe(4);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("an error other than a 429 neither pauses nor cuts the limit", async () => {
    const scope = newScope();
    const worker = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 4 } });

    await expect(worker.hold("api", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const before = Date.now();
    await worker.hold("api", async () => "ok");

    expect(Date.now() - before).toBeLessThan(900);
    expect(await limitOf(scope, "api")).toBe(4);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("the permit of a SIGKILLed worker outlives its lease while it lives, and is free again after it", async () => {
    const scope = newScope();
    const child = spawn(
      process.execPath,
      ["--import", TSX_LOADER, PERMIT_HOLDER, db.url, scope, "api", "2"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(child);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 20_000;
    while (!output.includes("holding") && Date.now() < deadline) await sleep(50);
    expect(output).toContain("holding");

    // Longer than the lease: the child's renewals keep its permit.
    await sleep(3000);
    const probe = await admin.query<{ permit_id: string | null }>(
      "SELECT permit_id FROM karenina_fleet_take_permit($1, 'api', 'probe', 1, 10, 2)",
      [scope],
    );
    expect(probe.rows[0]?.permit_id).toBeNull();

    child.kill("SIGKILL");
    await once(child, "exit");
    const killedAt = Date.now();
    const worker = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 1 }, leaseSeconds: 2 });
    const startedAt = await worker.hold("api", async () => Date.now());

    // Its last renewal was at most 2/3 s before the kill, so the lease ran for at least 1.3 s more.
    expect(startedAt - killedAt).toBeGreaterThanOrEqual(1000);
    expect(startedAt - killedAt).toBeLessThan(10_000);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("aborting a call that waits for a permit rejects with LlmAbortedError and leaves no permit", async () => {
    const scope = newScope();
    const first = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 1 } });
    const second = fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 1 } });
    let finish: () => void = () => undefined;
    const running = first.hold("api", () => new Promise<void>((resolve) => (finish = resolve)));
    await sleep(100);

    const controller = new AbortController();
    let ran = false;
    const waiting = second.hold(
      "api",
      async () => {
        ran = true;
      },
      controller.signal,
    );
    await sleep(300);
    controller.abort(new Error("cancelled by the test"));

    await expect(waiting).rejects.toBeInstanceOf(LlmAbortedError);
    expect(await permitsOf(scope)).toBe(1);
    finish();
    await running;
    await sleep(300);
    expect(ran).toBe(false);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("an already aborted signal rejects at once without taking a permit", async () => {
    const scope = newScope();
    const worker = fleetWorker({ scope, globalLimit: 10 });

    await expect(worker.hold("api", async () => "ran", AbortSignal.abort())).rejects.toBeInstanceOf(
      LlmAbortedError,
    );
    expect(worker.stats.taken).toBe(0);
  });

  test("two CallSchedulers with generous local limits keep the shared endpoint limit", async () => {
    const scope = newScope();
    const schedulers = [0, 1].map(
      () =>
        new CallScheduler({
          globalLimit: 8,
          shared: fleetWorker({ scope, globalLimit: 10, endpointLimits: { api: 3 } }),
        }),
    );
    const probe = new ConcurrencyProbe();

    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (schedulers[i % 2] as CallScheduler).run("api", () => probe.run(60, i)),
      ),
    );

    expect(probe.peak).toBe(3);
    expect(await permitsOf(scope)).toBe(0);
  });

  test("settings are checked and '*' is refused as an endpoint key", async () => {
    const pool = admin;
    expect(() => new PostgresCallLimits({ pool, scope: "s", holder: "h", globalLimit: 0 })).toThrow(
      FleetCallLimitsError,
    );
    expect(() => new PostgresCallLimits({ pool, scope: "", holder: "h", globalLimit: 1 })).toThrow(/scope/);
    const limits = new PostgresCallLimits({ pool, scope: newScope(), holder: "h", globalLimit: 1 });
    await expect(limits.hold("*", async () => "ran")).rejects.toThrow(/reserved for the global limit/);
    await limits.close();
    await expect(limits.hold("api", async () => "ran")).rejects.toThrow(/closed/);
  });

  test("closing rejects the calls still waiting", async () => {
    const scope = newScope();
    const worker = fleetWorker({ scope, globalLimit: 1 });
    let finish: () => void = () => undefined;
    const running = worker.hold("a", () => new Promise<void>((resolve) => (finish = resolve)));
    await sleep(100);
    const waiting = worker.hold("b", async () => "ran");
    await sleep(100);

    const rejected = expect(waiting).rejects.toThrow(FleetCallLimitsError);
    await worker.close();

    await rejected;
    finish();
    await running;
    expect(await permitsOf(scope)).toBe(0);
  });

  test("no permit is left in any scope once every call has ended", async () => {
    const { rows } = await admin.query<{ n: string }>("SELECT count(*) AS n FROM karenina_fleet_permits");
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
