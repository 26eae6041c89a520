import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { JobRow, JobStatus, Storage } from "../../storage/index.js";
import { FINAL_JOB_STATUSES } from "../../storage/index.js";
import { jobNotFound, jobStateConflict, unknownJobKind } from "./errors.js";
import { EventLog } from "./event-log.js";
import type { JobEvent, JobEventType, JobProgress, JobTask, JobUsageTotals } from "./job-events.js";

/** What a job's handler works with while it runs. */
export interface JobContext<Input> {
  readonly id: string;
  readonly input: Input;
  /** Aborted on cancel (and on server shutdown): stop starting work, abort calls in flight, keep what finished. */
  readonly signal: AbortSignal;
  /** True when this attempt resumes an interrupted job: skip what the earlier attempt finished. */
  readonly resuming: boolean;
  /**
   * True when this attempt was started by the server itself at start, to follow again work that went on elsewhere
   * while no server watched it ({@link JobKind.continuesElsewhere}); false for a resume a client asked for.
   */
  readonly reattached: boolean;
  /** The job's event log (JSON lines): what earlier attempts reported, for a resumed job to read back. */
  readonly eventLog: string;
  /** A folder of the job's own (created), for its logs; it survives restarts. */
  readonly dir: string;
  readonly storage: Storage;
  /** Why `signal` was aborted: `cancel` (ends `cancelled`) or `shutdown` (ends `interrupted`), else null. */
  readonly stopReason: "cancel" | "shutdown" | null;
  /** How many tasks the job has, and how many of them an earlier attempt already finished. */
  plan(total: number, done?: { processed: number; successful: number; failed: number }): void;
  taskStarted(task: JobTask, extra?: Record<string, unknown>): void;
  /** A task finished; `success` counts it as successful or failed; `extra` rides on the event. */
  taskCompleted(task: JobTask, success: boolean, extra?: Record<string, unknown>): void;
  /** A task ended in an error outside the normal result (counted failed). */
  taskFailed(task: JobTask, error: string): void;
  /** Sets the job's running token and cost totals (carried by the events after it and by its progress). */
  reportUsage(totals: JobUsageTotals): void;
  /** Records the verification run that holds the job's results. */
  linkRun(runId: string): Promise<void>;
  /** The work was cancelled outside the job (its fleet run, by `karenina fleet cancel`): it ends `cancelled`. */
  endCancelled(): void;
}

/**
 * A kind of job: how to run one. The runner persists, queues, cancels, resumes and streams; the handler only
 * does the work and reports tasks through its {@link JobContext}.
 */
export interface JobKind<Input> {
  readonly kind: string;
  /** Rebuilds a stored input (a resumed job's input comes back from the database as JSON). */
  readonly parseInput: (stored: unknown) => Input;
  /** Whether an interrupted job can be resumed (else resume answers 409). */
  readonly resumable: boolean;
  /**
   * Does the job. Resolves to its outcome (JSON, a summary: stored with the job and sent as `result` on
   * `job_completed`). When `signal` is aborted it should resolve (or throw) promptly, keeping finished work.
   */
  run(job: JobContext<Input>): Promise<unknown>;
  /**
   * Whether a stored job that no server runs (left `pending`/`running` by a dead server, or `interrupted` by a
   * stopped one) still has its work going on elsewhere (a fleet run's workers). The runner resumes such jobs
   * itself when it starts (`reattached`), instead of leaving them `interrupted`.
   */
  readonly continuesElsewhere?: (row: JobRow) => Promise<boolean>;
}

/** A job as the routes show it: its progress, plus what the row holds. */
export interface JobView extends JobProgress {
  readonly created_at: string;
  readonly finished_at: string | null;
  readonly run_id: string | null;
  readonly outcome: unknown;
  readonly last_seq: number;
}

/** A client following a job's events. */
export interface JobSubscriber {
  /** Called with the snapshot first, then the replayed events after `after`, then each live event. */
  onEvent(event: JobEvent): void;
  /** The job reached a final (or interrupted) state and no more events will come. */
  onEnd(): void;
}

