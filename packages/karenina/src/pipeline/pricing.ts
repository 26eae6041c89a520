import { readFile } from "node:fs/promises";
import { z } from "zod";
import { dottedPath, KareninaError, schemaProblems } from "../errors/index.js";
import type { UsageMetadata } from "../llm/index.js";

/** The price of one model in US dollars per million tokens. */
export const ModelPriceSchema = z.strictObject({
  input_per_million: z.number().nonnegative(),
  output_per_million: z.number().nonnegative(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Model name → price. A user's table (a JSON file of this shape) overrides the defaults key by key. */
export const PriceTableSchema = z.record(z.string(), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

const price = (input: number, output: number): ModelPrice => ({
  input_per_million: input,
  output_per_million: output,
});

/**
 * Published list prices of common models (USD per million tokens, as listed by the providers in 2025).
 * Prices change: override them with a price file (`karenina verify --prices FILE`). Local models are free
 * unless listed.
 */
export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze({
  "gpt-4.1": price(2, 8),
  "gpt-4.1-mini": price(0.4, 1.6),
  "gpt-4.1-nano": price(0.1, 0.4),
  "gpt-4o": price(2.5, 10),
  "gpt-4o-mini": price(0.15, 0.6),
  "claude-sonnet-4-5": price(3, 15),
  "claude-haiku-4-5": price(1, 5),
  "claude-opus-4-1": price(15, 75),
  "gemini-2.5-pro": price(1.25, 10),
  "gemini-2.5-flash": price(0.3, 2.5),
});

/** A price file that cannot be read or does not have the expected shape. */
export class PriceTableError extends KareninaError {
  override readonly name: string = "PriceTableError";
}

/**
 * Reads a user price table (`{"model-name": {"input_per_million": 1, "output_per_million": 2}}`) and lays
 * it over the defaults.
 * @throws {PriceTableError} naming the file and every invalid entry.
 */
export async function loadPriceTable(path: string): Promise<PriceTable> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new PriceTableError(`${path}: cannot read the price table (${(error as Error).message})`);
  }
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) {
    throw new PriceTableError(
      `${path}: invalid price table:\n${schemaProblems(parsed.error, raw)
        .map((p) => `  ${dottedPath(p.path)}: ${p.message}`)
        .join("\n")}`,
    );
  }
  return { ...DEFAULT_PRICES, ...parsed.data };
}

/**
 * The cost of a call's usage in US dollars, or null when the model has no price. A cost the provider reported
 * (`cost_usd`) wins over the table.
 * @example
 * costOf({ input_tokens: 1_000_000, output_tokens: 500_000, total_tokens: 1_500_000, model: "gpt-4.1-mini" }); // 1.2
 */
export function costOf(usage: UsageMetadata, table: Readonly<PriceTable> = DEFAULT_PRICES): number | null {
  if (usage.cost_usd !== undefined) return usage.cost_usd;
  const entry = usage.model === undefined ? undefined : table[usage.model];
  if (entry === undefined) return null;
  return (
    (usage.input_tokens * entry.input_per_million + usage.output_tokens * entry.output_per_million) / 1e6
  );
}
