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
 * Published list prices of common models (USD per million tokens, standard tier, input at the cache-miss rate).
 * The rows of the providers added with issue 20 were checked against public price listings in November 2026;
 * an alias (`mistral-large-latest`, `deepseek-chat`) is priced as the model it pointed at then.
 * Prices change: override them with a price file (`karenina verify --prices FILE`). Local models (Ollama) are
 * free unless listed; an Azure deployment is priced under its deployment name, so list it in a price file.
 * Bedrock models are listed under their model ids (on-demand, US regions); a cross-region inference profile
 * (`us.`, `eu.`, `apac.`, `global.` ...) is priced as its model. Claude on Vertex AI is listed at Anthropic's
 * prices, and its versioned ids (`claude-sonnet-4-5@20250929`) are priced as the name before the `@`.
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
  // Vertex AI lists its Gemini 2.5 models at the Gemini API's prices (standard, prompts up to 200k tokens),
  // under the same model ids, so these rows serve both the `google` and the `vertex` adapters.
  "gemini-2.5-flash-lite": price(0.1, 0.4),
  "mistral-large-latest": price(0.5, 1.5),
  "mistral-large-2512": price(0.5, 1.5),
  "mistral-large-2411": price(2, 6),
  "mistral-medium-latest": price(0.4, 2),
  "mistral-medium-2508": price(0.4, 2),
  "mistral-small-latest": price(0.1, 0.3),
  "codestral-latest": price(0.3, 0.9),
  "llama-3.3-70b-versatile": price(0.59, 0.79),
  "llama-3.1-8b-instant": price(0.05, 0.08),
  "openai/gpt-oss-120b": price(0.15, 0.6),
  "grok-4": price(3, 15),
  "grok-3": price(3, 15),
  "grok-3-mini": price(0.3, 0.5),
  "deepseek-chat": price(0.28, 0.42),
  "deepseek-reasoner": price(0.28, 0.42),
  "meta-llama/Llama-3.3-70B-Instruct-Turbo": price(0.88, 0.88),
  "deepseek-ai/DeepSeek-V3": price(1.25, 1.25),
  "Qwen/Qwen2.5-72B-Instruct-Turbo": price(1.2, 1.2),
  "anthropic.claude-sonnet-4-5-20250929-v1:0": price(3, 15),
  "anthropic.claude-sonnet-4-20250514-v1:0": price(3, 15),
  "anthropic.claude-3-7-sonnet-20250219-v1:0": price(3, 15),
  "anthropic.claude-haiku-4-5-20251001-v1:0": price(1, 5),
  "anthropic.claude-3-5-haiku-20241022-v1:0": price(0.8, 4),
  "anthropic.claude-opus-4-1-20250805-v1:0": price(15, 75),
  "amazon.nova-pro-v1:0": price(0.8, 3.2),
  "amazon.nova-lite-v1:0": price(0.06, 0.24),
  "amazon.nova-micro-v1:0": price(0.035, 0.14),
  "meta.llama3-3-70b-instruct-v1:0": price(0.72, 0.72),
  "meta.llama3-1-8b-instruct-v1:0": price(0.22, 0.22),
  "mistral.mistral-large-2407-v1:0": price(2, 6),
  "deepseek.r1-v1:0": price(1.35, 5.4),
  "command-a-03-2025": price(2.5, 10),
  "command-r-plus-08-2024": price(2.5, 10),
  "command-r-08-2024": price(0.15, 0.6),
  "command-r7b-12-2024": price(0.0375, 0.15),
});

/** The geography prefix of a Bedrock cross-region inference profile id (`us.anthropic.claude-...`). */
const INFERENCE_PROFILE_PREFIX = /^(?:us|eu|apac|jp|au|ca|us-gov|global)\./;

/** The version suffix of a Vertex AI partner model id (`claude-sonnet-4-5@20250929`). */
const VERTEX_VERSION_SUFFIX = /@[^@]+$/;

/**
 * A model's entry in `table`: its own, else (a Bedrock inference profile) its model id's, else (a versioned
 * Vertex id) its name's without the version.
 */
function priceOf(model: string, table: Readonly<PriceTable>): ModelPrice | undefined {
  const own = (name: string) => (Object.hasOwn(table, name) ? table[name] : undefined);
  return (
    own(model) ??
    own(model.replace(INFERENCE_PROFILE_PREFIX, "")) ??
    own(model.replace(VERTEX_VERSION_SUFFIX, ""))
  );
}

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
  const entry = usage.model === undefined ? undefined : priceOf(usage.model, table);
  if (entry === undefined) return null;
  return (
    (usage.input_tokens * entry.input_per_million + usage.output_tokens * entry.output_per_million) / 1e6
  );
}
