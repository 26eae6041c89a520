import type { SearchTool } from "../config/index.js";

/** A search function: a query (or a batch of queries) in, a result (or one result per query) out. */
export type SearchFunction = Exclude<SearchTool, string>;

/** The search a run can do for deep-judgment excerpts, or why it cannot. */
export type ExcerptSearch =
  | { available: true; search: SearchFunction }
  | { available: false; reason: string };

/**
 * The search tool for rubric deep judgment: the config's `deep_judgment_rubric_search_tool` when it is a
 * function, else `deep_judgment_search_tool` when that is one (the original reads the template-level tool,
 * spec 03 §10.1). A named tool (`"tavily"`) is not available in this port: it would need the Tavily client
 * and `TAVILY_API_KEY`; search is then skipped.
 */
export function excerptSearch(rubricTool: SearchTool, templateTool: SearchTool): ExcerptSearch {
  if (typeof rubricTool === "function") return { available: true, search: rubricTool };
  if (typeof templateTool === "function") return { available: true, search: templateTool };
  return {
    available: false,
    reason: `the search tool "${rubricTool}" is not available here; give a function as deep_judgment_rubric_search_tool`,
  };
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
