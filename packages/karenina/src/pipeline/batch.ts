import { CallScheduler } from "../llm/index.js";
import type { VerificationResult } from "../results/index.js";
import type { VerificationConfig } from "./config/index.js";
import { VerificationContext } from "./context.js";
import { runStages, TaskAbortedError } from "./orchestrator.js";
import type { RunServices } from "./services.js";
import { stagesFor } from "./stage-list.js";
import type { VerificationTask } from "./task.js";

/** A task that threw outside the stages (an inconsistent stage list, a failing finalize, a failing sink). */
export interface TaskFailure {
  task: VerificationTask;
  error: unknown;
}

/** What happened to a batch. */
export interface BatchOutcome {
  completed: number;
  failures: TaskFailure[];
  /** The run was cancelled (signal or batch timeout); unfinished tasks have no result. */
  aborted: boolean;
}

/** Callbacks of {@link runBatch}. */
export interface BatchCallbacks {
  /** A task is about to start. */
  onStart?(task: VerificationTask): void;
  /** A task finished; awaited before the task's worker takes the next one. */
  onResult(result: VerificationResult, task: VerificationTask): Promise<void> | void;
}

/** Per-answerer caps (spec 04 §15.5) as endpoint limits of a gate keyed by answering model id. */
function answererGate(config: VerificationConfig): CallScheduler | null {
  const limits = config.answerer_concurrency_limits;
  if (limits === null) return null;
  const ids = config.answering_models.map((model) => model.id ?? model.model_name ?? "");
  const endpointLimits =
    typeof limits === "number"
      ? Object.fromEntries(ids.map((id) => [id, limits]))
      : Object.fromEntries(Object.entries(limits).filter(([id]) => ids.includes(id)));
  return new CallScheduler({ globalLimit: Number.MAX_SAFE_INTEGER, endpointLimits });
}

/**
 * Runs tasks with `async_max_workers` workers (one when `async_enabled` is false), each task through its
 * stages, honouring per-answerer caps. Results are handed to `onResult` as they finish, so nothing needs to
 * be held in memory. Cancellation (the services' signal) stops workers after their current task; a task cut
 * mid-way is dropped, so a resumed run redoes it.
 */
export async function runBatch(
  tasks: Iterable<VerificationTask>,
  config: VerificationConfig,
  services: RunServices,
  callbacks: BatchCallbacks,
): Promise<BatchOutcome> {
  const workers = config.async_enabled ? Math.max(1, config.async_max_workers) : 1;
  const gate = answererGate(config);
  const outcome: BatchOutcome = { completed: 0, failures: [], aborted: false };
  const queue = tasks[Symbol.iterator]();
  let exhausted = false;
  let dropped = 0;
  const nextTask = (): VerificationTask | null => {
    if (exhausted) return null;
    const next = queue.next();
    if (next.done) exhausted = true;
    return next.done ? null : next.value;
  };

  const runOne = async (task: VerificationTask) => {
    const ctx = new VerificationContext(task, config, services);
    const result = await runStages(ctx, stagesFor(config, task));
    await callbacks.onResult(result, task);
    outcome.completed++;
  };

  const worker = async () => {
    for (let task = nextTask(); task !== null; task = nextTask()) {
      if (services.signal?.aborted) {
        dropped++;
        break;
      }
      callbacks.onStart?.(task);
      const answerer = task.answering.id ?? task.answering.model_name ?? "";
      try {
        if (gate === null) await runOne(task);
        else await gate.run(answerer, () => runOne(task), { signal: services.signal });
      } catch (error) {
        if (error instanceof TaskAbortedError || services.signal?.aborted) {
          dropped++;
          break;
        }
        outcome.failures.push({ task, error });
      }
    }
  };

  await Promise.all(Array.from({ length: workers }, worker));
  outcome.aborted = services.signal?.aborted === true && (!exhausted || dropped > 0);
  return outcome;
}
