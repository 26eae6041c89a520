/** Token usage of one or more LLM calls (spec 05 §2). Keys are snake_case: usage is stored in results. */
export interface UsageMetadata {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd?: number;
  cache_read_tokens?: number;
  cache_creation_tokens?: number;
  model?: string;
}

/** Usage of no call at all. */
export function emptyUsage(): UsageMetadata {
  return { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
}

function sumOptional(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

/** The usage of two calls together; `model` is the first one's. */
export function addUsage(a: UsageMetadata, b: UsageMetadata): UsageMetadata {
  const sum: UsageMetadata = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
  const optional = {
    cost_usd: sumOptional(a.cost_usd, b.cost_usd),
    cache_read_tokens: sumOptional(a.cache_read_tokens, b.cache_read_tokens),
    cache_creation_tokens: sumOptional(a.cache_creation_tokens, b.cache_creation_tokens),
    model: a.model ?? b.model,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(sum, { [key]: value });
  }
  return sum;
}

/** True when a usage reports no tokens at all (the pipeline's `usage_unavailable`). */
export function isUsageEmpty(usage: UsageMetadata): boolean {
  return usage.input_tokens === 0 && usage.output_tokens === 0 && usage.total_tokens === 0;
}
