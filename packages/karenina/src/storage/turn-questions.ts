import { Benchmark } from "../benchmark/index.js";
import type { VerificationResult } from "../results/index.js";
import type { Storage } from "./storage.js";

/** The raw answer of a turn row's node (any non-empty text: the stored question row requires one). */
function rawAnswerOf(benchmark: Benchmark, row: VerificationResult): string {
  const { scenario_id, scenario_node } = row.metadata;
  const scenario = benchmark.getScenarios().find((candidate) => candidate.name === scenario_id);
  const node =
    scenario_node === null || scenario_node === undefined ? undefined : scenario?.nodes[scenario_node];
  return node?.question.raw_answer || "(scenario turn)";
}

/**
 * Stores the questions of scenario turn rows (their ids, texts and their nodes' answers) not stored yet: a stored
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
      const { question_id: id, question_text: text } = row.metadata;
      if (this.#stored.has(id) || fresh.has(id)) continue;
      fresh.addQuestion(text, rawAnswerOf(this.benchmark, row), { questionId: id });
    }
    if (fresh.size === 0) return;
    await this.storage.saveQuestions(fresh);
    for (const id of fresh.getQuestionIds()) this.#stored.add(id);
  }
}
