/**
 * The built-in "tavily" search against a local stand-in for Tavily's HTTP API on 127.0.0.1 (hand-written
 * replies, see test-support/tavily-server.ts).
 */
import { describe, expect, test } from "vitest";
import { serverPerTest } from "../../test-support/server-per-test.js";
import { handWrittenHit, startTavilyServer } from "../../test-support/tavily-server.js";
import { resolveSearchTool, TAVILY_BASE_URL_VARIABLE } from "./search-tool.js";
import { tavilySearch } from "./tavily-search.js";

const tavily = serverPerTest(startTavilyServer);

const venetoclax = handWrittenHit("venetoclax", "Venetoclax is a BCL-2 inhibitor approved for CLL.");
const navitoclax = handWrittenHit("navitoclax", "Navitoclax is an investigational BCL-2 family inhibitor.");

describe("tavilySearch", () => {
  test("asks for 3 results at basic depth with the key as a bearer token, and returns title, content, url", async () => {
    tavily.script({
      match: { queryIncludes: "venetoclax" },
      reply: { results: [{ ...venetoclax, score: 0.9, raw_content: null } as never] },
    });
    const search = tavilySearch({ apiKey: "tvly-test-key", baseUrl: tavily.url });
    expect(await search("venetoclax approval")).toEqual([venetoclax]);
    const [request] = tavily.requests;
    expect(request?.body).toEqual({ query: "venetoclax approval", max_results: 3, search_depth: "basic" });
    expect(request?.headers.authorization).toBe("Bearer tvly-test-key");
  });

  test("a batch is searched query by query, one list of hits per query", async () => {
    tavily.script(
      { match: { queryIncludes: "venetoclax" }, reply: { results: [venetoclax] } },
      { match: { queryIncludes: "navitoclax" }, reply: { results: [navitoclax] } },
    );
    const search = tavilySearch({ apiKey: "k", baseUrl: tavily.url });
    expect(await search(["navitoclax is approved", "venetoclax is approved"])).toEqual([
      [navitoclax],
      [venetoclax],
    ]);
  });

  test("a failed query gets empty results and is reported, the others keep theirs", async () => {
    tavily.script(
      { match: { queryIncludes: "venetoclax" }, reply: { results: [venetoclax] } },
      { match: { queryIncludes: "navitoclax" }, reply: { status: 432 } },
    );
    const failures: string[] = [];
    const search = tavilySearch({
      apiKey: "tvly-secret",
      baseUrl: tavily.url,
      onError: (query, error) => failures.push(`${query}: ${String(error)}`),
    });
    expect(await search(["navitoclax", "venetoclax"])).toEqual([[], [venetoclax]]);
    expect(failures).toEqual(["navitoclax: Error: Tavily answered HTTP 432"]);
  });

  test("an unreachable service and a reply without results give empty results", async () => {
    tavily.script({ reply: { results: "none" as never } });
    const errors: unknown[] = [];
    const onError = (_query: string, error: unknown) => errors.push(error);
    expect(await tavilySearch({ apiKey: "k", baseUrl: tavily.url, onError })("q")).toEqual([]);
    expect(await tavilySearch({ apiKey: "k", baseUrl: "http://127.0.0.1:9", onError })("q")).toEqual([]);
    expect(errors).toHaveLength(2);
  });
});

describe("resolveSearchTool", () => {
  test('"tavily" needs TAVILY_API_KEY', () => {
    expect(resolveSearchTool("tavily", {})).toEqual({
      available: false,
      reason: 'the "tavily" search tool needs TAVILY_API_KEY, which is not set',
    });
  });

  test("with a key, Tavily is reached at KARENINA_TAVILY_BASE_URL when it is set", async () => {
    tavily.script({ reply: { results: [venetoclax] } });
    const search = resolveSearchTool("Tavily", {
      TAVILY_API_KEY: "k",
      [TAVILY_BASE_URL_VARIABLE]: tavily.url,
    });
    if (!search.available) throw new Error(search.reason);
    expect(await search.search("venetoclax")).toEqual([venetoclax]);
    expect(tavily.requests).toHaveLength(1);
  });

  test("a base URL that is not http(s), or an unknown tool name, is unavailable with the reason", () => {
    expect(
      resolveSearchTool("tavily", { TAVILY_API_KEY: "k", [TAVILY_BASE_URL_VARIABLE]: "file:///etc" }),
    ).toMatchObject({ available: false, reason: expect.stringContaining("must be an http(s) URL") });
    expect(resolveSearchTool("bing", { TAVILY_API_KEY: "k" })).toMatchObject({ available: false });
  });

  test("a function is used as it is", () => {
    const own = async () => "hand-written result";
    expect(resolveSearchTool(own, {})).toEqual({ available: true, search: own });
  });
});
