/**
 * The built-in `"tavily"` search of deep judgment (spec 04 §9.1 step 2): Tavily's HTTP search API, 3 results
 * per query at basic depth, empty results for a query whose search fails.
 */
import type { SearchResult, SearchResultItem } from "../config/index.js";

/** Tavily's public API. */
export const TAVILY_API_URL = "https://api.tavily.com";

/** How {@link tavilySearch} reaches Tavily. */
export interface TavilySearchOptions {
  apiKey: string;
  /** Another base URL than {@link TAVILY_API_URL} (a proxy, or a local stand-in in tests). */
  baseUrl?: string;
  /** Results asked for per query (default 3, as in the original). */
  maxResults?: number;
  /** Time allowed for one query, in milliseconds (default 60 000, the original's search timeout). */
  timeoutMs?: number;
  /** Told of each query whose search failed (its results are then empty). */
  onError?: (query: string, error: unknown) => void;
}

function hitsOf(body: unknown): SearchResultItem[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new TypeError("the reply has no results list");
  return results.map((hit) => {
    const { title, content, url } = (hit ?? {}) as Record<string, unknown>;
    return {
      title: typeof title === "string" ? title : "",
      content: typeof content === "string" ? content : "",
      url: typeof url === "string" ? url : "",
    };
  });
}

async function searchOne(query: string, options: TavilySearchOptions): Promise<SearchResultItem[]> {
  const base = (options.baseUrl ?? TAVILY_API_URL).replace(/\/+$/, "");
  try {
    const response = await fetch(`${base}/search`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
      body: JSON.stringify({ query, max_results: options.maxResults ?? 3, search_depth: "basic" }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
    if (!response.ok) throw new Error(`Tavily answered HTTP ${response.status}`);
    return hitsOf(await response.json());
  } catch (error) {
    options.onError?.(query, error);
    return [];
  }
}

/**
 * A search function over Tavily's `/search` endpoint: one request per query (a batch is searched query by
 * query, in parallel), each answered by up to 3 `{title, content, url}` hits. A query whose request fails, or
 * whose reply is not a results list, gets no hits (and `onError` is told); the key is sent as a bearer token
 * and never appears in what `onError` receives from this module.
 * @example
 * const search = tavilySearch({ apiKey: process.env.TAVILY_API_KEY ?? "" });
 * typeof search; // "function"
 */
export function tavilySearch(
  options: TavilySearchOptions,
): (query: string | string[]) => Promise<SearchResult | SearchResult[]> {
  return async (query) =>
    Array.isArray(query)
      ? Promise.all(query.map((one) => searchOne(one, options)))
      : searchOne(query, options);
}