/** Options of {@link JobRunner}. */
export interface JobRunnerOptions {
  readonly storage: Storage;
  /** Job folders go under `<workDir>/.karenina/jobs/<id>`. */
  readonly workDir: string;
  /** Jobs running at once (spec 07 §2.4 `KARENINA_ASYNC_MAX_WORKERS`, default 2); others wait `pending`. */
  readonly maxConcurrentJobs?: number;
  /**
   * The latest events a running job keeps in memory for subscribers that reconnect (default
   * {@link RECENT_EVENTS}); a subscriber asking for older ones has them replayed from the job's event log.
   */
  readonly recentEvents?: number;
}

/**
 * Enough for a reconnecting client to catch up from memory. A job's events are in its log: keeping them all
 * in memory too cost a 2,000-task job ~15 MB of the server's heap by its end, and grew with the job.
 */
export const RECENT_EVENTS = 256;

const TERMINAL_EVENT: Partial<Record<JobStatus, JobEventType>> = {
  completed: "job_completed",
  failed: "job_failed",
  cancelled: "job_cancelled",
};

/** Why a job's signal was aborted. */
type StopReason = "cancel" | "shutdown";

// biome-ignore lint/suspicious/noExplicitAny: a registry holds kinds of every input type.
type AnyKind = JobKind<any>;

/** A job this process is running (or has queued). */
class LiveJob {
  /** The latest events (at most `recentLimit`), oldest first; all of them are in the event log. */
  readonly recent: JobEvent[] = [];
  readonly subscribers = new Set<JobSubscriber>();
  readonly controller = new AbortController();
  readonly running = new Map<string, number>();
  stopReason: StopReason | null = null;
  /** Resumed by the runner at start: its work went on elsewhere. */
  reattached = false;
  seq: number;
  /** Resolves when the job has stopped and its final state is saved. */
  readonly settled: Promise<void>;
  /** Resolves {@link settled}. */
  release!: () => void;
  /** Starts the job's work (set when queued). */
  start: () => void = () => undefined;
  #persisting: Promise<void> | null = null;
  #dirty = false;

  constructor(
    readonly kind: AnyKind,
    readonly row: JobRow,
    readonly progress: JobProgress,
    readonly log: EventLog,
    readonly dir: string,
    readonly resuming: boolean,
    lastSeq: number,
    readonly storage: Storage,
    readonly recentLimit: number,
  ) {
    this.seq = lastSeq;
    this.settled = new Promise<void>((resolve) => {
      this.release = resolve;
    });
  }

  emit(type: JobEventType, extra: Record<string, unknown> = {}): JobEvent {
    this.refreshClock();
    this.seq++;
    const event: JobEvent = { ...this.progress, ...extra, type, seq: this.seq, ts: Date.now() };
    this.recent.push(event);
    if (this.recent.length > this.recentLimit) this.recent.shift();
    this.log.append(event);
    for (const subscriber of this.subscribers) subscriber.onEvent(event);
    return event;
  }

  snapshot(): JobEvent {
    this.refreshClock();
    return { ...this.progress, type: "snapshot", seq: this.seq, ts: Date.now() };
  }

  refreshClock(): void {
    const p = this.progress;
    p.in_progress_questions = [...this.running.keys()];
    p.percentage = p.total === 0 ? 0 : Math.min(100, (100 * p.processed) / p.total);
    if (p.start_time !== null && p.status === "running")
      p.duration_seconds = Date.now() / 1000 - p.start_time;
  }

