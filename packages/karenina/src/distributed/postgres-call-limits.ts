import type pg from "pg";
import { KareninaError } from "../errors/index.js";
import { LlmAbortedError, RateLimitError, type SharedCallLimits } from "../llm/index.js";
import { FLEET_PERMITS_CHANNEL, GLOBAL_ENDPOINT } from "./fleet-schema-limits.js";

/** Fallback poll while waiting for a permit, in case a NOTIFY was missed or the listener is down. */
const POLL_MS = 250;

/**
 * How long a permit whose call ended waits for this process's next call of its endpoint before it is released
 * (sooner when another worker is refused a permit: see `want`).
 */
const DEFAULT_WARM_MS = 250;

/** Calls one permit serves before it goes back to the fleet (so a busy worker cannot keep it for ever). */
const MAX_USES = 32;

/** Shared call limits were misconfigured, closed, or PostgreSQL could not be reached. */
export class FleetCallLimitsError extends KareninaError {
  override readonly name: string = "FleetCallLimitsError";
}

/** Options of {@link PostgresCallLimits}. */
export interface PostgresCallLimitsOptions {
  /** Where the fleet tables live (`CALL_LIMITS_SCHEMA_SQL` applied). Owned by the caller: `close` leaves it open. */
  pool: pg.Pool;
  /** What the limits are shared by: the run id. Each scope has limits of its own. */
  scope: string;
  /** This worker's name, recorded on its permits (for diagnosis). */
  holder: string;
  /** Calls in flight across the fleet, all endpoints together. */
  globalLimit: number;
  /** Cap per endpoint key across the fleet; keys not listed use `defaultEndpointLimit`. */
  endpointLimits?: Readonly<Record<string, number>>;
  /** Cap of endpoints not in `endpointLimits`. Default: `globalLimit`. */
  defaultEndpointLimit?: number;
  /** A permit not renewed for this long is free again (its process died). Renewed every third. Default 30. */
  leaseSeconds?: number;
  /** Pause, in seconds, after a 429 that carries no `Retry-After`. Default 1. */
  defaultPauseSeconds?: number;
  /** Consecutive successes after which a cut endpoint limit grows by 1 (up to its cap). Default 10. */
  recoverAfterSuccesses?: number;
  /** Milliseconds an idle permit is kept for this process's next call (0: none kept). Default 250. */
  warmMs?: number;
}

/** What a {@link PostgresCallLimits} did so far, in this process. */
export interface FleetCallLimitsStats {
  /** Permits taken. */
  taken: number;
  /** Takes that found the limits full or the endpoint paused (each retry counts). */
  refused: number;
  /** Permits that expired before this process released them (it stalled longer than the lease). */
  lost: number;
  /** Releases and renewals that failed on PostgreSQL (such a permit frees itself when its lease ends). */
  failedUpdates: number;
  /** Times the LISTEN connection could not be opened or broke (waiters then poll). */
  listenerFailures: number;
}

type Outcome = { kind: "success" } | { kind: "failure" } | { kind: "rate_limited"; pauseSeconds: number };

interface Waiter {
  grant(permitId: string): void;
  fail(error: unknown): void;
}

/** A permit this process holds: for which endpoint, since which 429 epoch, and the calls it served. */
interface HeldPermit {
  endpoint: string;
  epoch: number;
  uses: number;
  successes: number;
}

