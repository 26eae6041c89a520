export {
  type ExcerptSearch,
  resolveSearchTool,
  type SearchFunction,
  searchFailureWarning,
  TAVILY_BASE_URL_VARIABLE,
} from "./search-tool.js";
export { TAVILY_API_URL, type TavilySearchOptions, tavilySearch } from "./tavily-search.js";
