import type { Env, SearchTool } from "../config/index.js";
import { type ExcerptSearch, resolveSearchTool, type SearchFunction } from "../web-search/index.js";

export type { ExcerptSearch, SearchFunction };

/**
 * The search tool for rubric deep judgment: the config's `deep_judgment_rubric_search_tool` when it is a
 * function, else `deep_judgment_search_tool` (the original reads the template-level tool, spec 03 §10.1):
 * a function, or `"tavily"` — Tavily's HTTP API with `TAVILY_API_KEY` from `env`; without a key, search is
 * unavailable (and skipped, with the reason).
 */
export function excerptSearch(
  rubricTool: SearchTool,
  templateTool: SearchTool,
  env: Env,
  onError?: (query: string, error: unknown) => void,
): ExcerptSearch {
  if (typeof rubricTool === "function") return { available: true, search: rubricTool };
  return resolveSearchTool(templateTool, env, onError);
}

/**
 * Searches every excerpt text in one batched call and returns one result per text: a list answer is matched
 * by position (missing entries are null), a single answer goes to every text.
 * @throws whatever the search function throws.
 */
export async function searchTexts(search: SearchFunction, texts: readonly string[]): Promise<unknown[]> {
  if (texts.length === 0) return [];
  const answer = await search([...texts]);
  if (Array.isArray(answer)) return texts.map((_, i) => answer[i] ?? null);
  return texts.map(() => answer);
}