/**
 * The global and per-endpoint concurrency limits of a run, held across every worker process in PostgreSQL:
 * a call runs while it holds a permit row of `karenina_fleet_permits`, taken in one round trip by
 * `karenina_fleet_take_permit` (which counts held permits under row locks, so concurrent takers never both see
 * a free slot). A 429 halves the endpoint's shared limit and pauses it for every worker; successes grow it back
 * by 1 every `recoverAfterSuccesses`, as {@link CallScheduler} does locally.
 *
 * Waiters of one endpoint queue first-in first-out in this process; the head retries when a release anywhere in
 * the fleet NOTIFYs the run (one LISTEN connection per instance), every 250 ms otherwise, and at the end of a
 * pause. Permits are leases: renewed together every `leaseSeconds / 3` while held, so those of a killed
 * process are free again `leaseSeconds` after its last renewal.
 *
 * A permit whose call ends serves this process's next call of the same endpoint (a waiter, or one arriving
 * within `warmMs`) instead of going back through PostgreSQL, up to 32 calls: a busy worker takes and releases a
 * permit per 32 calls instead of per call. Idle permits never keep another worker waiting: a take refused for
 * want of a permit announces it (NOTIFY payload "<scope>\twant"), and every worker then releases the permits it
 * keeps idle. A 429 anywhere in the run is announced to every worker, which from then on takes every permit
 * afresh (so the pause and the cut limit apply to all) until new permits are taken.
 *
 * A worker gives one to its run's scheduler (`new CallScheduler({ globalLimit, shared })`) and closes it when the
 * run is done.
 */
export class PostgresCallLimits implements SharedCallLimits {
  readonly scope: string;
  readonly holder: string;
  readonly globalLimit: number;
  private readonly pool: pg.Pool;
  private readonly endpointLimits: Readonly<Record<string, number>>;
  private readonly defaultEndpointLimit: number;
  private readonly leaseSeconds: number;
  private readonly defaultPauseSeconds: number;
  private readonly recoverAfterSuccesses: number;
  private readonly warmMs: number;
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly draining = new Set<string>();
  private readonly held = new Map<string, HeldPermit>();
  /** Permits whose call ended, kept warm for the next calls of their endpoint (the latest last), by endpoint. */
  private readonly warm = new Map<string, { permitId: string; timer: NodeJS.Timeout }[]>();
  /** Bumped by every 429 of the run: permits taken before it are released after their call, not reused. */
  private epoch = 0;
  private readonly sleepers = new Set<() => void>();
  private readonly counters: FleetCallLimitsStats = {
    taken: 0,
    refused: 0,
    lost: 0,
    failedUpdates: 0,
    listenerFailures: 0,
  };
  private listener: Promise<pg.Client | null> | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  /** Bumped by every wake-up, so a take that raced a NOTIFY retries at once instead of sleeping through it. */
  private wakeGeneration = 0;
  private closed = false;

  /** @throws {FleetCallLimitsError} when a limit is not an integer >= 1, or a duration is not positive. */
  constructor(options: PostgresCallLimitsOptions) {
    this.pool = options.pool;
    this.scope = nonEmpty("scope", options.scope);
    this.holder = nonEmpty("holder", options.holder);
    this.globalLimit = checkLimit("globalLimit", options.globalLimit);
    this.defaultEndpointLimit = checkLimit(
      "defaultEndpointLimit",
      options.defaultEndpointLimit ?? this.globalLimit,
    );
    this.endpointLimits = { ...(options.endpointLimits ?? {}) };
    for (const [key, limit] of Object.entries(this.endpointLimits)) {
      checkEndpointKey(key);
      checkLimit(`endpointLimits[${key}]`, limit);
    }
    this.leaseSeconds = checkPositive("leaseSeconds", options.leaseSeconds ?? 30);
    this.defaultPauseSeconds = checkPositive("defaultPauseSeconds", options.defaultPauseSeconds ?? 1, true);
    this.recoverAfterSuccesses = checkLimit("recoverAfterSuccesses", options.recoverAfterSuccesses ?? 10);
    this.warmMs = options.warmMs ?? DEFAULT_WARM_MS;
    if (!Number.isFinite(this.warmMs) || this.warmMs < 0)
      throw new FleetCallLimitsError(
        `shared call limits: warmMs must be a number of milliseconds >= 0, found ${String(this.warmMs)}`,
      );
  }

  /** A copy of the counters so far. */
  get stats(): FleetCallLimitsStats {
    return { ...this.counters };
  }

