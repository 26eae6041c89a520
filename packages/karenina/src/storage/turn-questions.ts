import { Benchmark } from "../benchmark/index.js";
import type { VerificationResult } from "../results/index.js";
import type { Storage } from "./storage.js";

/** The scenario node a turn row comes from, when the benchmark has it. */
function nodeOf(benchmark: Benchmark, row: VerificationResult) {
  const { scenario_id, scenario_node } = row.metadata;
  const scenario = benchmark.getScenarios().find((candidate) => candidate.name === scenario_id);
  return scenario_node === null || scenario_node === undefined ? undefined : scenario?.nodes[scenario_node];
}

/**
 * Stores the questions of scenario turn rows (their ids, their nodes' texts and answers) not stored yet: a stored
 * row needs its question, and a scenario's turns belong to no stored benchmark's questions (a scenario
 * benchmark stores none). Used by every saver of scenario runs (`verify --db`, the server's jobs).
 */
export class TurnQuestions {
  readonly #stored = new Set<string>();
  constructor(
    private readonly storage: Pick<Storage, "saveQuestions">,
    private readonly benchmark: Benchmark,
  ) {}

  async store(rows: readonly VerificationResult[]): Promise<void> {
    const fresh = Benchmark.create({ name: `${this.benchmark.name} turns` });
    for (const row of rows) {
      const { question_id: id, question_text: asked } = row.metadata;
      if (this.#stored.has(id) || fresh.has(id)) continue;
      // The node's own text and answer: a turn after a handover was asked with the transcript before its question.
      const node = nodeOf(this.benchmark, row)?.question;
      // A stored question needs a non-empty answer.
      fresh.addQuestion(node?.question || asked, node?.raw_answer || "(scenario turn)", { questionId: id });
    }
    if (fresh.size === 0) return;
    await this.storage.saveQuestions(fresh);
    for (const id of fresh.getQuestionIds()) this.#stored.add(id);
  }
}
