/**
 * Reading a response cache's history. The cached replies below are hand-written test data in the shapes the
 * run stores (`LlmResponse` for plain calls, `ParseResult` for structured ones).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { ResponseCache } from "../../llm/index.js";
import { cacheEntryOutput, readOutputTokenHistory } from "./cache-history.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-dry-run-cache-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const usage = (output: number) => ({ input_tokens: 100, output_tokens: output, total_tokens: 100 + output });
const plain = (content: string, output: number) => ({ content, usage: usage(output), isPartial: false });
const structured = (parsed: Record<string, unknown>, output: number) => ({
  parsed,
  rawText: JSON.stringify(parsed),
  usage: usage(output),
  strategy: "native",
});

test("a cache directory's entries give the mean output tokens per kind of call", async () => {
  const cache = await ResponseCache.open(dir);
  const values = [
    plain("Venetoclax is the approved BCL-2 inhibitor.", 100),
    plain("Venetoclax, given with obinutuzumab.", 200),
    structured({ reasoning: "It names a drug.", abstention_detected: false }, 50),
    structured({ reasoning: "drug: venetoclax", sufficient: true }, 70),
    structured({ drug: "venetoclax" }, 12),
    structured({ scores: { clarity: 4, names_drug: true } }, 20),
    structured({ tp: ["BCL2"], fn: [], fp: [], tn: [] }, 30),
    plain('{"drug": [{"text": "Venetoclax", "confidence": "high"}]}', 40),
    plain("YES", 1),
    plain("An answer whose usage was not reported.", 0),
  ];
  for (const [i, value] of values.entries()) {
    await cache.put(createHash("sha256").update(String(i)).digest("hex"), value);
  }
  expect(await readOutputTokenHistory(dir)).toEqual({
    answer_generation: { meanOutputTokens: 150, samples: 2 },
    abstention: { meanOutputTokens: 50, samples: 1 },
    sufficiency: { meanOutputTokens: 70, samples: 1 },
    parsing: { meanOutputTokens: 12, samples: 1 },
    rubric: { meanOutputTokens: 20, samples: 1 },
    rubric_metric: { meanOutputTokens: 30, samples: 1 },
    deep_judgment_excerpts: { meanOutputTokens: 40, samples: 1 },
    embedding_equivalence: { meanOutputTokens: 1, samples: 1 },
  });
});

test("an answer that mentions JSON inline is still an answer, not a deep-judgment reply", () => {
  expect(cacheEntryOutput(plain('The API returns {"drug": "venetoclax"} for this query.', 60))).toEqual({
    kind: "answer_generation",
    outputTokens: 60,
  });
  expect(cacheEntryOutput({ something: "else" })).toBeNull();
});

test("a cache directory that does not exist has no history and is not created", async () => {
  const missing = join(dir, "no-cache-here");
  expect(await readOutputTokenHistory(missing)).toEqual({});
  expect(existsSync(missing)).toBe(false);
});