  /**
   * Runs `call` while holding a shared permit of `endpointKey` (and of the global limit); see
   * {@link SharedCallLimits.hold}.
   * @throws {FleetCallLimitsError} when these limits are closed, `endpointKey` is `*`, or no permit could be
   * taken from PostgreSQL.
   */
  async hold<T>(endpointKey: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    checkEndpointKey(endpointKey);
    if (this.closed) throw closedError();
    const permitId = await this.acquire(endpointKey, signal);
    let outcome: Outcome = { kind: "failure" };
    try {
      const value = await call();
      outcome = { kind: "success" };
      return value;
    } catch (error) {
      if (error instanceof RateLimitError) {
        outcome = { kind: "rate_limited", pauseSeconds: error.retryAfterSeconds ?? this.defaultPauseSeconds };
      }
      throw error;
    } finally {
      await this.callEnded(endpointKey, permitId, outcome);
    }
  }

  /** A call ended: its permit serves the next local call of the endpoint when it may, else goes back. */
  private async callEnded(endpointKey: string, permitId: string, outcome: Outcome): Promise<void> {
    const permit = this.held.get(permitId);
    if (permit !== undefined) {
      permit.uses += 1;
      if (outcome.kind === "success") permit.successes += 1;
    }
    const reusable =
      permit !== undefined &&
      outcome.kind !== "rate_limited" &&
      !this.closed &&
      permit.epoch === this.epoch &&
      permit.uses < MAX_USES &&
      this.warmMs > 0;
    if (!reusable) return this.release(endpointKey, permitId, outcome);
    const waiter = this.queueOf(endpointKey).shift();
    if (waiter !== undefined) return waiter.grant(permitId);
    this.keepWarm(endpointKey, permitId);
  }

  private keepWarm(endpointKey: string, permitId: string): void {
    const kept = this.warm.get(endpointKey) ?? [];
    const timer = setTimeout(() => this.coolDown(endpointKey, permitId), this.warmMs);
    kept.push({ permitId, timer });
    this.warm.set(endpointKey, kept);
  }

  /** Releases a warm permit of an endpoint (its time is up). */
  private coolDown(endpointKey: string, permitId: string): void {
    const kept = this.warm.get(endpointKey) ?? [];
    const index = kept.findIndex((warm) => warm.permitId === permitId);
    if (index < 0) return;
    kept.splice(index, 1);
    if (kept.length === 0) this.warm.delete(endpointKey);
    void this.release(endpointKey, permitId, { kind: "success" });
  }

  /** Releases every warm permit (a 429 or a refused take was announced, or the limits close). */
  private async coolAll(): Promise<void> {
    const warm = [...this.warm];
    this.warm.clear();
    const releases: Promise<void>[] = [];
    for (const [endpointKey, kept] of warm)
      for (const { permitId, timer } of kept) {
        clearTimeout(timer);
        releases.push(this.release(endpointKey, permitId, { kind: "success" }));
      }
    await Promise.all(releases);
  }

  /** A warm permit of an endpoint, taken for a new call; null when there is none or it may not be reused. */
  private takeWarm(endpointKey: string): string | null {
    const kept = this.warm.get(endpointKey);
    const warm = kept?.pop();
    if (warm === undefined) return null;
    if (kept?.length === 0) this.warm.delete(endpointKey);
    clearTimeout(warm.timer);
    const permit = this.held.get(warm.permitId);
    if (permit === undefined || permit.epoch !== this.epoch) {
      void this.release(endpointKey, warm.permitId, { kind: "success" });
      return null;
    }
    return warm.permitId;
  }

  /** A 429 was announced for this run: no permit taken before it is reused. */
  private rateLimitedElsewhere(): void {
    this.epoch += 1;
    void this.coolAll();
  }