  /** Saves the progress to the row; writes coalesce so a fast job never queues more than one. */
  persist(): Promise<void> {
    if (this.#persisting !== null) {
      this.#dirty = true;
      return this.#persisting;
    }
    const write = async () => {
      do {
        this.#dirty = false;
        this.refreshClock();
        await this.storage
          .updateJob(this.row.id, { progress: { ...this.progress, last_seq: this.seq } })
          .catch(() => undefined);
      } while (this.#dirty);
      this.#persisting = null;
    };
    this.#persisting = write();
    return this.#persisting;
  }
}

function initialProgress(row: JobRow): JobProgress {
  return {
    job_id: row.id,
    kind: row.kind,
    status: row.status,
    percentage: 0,
    processed: 0,
    total: 0,
    successful: 0,
    failed: 0,
    in_progress_questions: [],
    current_question: null,
    start_time: null,
    duration_seconds: null,
    last_task_duration: null,
    error: row.errorMessage,
    usage_totals: null,
  };
}

/** A stored job's progress as last saved, with its row's status. */
function storedProgress(row: JobRow): JobProgress & { last_seq: number } {
  const saved = (row.progress ?? {}) as Partial<JobProgress> & { last_seq?: number };
  return {
    ...initialProgress(row),
    ...saved,
    status: row.status,
    error: row.errorMessage,
    in_progress_questions: [],
    last_seq: saved.last_seq ?? 0,
  };
}

/**
 * Runs the server's jobs (spec 07 §2.4): each is a database row (input, status, progress) plus a folder with
 * its append-only event log; at most `maxConcurrentJobs` run at once, the rest wait `pending`. Cancel aborts
 * the job's `AbortSignal` and ends it `cancelled`, keeping what finished. A server that starts marks what its
 * predecessor left unfinished `interrupted` ({@link recover}); {@link resume} runs such a job again, its
 * handler skipping finished work. Events carry `seq` and `ts`; a subscriber gets a snapshot first, then the
 * events after the `seq` it names, then live ones.
 */
export class JobRunner {
  readonly #storage: Storage;
  readonly #workDir: string;
  readonly #maxConcurrent: number;
  readonly #recentEvents: number;
  readonly #kinds = new Map<string, AnyKind>();
  readonly #live = new Map<string, LiveJob>();
  readonly #queue: LiveJob[] = [];
  #active = 0;
  #stopping = false;
  #ready: Promise<unknown> | null = null;

  constructor(options: JobRunnerOptions) {
    this.#storage = options.storage;
    this.#workDir = options.workDir;
    this.#maxConcurrent = Math.max(1, options.maxConcurrentJobs ?? 2);
    this.#recentEvents = Math.max(0, options.recentEvents ?? RECENT_EVENTS);
  }

