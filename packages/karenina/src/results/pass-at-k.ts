import { setOwn } from "../plain-data/index.js";
import type { ComboPassAtK, QuestionPassAtK } from "./summary-types.js";

/**
 * The unbiased pass@k estimate for `n` samples of which `c` passed: 1 − C(n−c, k) / C(n, k), the chance that
 * at least one of `k` samples drawn without replacement passes. pass@1 is the pass rate c / n.
 * @example
 * passAtK(3, 1, 1); // 0.3333333333333333
 * passAtK(3, 1, 2); // 0.6666666666666666
 * passAtK(3, 1, 3); // 1
 * passAtK(4, 0, 2); // 0
 */
export function passAtK(n: number, c: number, k: number): number {
  if (![n, c, k].every(Number.isInteger) || k < 1 || k > n || c < 0 || c > n) {
    throw new RangeError(`pass@k needs integers 0 <= c <= n and 1 <= k <= n (got n=${n}, c=${c}, k=${k})`);
  }
  if (n - c < k) return 1;
  // Exact binomials, then one division; the product form 1 − Π (1 − k/i) where they overflow a double.
  const all = binomial(n, k);
  const failing = binomial(n - c, k);
  const denominator = Number(all);
  if (Number.isFinite(denominator)) return Number(all - failing) / denominator;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * `passAtK(n, c, k)` for k = 1..n, equal to it value for value: the binomials C(n, k) and C(n − c, k) are
 * carried from one k to the next (exactly, as bigints) instead of being recomputed, so a question with
 * hundreds of replicates costs n steps, not n².
 */
function passAtKSeries(n: number, c: number): number[] {
  const estimates: number[] = [];
  let all = 1n;
  let failing = 1n;
  for (let k = 1; k <= n; k++) {
    all = (all * BigInt(n - k + 1)) / BigInt(k);
    if (k <= n - c) failing = (failing * BigInt(n - c - k + 1)) / BigInt(k);
    estimates.push(n - c < k ? 1 : estimateFrom(all, failing, n, c, k));
  }
  return estimates;
}

function estimateFrom(all: bigint, failing: bigint, n: number, c: number, k: number): number {
  const denominator = Number(all);
  if (Number.isFinite(denominator)) return Number(all - failing) / denominator;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

/** pass@k samples of one question under one model combination: evaluated rows, and those that passed. */
interface Samples {
  n: number;
  c: number;
}

/**
 * pass@k per model combination, counted row by row: per combination (in the order first seen), per question
 * (likewise), the evaluated rows and the passing ones. Holds two numbers per (combination, question).
 */
export class PassAtKCounts {
  private readonly combos = new Map<string, Map<string, Samples>>();

  /** Counts an evaluated row (template verification performed) of `combo` and `question`. */
  add(combo: string, question: string, passed: boolean): void {
    let questions = this.combos.get(combo);
    if (questions === undefined) {
      questions = new Map();
      this.combos.set(combo, questions);
    }
    const samples = questions.get(question);
    if (samples === undefined) questions.set(question, { n: 1, c: passed ? 1 : 0 });
    else {
      samples.n++;
      if (passed) samples.c++;
    }
  }

  /** Per combination: per question pass@k for k = 1..n, and the mean over the questions with n ≥ k. */
  finish(): Record<string, ComboPassAtK> {
    const out: Record<string, ComboPassAtK> = {};
    for (const [combo, questions] of this.combos) setOwn(out, combo, comboPassAtK(questions));
    return out;
  }
}

function comboPassAtK(questions: Map<string, Samples>): ComboPassAtK {
  const byQuestion: Record<string, QuestionPassAtK> = {};
  for (const [question, { n, c }] of questions) {
    const estimates: Record<string, number> = {};
    passAtKSeries(n, c).forEach((estimate, index) => {
      estimates[index + 1] = estimate;
    });
    setOwn(byQuestion, question, { n, c, pass_at_k: estimates });
  }
  // Summed per k in the order of the record's values, as a mean over the list of the questions' estimates.
  const sums: number[] = [];
  const counts: number[] = [];
  const perQuestion = Object.values(byQuestion);
  for (const question of perQuestion) {
    for (let k = 1; k <= question.n; k++) {
      sums[k] = (sums[k] ?? 0) + (question.pass_at_k[k] as number);
      counts[k] = (counts[k] ?? 0) + 1;
    }
  }
  const means: Record<string, number> = {};
  const questionsAtK: Record<string, number> = {};
  for (let k = 1; k < sums.length; k++) {
    means[k] = (sums[k] as number) / (counts[k] as number);
    questionsAtK[k] = counts[k] as number;
  }
  return {
    num_questions: perQuestion.length,
    pass_at_k: means,
    questions_at_k: questionsAtK,
    by_question: byQuestion,
  };
}
