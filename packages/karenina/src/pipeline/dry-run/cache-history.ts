import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { ResponseCache } from "../../llm/index.js";
import { readJsonObject } from "../prompts/index.js";
import type { CallKind, OutputTokenHistory } from "./call-kinds.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const RUBRIC_REPLY_KEYS = ["scores", "classifications", "classification", "results"];
const METRIC_REPLY_KEYS = new Set(["tp", "fn", "fp", "tn"]);

/** The kind of a structured (parser) call, from the keys of the object it returned. */
function structuredKind(parsed: Record<string, unknown>): CallKind {
  const keys = Object.keys(parsed);
  if ("abstention_detected" in parsed) return "abstention";
  if ("sufficient" in parsed) return "sufficiency";
  if ("excerpts" in parsed) return "deep_judgment_excerpts";
  if ("hallucination_risk" in parsed) return "deep_judgment_hallucination";
  if (keys.length > 0 && keys.every((key) => METRIC_REPLY_KEYS.has(key))) return "rubric_metric";
  if (RUBRIC_REPLY_KEYS.some((key) => key in parsed)) return "rubric";
  if (keys.length === 1 && (keys[0] === "result" || keys[0] === "score")) return "rubric";
  if (keys.length === 1 && keys[0] === "reasoning") return "deep_judgment_reasoning";
  return "parsing";
}

/** The kind of a plain call, from its reply text. */
function plainKind(content: string): CallKind {
  const text = content.trim();
  if (text.length <= 20 && /^(yes|no)\b/i.test(text)) return "embedding_equivalence";
  const json = text.startsWith("{") || text.startsWith("```") ? readJsonObject(text) : null;
  if (json === null) return "answer_generation";
  if ("excerpt_assessments" in json) return "deep_judgment_hallucination";
  const values = Object.values(json);
  if (values.length > 0 && values.every(Array.isArray)) return "deep_judgment_excerpts";
  return "deep_judgment_reasoning";
}

/**
 * The call kind and output tokens of one response-cache value, or null when it is not a call's response or
 * reports no output tokens. Cache entries do not record what they were for, so the kind is read from the reply's
 * shape: a structured reply by its keys (`abstention_detected` → abstention, `scores` → rubric, ...; anything
 * else → a template parse), a plain reply by its text (YES/NO → embedding equivalence, a JSON object → template
 * deep judgment, prose → an answer). Deep-judgment score replies (`{"score": n}`) read as rubric replies.
 */
export function cacheEntryOutput(value: unknown): { kind: CallKind; outputTokens: number } | null {
  if (!isRecord(value) || !isRecord(value.usage)) return null;
  const outputTokens = value.usage.output_tokens;
  if (typeof outputTokens !== "number" || !(outputTokens > 0)) return null;
  if (isRecord(value.parsed)) return { kind: structuredKind(value.parsed), outputTokens };
  if (typeof value.content === "string") return { kind: plainKind(value.content), outputTokens };
  return null;
}

type Totals = Map<CallKind, { tokens: number; samples: number }>;

function addValue(totals: Totals, value: unknown): void {
  const entry = cacheEntryOutput(value);
  if (entry === null) return;
  const total = totals.get(entry.kind) ?? { tokens: 0, samples: 0 };
  total.tokens += entry.outputTokens;
  total.samples += 1;
  totals.set(entry.kind, total);
}

function historyOf(totals: Totals): OutputTokenHistory {
  const history: OutputTokenHistory = {};
  for (const [kind, { tokens, samples }] of totals)
    history[kind] = { meanOutputTokens: tokens / samples, samples };
  return history;
}

/** The mean output tokens per kind of a list of cache values (see {@link cacheEntryOutput}). */
export function outputTokenHistory(values: Iterable<unknown>): OutputTokenHistory {
  const totals: Totals = new Map();
  for (const value of values) addValue(totals, value);
  return historyOf(totals);
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The values of every readable entry of a cache directory; unreadable entries are skipped, as the run does. */
async function* cacheValues(dir: string): AsyncGenerator<unknown> {
  const cache = await ResponseCache.open(dir);
  for (const shard of await readdir(dir, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue;
    for (const file of await readdir(join(dir, shard.name))) {
      const key = file.endsWith(".json") ? file.slice(0, -".json".length) : "";
      if (!/^[0-9a-f]{64}$/.test(key)) continue;
      const value = await cache.get(key);
      if (value !== undefined) yield value;
    }
  }
}

/**
 * The output-token history of a response cache directory (`karenina verify --cache DIR`): the mean output
 * tokens per call kind over its entries. A directory that does not exist has no history and is not created.
 */
export async function readOutputTokenHistory(dir: string): Promise<OutputTokenHistory> {
  if (!(await isDirectory(dir))) return {};
  const totals: Totals = new Map();
  for await (const value of cacheValues(dir)) addValue(totals, value);
  return historyOf(totals);
}
