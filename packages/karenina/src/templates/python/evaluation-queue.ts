import { z } from "zod";
import type { JsonValue, PythonSandbox } from "../../sandbox/index.js";
import type { TemplateEvaluation } from "../answer-template.js";
import { EvaluationReplySchema } from "./bridge-replies.js";
import { bridgeEntry, pythonCompatSetup } from "./compat/compat-setup.js";
import { describeSandboxFailure } from "./sandbox-failure.js";

/** A template as the interpreter caches it: by `key`, re-loaded from `code` after an interpreter restart. */
export interface TemplateSource {
  readonly key: string;
  readonly code: string;
  readonly lenient: boolean;
}

/** One evaluation waiting for its batch. */
interface Queued {
  readonly template: TemplateSource;
  readonly parsed: JsonValue;
  readonly context: JsonValue;
  readonly resolve: (evaluation: TemplateEvaluation) => void;
}

/** Evaluations sent in one sandbox call; small enough to stay far below the per-call time limit. */
const MAX_BATCH = 64;

const BatchReplySchema = z.array(EvaluationReplySchema);

/** A failed evaluation that says what happened. */
export function failedEvaluation(error: string): TemplateEvaluation {
  return {
    verify: false,
    fieldVerify: false,
    verifyGranular: null,
    fieldResults: {},
    regex: { success: true, results: {}, details: {} },
    error,
  };
}

/**
 * Sends evaluations to one sandbox in batches: all evaluations submitted while the previous batch runs (or in
 * the same tick) go together in one call, so concurrent callers pay one round trip per batch rather than one
 * each. When a batch fails in the sandbox (a timeout, a memory blow-up, a crash), its evaluations are retried
 * one by one, so that only the culprit fails.
 */
export class EvaluationQueue {
  static readonly #queues = new WeakMap<PythonSandbox, EvaluationQueue>();
  readonly #sandbox: PythonSandbox;
  #pending: Queued[] = [];
  #draining = false;

  private constructor(sandbox: PythonSandbox) {
    this.#sandbox = sandbox;
  }

  /** The queue of a sandbox (one per sandbox, shared by every template loaded in it). */
  static of(sandbox: PythonSandbox): EvaluationQueue {
    let queue = EvaluationQueue.#queues.get(sandbox);
    if (!queue) {
      queue = new EvaluationQueue(sandbox);
      EvaluationQueue.#queues.set(sandbox, queue);
    }
    return queue;
  }

  /** Queues one evaluation; the promise always resolves, with a failed evaluation when something went wrong. */
  submit(template: TemplateSource, parsed: JsonValue, context: JsonValue): Promise<TemplateEvaluation> {
    return new Promise((resolve) => {
      this.#pending.push({ template, parsed, context, resolve });
      if (!this.#draining) {
        this.#draining = true;
        queueMicrotask(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.length > 0) await this.#run(this.#takeBatch());
    } finally {
      this.#draining = false;
    }
  }

  /**
   * The next batch: pending evaluations of the oldest one's template, up to {@link MAX_BATCH}. A batch never
   * mixes templates, because the sandbox resets the interpreter between different templates' code: one
   * template's evaluations cannot see what another template's code did.
   */
  #takeBatch(): Queued[] {
    const key = this.#pending[0]?.template.key;
    const batch: Queued[] = [];
    const rest: Queued[] = [];
    for (const item of this.#pending) {
      (item.template.key === key && batch.length < MAX_BATCH ? batch : rest).push(item);
    }
    this.#pending = rest;
    return batch;
  }

  async #run(batch: readonly Queued[]): Promise<void> {
    let evaluations: TemplateEvaluation[];
    try {
      evaluations = await this.#call(batch);
    } catch (error) {
      if (batch.length > 1) {
        for (const item of batch) await this.#run([item]);
      } else {
        batch[0]?.resolve(failedEvaluation(describeSandboxFailure(error)));
      }
      return;
    }
    batch.forEach((item, index) => {
      item.resolve(evaluations[index] ?? failedEvaluation("the Python bridge returned too few evaluations"));
    });
  }

  async #call(batch: readonly Queued[]): Promise<TemplateEvaluation[]> {
    const templates: Record<string, JsonValue> = {};
    for (const { template } of batch) {
      templates[template.key] = { code: template.code, lenient: template.lenient };
    }
    const items = batch.map(({ template, parsed, context }) => ({ key: template.key, parsed, context }));
    const reply = await this.#sandbox.run({
      setup: pythonCompatSetup(),
      code: "",
      entry: bridgeEntry("evaluate_batch"),
      args: [{ templates, items }],
      stateKey: batch[0]?.template.key ?? "",
    });
    const parsed = BatchReplySchema.safeParse(reply);
    if (!parsed.success)
      return batch.map(() => failedEvaluation("the Python bridge returned malformed data"));
    return parsed.data;
  }
}