  /**
   * Stops renewing, stops listening, and rejects the calls still waiting for a permit. Calls already running
   * keep their permits and release them when they end (the pool must still be open then). Leaves the pool open.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const released = this.coolAll();
    this.stopRenewing();
    for (const queue of this.waiting.values())
      for (const waiter of queue.splice(0)) waiter.fail(closedError());
    this.wakeAll();
    await released;
    const listener = await this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  private acquire(endpointKey: string, signal: AbortSignal | undefined): Promise<string> {
    if (signal?.aborted) return Promise.reject(new LlmAbortedError(endpointKey, signal.reason));
    const warm = this.takeWarm(endpointKey);
    if (warm !== null) return Promise.resolve(warm);
    return new Promise<string>((resolve, reject) => {
      const queue = this.queueOf(endpointKey);
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index < 0) return;
        queue.splice(index, 1);
        reject(new LlmAbortedError(endpointKey, signal?.reason));
      };
      const waiter: Waiter = {
        grant: (permitId) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(permitId);
        },
        fail: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      queue.push(waiter);
      void this.drain(endpointKey);
    });
  }

  /** Hands permits to the waiters of one endpoint, in order, while it has any. One drain per endpoint. */
  private async drain(endpointKey: string): Promise<void> {
    if (this.draining.has(endpointKey)) return;
    this.draining.add(endpointKey);
    const queue = this.queueOf(endpointKey);
    try {
      while (queue.length > 0 && !this.closed) {
        const generation = this.wakeGeneration;
        let attempt: { permitId: string | null; waitMs: number | null };
        try {
          attempt = await this.take(endpointKey);
        } catch (error) {
          queue
            .shift()
            ?.fail(
              new FleetCallLimitsError(
                `could not take a shared permit for ${endpointKey} from PostgreSQL (${(error as Error).message}); ` +
                  "check that the fleet database is reachable and its schema is installed",
                { cause: error },
              ),
            );
          continue;
        }
        if (attempt.permitId !== null) {
          const waiter = queue.shift();
          if (waiter) waiter.grant(attempt.permitId);
          else await this.release(endpointKey, attempt.permitId, { kind: "failure" });
          continue;
        }
        this.counters.refused += 1;
        if (attempt.waitMs !== null) await this.sleep(attempt.waitMs);
        else if (generation === this.wakeGeneration) await this.waitForRelease();
      }
    } finally {
      this.draining.delete(endpointKey);
    }
  }

  private async take(endpointKey: string): Promise<{ permitId: string | null; waitMs: number | null }> {
    const cap = this.endpointLimits[endpointKey] ?? this.defaultEndpointLimit;
    const { rows } = await this.pool.query<{ permit_id: string | null; wait_seconds: number | null }>({
      name: "karenina_fleet_take_permit",
      text: "SELECT permit_id, wait_seconds FROM karenina_fleet_take_permit($1, $2, $3, $4, $5, $6)",
      values: [this.scope, endpointKey, this.holder, cap, this.globalLimit, this.leaseSeconds],
    });
    const row = rows[0];
    if (row?.permit_id == null) {
      const waitSeconds = row?.wait_seconds ?? null;
      return { permitId: null, waitMs: waitSeconds === null ? null : Math.ceil(waitSeconds * 1000) };
    }
    this.counters.taken += 1;
    this.held.set(row.permit_id, { endpoint: endpointKey, epoch: this.epoch, uses: 0, successes: 0 });
    this.startRenewing();
    // Listening from the first permit on: a 429 elsewhere must reach a worker that never waits.
    void this.listen();
    return { permitId: row.permit_id, waitMs: null };
  }

  private async release(endpointKey: string, permitId: string, outcome: Outcome): Promise<void> {
    const successes = this.held.get(permitId)?.successes ?? (outcome.kind === "success" ? 1 : 0);
    this.held.delete(permitId);
    if (this.held.size === 0) this.stopRenewing();
    try {
      await this.pool.query({
        name: "karenina_fleet_release_permit",
        text: "SELECT karenina_fleet_release_permit($1, $2, $3, $4, $5, $6, $7)",
        values: [
          permitId,
          this.scope,
          endpointKey,
          outcome.kind === "rate_limited" ? "rate_limited" : "success",
          outcome.kind === "rate_limited" ? outcome.pauseSeconds : 0,
          this.recoverAfterSuccesses,
          successes,
        ],
      });
    } catch {
      // The call's own result matters more than the release: the permit frees itself when its lease ends.
      this.counters.failedUpdates += 1;
    }
    this.wakeAll();
  }

