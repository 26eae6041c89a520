import type { Workspace } from "../agentic/index.js";
import type { Message, UsageMetadata } from "../llm/index.js";
import type { AgentMetrics } from "../results/index.js";

/** A generated answer that tasks of the same question, answering model and replicate reuse (spec 04 §15.3). */
export interface SharedAnswer {
  rawLlmResponse: string;
  traceMessages: Message[] | null;
  conversationContext: Message[];
  recursionLimitReached: boolean;
  responseTimeoutPartial: boolean;
  usage: UsageMetadata | null;
  usageUnavailable: boolean;
  agentMetrics: AgentMetrics | null;
  answeringMcpServers: string[] | null;
  /** The directory the answering agent worked in; judges of a shared answer investigate this one. */
  workspace?: Workspace | null;
}

interface Entry {
  answer: Promise<SharedAnswer | null>;
  /** Tasks still to come for this key; the entry is dropped when it reaches 0, so memory stays flat. */
  remaining: number;
}

/**
 * Shares generated answers between the tasks that differ only by parsing model, so each answer is generated
 * once however many judges read it. The first task of a key generates; the others wait for it. A generation
 * that fails (null) is not shared: each waiting task then generates its own, as the original retries a
 * failed cache entry. Keys are the answering model's canonical identity (the spec's recommended fix).
 */
export class AnswerShare {
  readonly #entries = new Map<string, Entry>();

  /**
   * The shared answer of `key`, generating it with `generate` when this is the first task to ask.
   * `sharers` is the number of tasks that will ask for `key` (the entry is dropped after the last).
   * `generate` is told how many tasks will receive what it produces (itself included), and `generated` tells
   * the caller whether its own call produced it.
   */
  async getOrGenerate(
    key: string,
    sharers: number,
    generate: (receivers: number) => Promise<SharedAnswer | null>,
  ): Promise<{ answer: SharedAnswer | null; generated: boolean }> {
    const total = sharers;
    const existing = this.#entries.get(key);
    if (existing === undefined) {
      if (total <= 1) return { answer: await generate(1), generated: true };
      const answer = generate(total);
      this.#entries.set(key, { answer, remaining: total - 1 });
      return { answer: await answer, generated: true };
    }
    if (--existing.remaining <= 0) this.#entries.delete(key);
    const shared = await existing.answer.catch(() => null);
    if (shared !== null) return { answer: shared, generated: false };
    return { answer: await generate(1), generated: true };
  }

  /** Keys currently held (for tests and memory checks). */
  get size(): number {
    return this.#entries.size;
  }
}
