import { describeException } from "../classify-error.js";
import type { Env, SearchTool } from "../config/index.js";
import { TAVILY_API_URL, tavilySearch } from "./tavily-search.js";

/** A search function: a query (or a batch of queries) in, a result (or one result per query) out. */
export type SearchFunction = Exclude<SearchTool, string>;

/** The search a run can do for deep-judgment excerpts, or why it cannot. */
export type ExcerptSearch =
  | { available: true; search: SearchFunction }
  | { available: false; reason: string };

/** The environment variable holding another base URL for Tavily's API (a proxy, or a local stand-in). */
export const TAVILY_BASE_URL_VARIABLE = "KARENINA_TAVILY_BASE_URL";

/**
 * The search behind a configured search tool: a function is used as it is; `"tavily"` (any case) is Tavily's
 * HTTP API with `TAVILY_API_KEY` from `env` (and the base URL from `KARENINA_TAVILY_BASE_URL` when set). Any
 * other name, or `"tavily"` without a key, is unavailable, with the reason.
 * @example
 * resolveSearchTool("tavily", {}); // { available: false, reason: 'the "tavily" search tool needs TAVILY_API_KEY, which is not set' }
 */
export function resolveSearchTool(
  tool: SearchTool,
  env: Env,
  onError?: (query: string, error: unknown) => void,
): ExcerptSearch {
  if (typeof tool === "function") return { available: true, search: tool };
  if (tool.toLowerCase() !== "tavily") {
    return { available: false, reason: `the search tool "${tool}" is unknown; use "tavily" or a function` };
  }
  const apiKey = env.TAVILY_API_KEY ?? "";
  if (apiKey === "") {
    return { available: false, reason: `the "${tool}" search tool needs TAVILY_API_KEY, which is not set` };
  }
  const baseUrl = env[TAVILY_BASE_URL_VARIABLE] ?? "";
  if (baseUrl !== "" && !/^https?:\/\//i.test(baseUrl)) {
    return {
      available: false,
      reason: `${TAVILY_BASE_URL_VARIABLE} must be an http(s) URL (default ${TAVILY_API_URL}), found ${JSON.stringify(baseUrl)}`,
    };
  }
  return {
    available: true,
    search: tavilySearch({
      apiKey,
      ...(baseUrl === "" ? {} : { baseUrl }),
      ...(onError === undefined ? {} : { onError }),
    }),
  };
}

/** The warning for a query whose search failed (it then has no results). */
export function searchFailureWarning(query: string, error: unknown): string {
  return `Deep judgment search found nothing for "${query.slice(0, 50)}": ${describeException(error)}`;
}
