import { md5Hex } from "../../model/index.js";
import type { FewShotConfig } from "../config/index.js";
import type { FewShotPair } from "./answering.js";

type ExampleRef = string | number;

/**
 * The PRNG seed of a question's k-shot sample, as the original computes it: `int(md5(questionId), 16) &
 * 0x7FFFFFFF` (the low 31 bits of the digest).
 */
export function fewShotSeed(questionId: string): number {
  return Number.parseInt(md5Hex(questionId).slice(-8), 16) & 0x7fffffff;
}

/** mulberry32: a small, fast, seeded PRNG giving floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `k` distinct indices of `0..n-1`, in the order drawn (a partial Fisher–Yates shuffle). */
function sampleIndices(n: number, k: number, random: () => number): number[] {
  const pool = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return pool.slice(0, k);
}

/** The indices (into `available`) an example reference names: an in-range index, or the md5 of a question. */
function indicesOf(ref: ExampleRef, available: readonly FewShotPair[]): number[] {
  if (typeof ref === "number")
    return Number.isInteger(ref) && ref >= 0 && ref < available.length ? [ref] : [];
  return available.flatMap((example, index) => (md5Hex(example.question) === ref ? [index] : []));
}

/**
 * The few-shot examples of one question's answering prompt (spec 04 §2.3). Null config or `source: "disabled"`:
 * none. Pool part (`question_pool`, `both`), from the question's own examples, with the question's config
 * (`inherit` = the pool mode and `pool_k`; a missing `k` = `pool_k`): `all`; `k-shot`, all when there are at most
 * k, else k drawn at random, seeded from the question id (see {@link fewShotSeed}); `custom`, the selected
 * examples in order (an index, or the md5 of the example's question). Exclusions are then dropped. Global part
 * (`global`, `both`): every global example, appended.
 *
 * Differences from the original, on purpose:
 * - The sample is drawn with mulberry32, not Python's Mersenne Twister: deterministic per question id, but not
 *   the same examples the original picks.
 * - An int exclusion is an index into the question's examples (the space `selected_examples` uses), not into the
 *   resolved list as in the original, where the two index spaces differ.
 */
export function resolveFewShotExamples(
  config: FewShotConfig | null | undefined,
  questionId: string,
  available: readonly FewShotPair[],
): FewShotPair[] {
  if (config == null || config.source === "disabled") return [];
  const resolved: FewShotPair[] = [];
  if (config.source === "question_pool" || config.source === "both") {
    const own = config.question_configs[questionId];
    const mode = own === undefined || own.mode === "inherit" ? config.pool_mode : own.mode;
    const k = own?.mode === "inherit" || own?.k == null ? config.pool_k : own.k;
    let chosen: number[];
    if (mode === "all") chosen = available.map((_, index) => index);
    else if (mode === "k-shot") {
      chosen =
        available.length <= k
          ? available.map((_, index) => index)
          : sampleIndices(available.length, Math.max(0, k), mulberry32(fewShotSeed(questionId)));
    } else chosen = (own?.selected_examples ?? []).flatMap((ref) => indicesOf(ref, available).slice(0, 1));
    const excluded = new Set((own?.excluded_examples ?? []).flatMap((ref) => indicesOf(ref, available)));
    for (const index of chosen) if (!excluded.has(index)) resolved.push(available[index] as FewShotPair);
  }
  if (config.source === "global" || config.source === "both") resolved.push(...config.global_examples);
  return resolved;
}