  /** Waits for a NOTIFY of this scope, or the fallback poll. */
  private async waitForRelease(): Promise<void> {
    await this.listen();
    await this.sleep(POLL_MS);
  }

  /** Sleeps `ms`, or less when woken (a release, a NOTIFY, `close`). */
  private sleep(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private wakeAll(): void {
    this.wakeGeneration += 1;
    for (const wake of [...this.sleepers]) wake();
  }

  /** Opens the LISTEN connection once; on failure, waiters poll and the next wait tries again. */
  private async listen(): Promise<void> {
    if (this.closed) return;
    this.listener ??= this.openListener();
    await this.listener;
  }

  private async openListener(): Promise<pg.Client | null> {
    // pg loads with the first fleet call, not with the library.
    const { default: driver } = await import("pg");
    const client = new driver.Client(this.pool.options);
    const broke = () => {
      this.counters.listenerFailures += 1;
      this.listener = null;
      client.end().catch(() => undefined);
    };
    client.on("error", broke);
    client.on("notification", (message) => {
      if (message.payload === `${this.scope}\t429`) this.rateLimitedElsewhere();
      if (message.payload === `${this.scope}\twant`) void this.coolAll();
      if (message.payload === this.scope || message.payload === `${this.scope}\t429`) this.wakeAll();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${FLEET_PERMITS_CHANNEL}`);
      if (!this.closed) return client;
      await client.end();
      return null;
    } catch {
      client.removeListener("error", broke);
      broke();
      return null;
    }
  }

  private startRenewing(): void {
    if (this.renewTimer !== null) return;
    this.renewTimer = setInterval(() => void this.renew(), (this.leaseSeconds * 1000) / 3);
    this.renewTimer.unref();
  }

  private stopRenewing(): void {
    if (this.renewTimer === null) return;
    clearInterval(this.renewTimer);
    this.renewTimer = null;
  }

  /** Extends the leases of every permit this process holds, in one UPDATE. */
  private async renew(): Promise<void> {
    const ids = [...this.held.keys()];
    if (ids.length === 0) return;
    try {
      const { rows } = await this.pool.query<{ id: string }>(
        `UPDATE karenina_fleet_permits SET expires_at = clock_timestamp() + make_interval(secs => $2)
          WHERE id = ANY($1::bigint[]) RETURNING id`,
        [ids, this.leaseSeconds],
      );
      const renewed = new Set(rows.map((row) => row.id));
      for (const id of ids) {
        if (!renewed.has(id) && this.held.delete(id)) this.counters.lost += 1;
      }
    } catch {
      this.counters.failedUpdates += 1;
    }
  }

  private queueOf(endpointKey: string): Waiter[] {
    let queue = this.waiting.get(endpointKey);
    if (!queue) {
      queue = [];
      this.waiting.set(endpointKey, queue);
    }
    return queue;
  }
}

function closedError(): FleetCallLimitsError {
  return new FleetCallLimitsError("the shared call limits are closed: create a new PostgresCallLimits");
}

function checkEndpointKey(key: string): void {
  if (key === GLOBAL_ENDPOINT) {
    throw new FleetCallLimitsError(
      `endpoint key "${GLOBAL_ENDPOINT}" is reserved for the global limit of the fleet: use another key`,
    );
  }
}

function nonEmpty(setting: string, value: string): string {
  if (typeof value !== "string" || value === "") {
    throw new FleetCallLimitsError(`shared call limits: ${setting} must be a non-empty string`);
  }
  return value;
}

function checkLimit(setting: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new FleetCallLimitsError(
      `shared call limits: ${setting} must be an integer >= 1, found ${String(value)}`,
    );
  }
  return value;
}

function checkPositive(setting: string, value: number, zeroAllowed = false): number {
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !zeroAllowed)) {
    throw new FleetCallLimitsError(
      `shared call limits: ${setting} must be a number of seconds ${zeroAllowed ? ">= 0" : "> 0"}, found ${String(value)}`,
    );
  }
  return value;
}