  /** Adds a kind of job (once per kind). */
  register(kind: AnyKind): void {
    if (this.#kinds.has(kind.kind)) throw new Error(`job kind ${kind.kind} is registered twice`);
    this.#kinds.set(kind.kind, kind);
  }

  /** The folder of a job. */
  jobDir(id: string): string {
    return join(this.#workDir, ".karenina", "jobs", id);
  }

  #eventLogPath(id: string): string {
    return join(this.jobDir(id), "events.jsonl");
  }

  /**
   * Marks `interrupted` the jobs of registered kinds a dead server left pending or running, then resumes the
   * interrupted jobs whose work goes on elsewhere ({@link JobKind.continuesElsewhere}). Runs once, before the
   * runner's first operation (so every route group has registered its kinds by then).
   */
  recover(): Promise<unknown> {
    this.#ready ??= this.#recover();
    return this.#ready;
  }

  async #recover(): Promise<void> {
    await this.#storage.interruptUnfinishedJobs([...this.#kinds.keys()]);
    for (const kind of this.#kinds.values()) {
      if (kind.continuesElsewhere === undefined) continue;
      const rows = await this.#storage.listJobs({
        kind: kind.kind,
        status: "interrupted",
        limit: 10_000,
        offset: 0,
      });
      for (const row of rows) {
        // A job whose work cannot be found stays `interrupted`, for a client to resume or cancel.
        const goesOn = await kind.continuesElsewhere(row).catch(() => false);
        if (goesOn) await this.#resumeRow(row, kind, undefined, true).catch(() => undefined);
      }
    }
  }

  /**
   * Stores a new job of `kind` with its input (`storedInput`: its JSON for the row, secrets masked; default
   * `input`) and queues it. Resolves once stored, with its view (`pending` or already `running`).
   */
  async start<Input>(
    kind: string,
    input: Input,
    options: { id?: string; storedInput?: unknown; runId?: string | null } = {},
  ): Promise<JobView> {
    const handler = this.#requireKind(kind);
    await this.recover();
    if (this.#stopping) throw jobStateConflict("(new)", "refused", "started while the server shuts down");
    const row = await this.#storage.createJob({
      id: options.id ?? randomUUID(),
      kind,
      input: options.storedInput ?? input,
      runId: options.runId ?? null,
    });
    const live = new LiveJob(
      handler,
      row,
      initialProgress(row),
      new EventLog(this.#eventLogPath(row.id)),
      this.jobDir(row.id),
      false,
      0,
      this.#storage,
      this.#recentEvents,
    );
    this.#enqueue(live, input);
    return this.#view(live.row, live.progress, live.seq);
  }

  /** Runs an `interrupted` job again; its handler skips what was finished. @throws ApiError 404 / 409 */
  async resume(id: string, input?: unknown): Promise<JobView> {
    await this.recover();
    if (this.#live.has(id))
      throw jobStateConflict(id, this.#live.get(id)?.progress.status ?? "running", "resumed");
    const row = await this.#storage.getJob(id);
    if (row === null) throw jobNotFound(id);
    const handler = this.#requireKind(row.kind);
    if (row.status !== "interrupted" || !handler.resumable) throw jobStateConflict(id, row.status, "resumed");
    return this.#resumeRow(row, handler, input, false);
  }

  async #resumeRow(row: JobRow, handler: AnyKind, input: unknown, reattached: boolean): Promise<JobView> {
    const id = row.id;
    const saved = storedProgress(row);
    const lastSeq = Math.max(saved.last_seq, await EventLog.lastSeq(this.#eventLogPath(id)));
    const progress: JobProgress = { ...saved, status: "pending", error: null };
    const live = new LiveJob(
      handler,
      row,
      progress,
      new EventLog(this.#eventLogPath(id)),
      this.jobDir(id),
      true,
      lastSeq,
      this.#storage,
      this.#recentEvents,
    );
    live.reattached = reattached;
    await this.#storage.updateJob(id, { status: "pending", errorMessage: null, finishedAt: null });
    this.#enqueue(live, input ?? handler.parseInput(row.input));
    return this.#view(row, progress, lastSeq);
  }

  /**
   * Cancels a job: a queued or interrupted one ends `cancelled` at once; a running one has its signal aborted
   * and this resolves when it has stopped. @throws ApiError 404 unknown, 409 already final
   */
  async cancel(id: string): Promise<JobView> {
    await this.recover();
    const live = this.#live.get(id);
    // A job that has just ended stays live while its last event is written: it is final, not cancellable.
    if (live !== undefined && (FINAL_JOB_STATUSES as readonly string[]).includes(live.progress.status))
      throw jobStateConflict(id, live.progress.status, "cancelled");
    if (live !== undefined) {
      if (live.progress.status === "pending") {
        this.#queue.splice(this.#queue.indexOf(live), 1);
        await this.#finish(live, "cancelled", null, null);
      } else {
        live.stopReason ??= "cancel";
        live.controller.abort(new Error("the job was cancelled"));
        await live.settled;
      }
      return this.#requireView(id);
    }
    const row = await this.#storage.getJob(id);
    if (row === null) throw jobNotFound(id);
    if (row.status !== "interrupted") throw jobStateConflict(id, row.status, "cancelled");
    const finishedAt = new Date().toISOString();
    await this.#storage.updateJob(id, { status: "cancelled", finishedAt });
    return this.#requireView(id);
  }

  /** A job's view (live progress when this process runs it), or null. */
  async get(id: string): Promise<JobView | null> {
    await this.recover();
    const live = this.#live.get(id);
    if (live !== undefined) {
      live.refreshClock();
      const row = (await this.#storage.getJob(id)) ?? live.row;
      return this.#view(row, live.progress, live.seq);
    }
    const row = await this.#storage.getJob(id);
    if (row === null) return null;
    const progress = storedProgress(row);
    return this.#view(row, progress, progress.last_seq);
  }

  /** A job's stored row, or null. */
  row(id: string): Promise<JobRow | null> {
    return this.#storage.getJob(id);
  }

  async #requireView(id: string): Promise<JobView> {
    const view = await this.get(id);
    if (view === null) throw jobNotFound(id);
    return view;
  }

  /** Jobs, newest first, a page at a time. */
  async list(query: {
    kind?: string;
    status?: JobStatus;
    page: number;
    page_size: number;
  }): Promise<{ items: JobView[]; total: number }> {
    await this.recover();
    const filter = {
      ...(query.kind === undefined ? {} : { kind: query.kind }),
      ...(query.status === undefined ? {} : { status: query.status }),
    };
    const [rows, total] = await Promise.all([
      this.#storage.listJobs({
        ...filter,
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      }),
      this.#storage.countJobs(filter),
    ]);
    const items = rows.map((row) => {
      const live = this.#live.get(row.id);
      if (live === undefined) {
        const progress = storedProgress(row);
        return this.#view(row, progress, progress.last_seq);
      }
      live.refreshClock();
      return this.#view(row, live.progress, live.seq);
    });
    return { items, total };
  }

  /**
   * Follows a job: `subscriber` gets a snapshot, the events with `seq` above `after` (when given), then live
   * events until the job ends. Resolves to a function that stops following, or null for an unknown job.
   */
  async subscribe(
    id: string,
    after: number | undefined,
    subscriber: JobSubscriber,
  ): Promise<(() => void) | null> {
    await this.recover();
    const live = this.#live.get(id);
    if (live !== undefined) {
      subscriber.onEvent(live.snapshot());
      const oldestHeld = live.recent[0]?.seq ?? live.seq + 1;
      if (after !== undefined && after < live.seq && after + 1 < oldestHeld)
        return this.#catchUp(live, after, subscriber);
      if (after !== undefined)
        for (const event of live.recent) if (event.seq > after) subscriber.onEvent(event);
      live.subscribers.add(subscriber);
      return () => live.subscribers.delete(subscriber);
    }
    const row = await this.#storage.getJob(id);
    if (row === null) return null;
    // It may have started in this process between the two reads.
    if (this.#live.has(id)) return this.subscribe(id, after, subscriber);
    const progress = storedProgress(row);
    subscriber.onEvent({ ...progress, type: "snapshot", seq: progress.last_seq, ts: Date.now() });
    if (after !== undefined)
      await EventLog.replay(this.#eventLogPath(id), after, (event) => subscriber.onEvent(event));
    subscriber.onEnd();
    return () => undefined;
  }

  /**
   * Follows a running job from an event older than those it holds: the events up to now come from its log,
   * while the live ones wait, then the live ones follow (each event once, in order).
   */
  async #catchUp(live: LiveJob, after: number, subscriber: JobSubscriber): Promise<() => void> {
    const upTo = live.seq;
    const waiting: JobEvent[] = [];
    let caughtUp = false;
    let ended = false;
    const relay: JobSubscriber = {
      onEvent: (event) => {
        if (caughtUp) subscriber.onEvent(event);
        else waiting.push(event);
      },
      onEnd: () => {
        if (caughtUp) subscriber.onEnd();
        else ended = true;
      },
    };
    live.subscribers.add(relay);
    let last = after;
    const send = (event: JobEvent) => {
      if (event.seq <= last || event.seq > upTo) return;
      subscriber.onEvent(event);
      last = event.seq;
    };
    // Every event up to `upTo` was queued for the log before this point.
    await live.log.flushed();
    await EventLog.replay(live.log.path, after, send).catch(() => undefined);
    // What the log could not give (a failed write) the memory may still hold.
    for (const event of live.recent) send(event);
    for (const event of waiting.splice(0)) subscriber.onEvent(event);
    caughtUp = true;
    if (ended) subscriber.onEnd();
    return () => live.subscribers.delete(relay);
  }

  /** Resolves when no job runs or waits (for tests and a graceful shutdown that lets jobs finish). */
  async drain(): Promise<void> {
    while (this.#live.size > 0) await Promise.all([...this.#live.values()].map((live) => live.settled));
  }

  /**
   * Stops: no new job starts; running and queued jobs are aborted and left `interrupted` (what they finished
   * is kept, and `resume` continues them after a restart); resolves when they have stopped and are saved.
   */
  async shutdown(): Promise<void> {
    this.#stopping = true;
    for (const live of this.#queue.splice(0)) await this.#finish(live, "interrupted", null, null);
    for (const live of this.#live.values()) {
      live.stopReason ??= "shutdown";
      live.controller.abort(new Error("the server is shutting down"));
    }
    await this.drain();
  }

  #requireKind(kind: string): AnyKind {
    const handler = this.#kinds.get(kind);
    if (handler === undefined) throw unknownJobKind(kind);
    return handler;
  }

  #view(row: JobRow, progress: JobProgress, lastSeq: number): JobView {
    return {
      ...progress,
      created_at: row.createdAt,
      finished_at: row.finishedAt,
      run_id: row.runId,
      outcome: row.outcome,
      last_seq: lastSeq,
    };
  }

  #enqueue(live: LiveJob, input: unknown): void {
    this.#live.set(live.row.id, live);
    live.start = () => {
      void this.#execute(live, input);
    };
    this.#queue.push(live);
    this.#pump();
  }

  #pump(): void {
    while (this.#active < this.#maxConcurrent && this.#queue.length > 0 && !this.#stopping) {
      const live = this.#queue.shift() as LiveJob;
      this.#active++;
      live.start();
    }
  }

  #context(live: LiveJob, input: unknown): JobContext<unknown> {
    const p = live.progress;
    return {
      id: live.row.id,
      input,
      signal: live.controller.signal,
      resuming: live.resuming,
      reattached: live.reattached,
      eventLog: live.log.path,
      dir: live.dir,
      storage: this.#storage,
      get stopReason() {
        return live.stopReason;
      },
      plan: (total, done) => {
        p.total = total;
        if (done !== undefined) Object.assign(p, done);
        void live.persist();
      },
      taskStarted: (task, extra = {}) => {
        live.running.set(task.key, Date.now());
        p.current_question = task.question_id;
        live.emit("task_started", {
          ...taskFields(task),
          current: p.processed + 1,
          total: p.total,
          ...extra,
        });
      },
      taskCompleted: (task, success, extra = {}) => {
        this.#taskEnded(live, task, success);
        live.emit("task_completed", {
          ...taskFields(task),
          current: p.processed,
          total: p.total,
          success,
          ...extra,
        });
        void live.persist();
      },
      taskFailed: (task, error) => {
        this.#taskEnded(live, task, false);
        live.emit("task_failed", {
          ...taskFields(task),
          current: p.processed,
          total: p.total,
          success: false,
          error,
        });
        void live.persist();
      },
      reportUsage: (totals) => {
        p.usage_totals = { ...totals };
      },
      linkRun: async (runId) => {
        await this.#storage.updateJob(live.row.id, { runId });
      },
      endCancelled: () => {
        live.stopReason ??= "cancel";
      },
    };
  }

  #taskEnded(live: LiveJob, task: JobTask, success: boolean): void {
    const started = live.running.get(task.key);
    live.running.delete(task.key);
    const p = live.progress;
    p.processed++;
    if (success) p.successful++;
    else p.failed++;
    if (started !== undefined) p.last_task_duration = (Date.now() - started) / 1000;
  }

  async #execute(live: LiveJob, input: unknown): Promise<void> {
    const p = live.progress;
    try {
      const now = Date.now();
      p.status = "running";
      p.start_time ??= now / 1000;
      await this.#storage.updateJob(live.row.id, {
        status: "running",
        startedAt: live.row.startedAt ?? new Date(now).toISOString(),
      });
      live.emit("job_started");
      let outcome: unknown = null;
      let error: string | null = null;
      try {
        outcome = await live.kind.run(this.#context(live, input));
      } catch (thrown) {
        error = thrown instanceof Error ? thrown.message : String(thrown);
      }
      const stopped = live.stopReason;
      const status: JobStatus =
        stopped === "shutdown"
          ? "interrupted"
          : stopped === "cancel"
            ? "cancelled"
            : error === null
              ? "completed"
              : "failed";
      await this.#finish(live, status, outcome, status === "failed" ? error : null);
    } catch (thrown) {
      // The database failed under the runner itself: leave what can be said in the row.
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      await this.#finish(live, "failed", null, message).catch(() => undefined);
    } finally {
      this.#active--;
      this.#pump();
    }
  }

  /** Saves the final state, then tells the subscribers (so `job_completed` comes after the outcome is stored). */
  async #finish(live: LiveJob, status: JobStatus, outcome: unknown, error: string | null): Promise<void> {
    const p = live.progress;
    live.running.clear();
    p.status = status;
    p.error = error;
    live.refreshClock();
    const final = (FINAL_JOB_STATUSES as readonly string[]).includes(status);
    await live.persist();
    await this.#storage.updateJob(live.row.id, {
      status,
      outcome: outcome ?? null,
      errorMessage: error,
      ...(final ? { finishedAt: new Date().toISOString() } : {}),
      progress: { ...p, last_seq: live.seq + (TERMINAL_EVENT[status] ? 1 : 0) },
    });
    const terminal = TERMINAL_EVENT[status];
    if (terminal !== undefined)
      live.emit(terminal, {
        ...(status === "completed" ? { result: outcome } : {}),
        ...(status === "failed" ? { error } : {}),
      });
    await live.log.flushed();
    this.#live.delete(live.row.id);
    for (const subscriber of live.subscribers) subscriber.onEnd();
    live.subscribers.clear();
    live.release();
  }
}

function taskFields(task: JobTask): Record<string, unknown> {
  return { task_key: task.key, question_id: task.question_id, replicate: task.replicate ?? null };
}
