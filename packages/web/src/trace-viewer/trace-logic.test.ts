import { describe, expect, test } from "vitest";
import {
  DEFAULT_TRACE_HIGHLIGHTING,
  loadTraceHighlighting,
  parseTraceHighlighting,
  saveTraceHighlighting,
  serializeTraceHighlighting,
  TRACE_HIGHLIGHTING_KEY,
  type TracePattern,
} from "./highlight-patterns.js";
import { MAX_HEADER_LINE, MAX_PATTERN_LENGTH, MAX_SEARCHED_CHARS } from "./safe-regex.js";
import { searchTrace } from "./search-trace.js";
import { blocksFromMessages, splitTrace } from "./split-trace.js";

const defaults = DEFAULT_TRACE_HIGHLIGHTING.patterns;
const TRACE =
  "preamble\n--- AI Message ---\nLet me look.\n--- Tool Message (call_id: c1) ---\nfound\n--- AI Message ---\nBCL2";

describe("splitTrace", () => {
  test("splits at the default AI and Tool headers, coloured green and yellow, text before them first", () => {
    const { blocks, problems } = splitTrace(TRACE, defaults);
    expect(problems).toEqual([]);
    expect(blocks).toEqual([
      { title: "Start", colour: null, body: "preamble" },
      { title: "--- AI Message ---", colour: "green", body: "Let me look." },
      { title: "--- Tool Message (call_id: c1) ---", colour: "yellow", body: "found" },
      { title: "--- AI Message ---", colour: "green", body: "BCL2" },
    ]);
  });

  test("a disabled pattern does not split", () => {
    const patterns = defaults.map(
      (p): TracePattern => (p.colour === "yellow" ? { ...p, enabled: false } : p),
    );
    expect(splitTrace(TRACE, patterns).blocks.map((b) => b.title)).toEqual([
      "Start",
      "--- AI Message ---",
      "--- AI Message ---",
    ]);
  });

  test("an invalid pattern is reported and skipped, never thrown", () => {
    const bad: TracePattern = { id: "bad", name: "Broken", regex: "(unclosed", colour: "red", enabled: true };
    const { blocks, problems } = splitTrace(TRACE, [bad, ...defaults]);
    expect(problems.map((p) => p.pattern.name)).toEqual(["Broken"]);
    expect(problems[0]?.error).toMatch(/Invalid regular expression/);
    expect(blocks).toHaveLength(4);
  });

  test("lines longer than the header limit are never headers (bounds a slow user regex)", () => {
    const long = `--- AI Message ---${"x".repeat(MAX_HEADER_LINE)}`;
    expect(splitTrace(`a\n${long}\nb`, defaults).blocks).toEqual([
      { title: "Start", colour: null, body: `a\n${long}\nb` },
    ]);
  });

  test("a pattern longer than the limit is refused", () => {
    const huge: TracePattern = {
      id: "h",
      name: "Huge",
      regex: "a".repeat(MAX_PATTERN_LENGTH + 1),
      colour: "red",
      enabled: true,
    };
    expect(splitTrace("a", [huge]).problems[0]?.error).toMatch(/longer than/);
  });
});

describe("blocksFromMessages", () => {
  test("one block per stored message, titled by role, tool calls listed, call id on tool messages", () => {
    const blocks = blocksFromMessages([
      {
        role: "assistant",
        content: "Let me look.",
        block_index: 0,
        tool_calls: [{ id: "c1", name: "search", input: { q: "BCL2" } }],
      },
      { role: "tool", content: "found", block_index: 1, tool_result: { tool_use_id: "c1", is_error: false } },
      { role: "assistant", content: "BCL2", block_index: 2 },
    ]);
    expect(blocks).toEqual([
      { title: "AI Message", colour: "green", body: 'Let me look.\n→ search({"q":"BCL2"})' },
      { title: "Tool Message (call_id: c1)", colour: "yellow", body: "found" },
      { title: "AI Message", colour: "green", body: "BCL2" },
    ]);
  });
});

describe("searchTrace", () => {
  const bodies = ["Hello hello HELLO", "say hello.", "h.llo"];
  test("plain text, case-insensitive by default, across blocks", () => {
    const { matches } = searchTrace(bodies, "hello", { caseSensitive: false, regex: false });
    expect(matches.map((m) => [m.block, m.start])).toEqual([
      [0, 0],
      [0, 6],
      [0, 12],
      [1, 4],
    ]);
  });
  test("case-sensitive", () => {
    expect(searchTrace(bodies, "hello", { caseSensitive: true, regex: false }).matches).toHaveLength(2);
  });
  test("plain text treats regex characters literally", () => {
    expect(searchTrace(bodies, "h.llo", { caseSensitive: true, regex: false }).matches).toEqual([
      { block: 2, start: 0, end: 5 },
    ]);
  });
  test("regex mode", () => {
    // "hello" twice (the capitalised ones differ in case) and "h.llo" itself.
    expect(searchTrace(bodies, "h.llo", { caseSensitive: true, regex: true }).matches).toHaveLength(3);
  });
  test("a bad regex gives an error and no matches, never a throw", () => {
    const result = searchTrace(bodies, "([", { caseSensitive: false, regex: true });
    expect(result.matches).toEqual([]);
    expect(result.error).toMatch(/Invalid regular expression/);
  });
  test("empty matches are skipped instead of looping", () => {
    expect(searchTrace(["abc"], "x*", { caseSensitive: false, regex: true }).matches).toEqual([]);
  });
  test("the search stops at the scanned-text limit and says so", () => {
    const big = `${"a".repeat(MAX_SEARCHED_CHARS)}needle`;
    const result = searchTrace([big], "needle", { caseSensitive: false, regex: false });
    expect(result.matches).toEqual([]);
    expect(result.truncated).toBe(true);
  });
});

describe("pattern storage", () => {
  test("nothing stored, junk, or another version gives the defaults", () => {
    expect(parseTraceHighlighting(null)).toBe(DEFAULT_TRACE_HIGHLIGHTING);
    expect(parseTraceHighlighting("{not json")).toBe(DEFAULT_TRACE_HIGHLIGHTING);
    expect(parseTraceHighlighting(JSON.stringify({ version: 99, enabled: false, patterns: [] }))).toBe(
      DEFAULT_TRACE_HIGHLIGHTING,
    );
  });
  test("a saved value round-trips under karenina-trace-highlighting; bad rows are dropped", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const settings = { enabled: false, patterns: [{ ...defaults[0], colour: "purple" } as TracePattern] };
    saveTraceHighlighting(storage, settings);
    expect([...store.keys()]).toEqual([TRACE_HIGHLIGHTING_KEY]);
    expect(loadTraceHighlighting(storage)).toEqual(settings);
    const withJunk = JSON.parse(serializeTraceHighlighting(settings));
    withJunk.patterns.push({ id: "x", name: "x", regex: "x", colour: "magenta", enabled: true });
    expect(parseTraceHighlighting(JSON.stringify(withJunk))).toEqual(settings);
  });
  test("a storage that throws gives the defaults and loses only the memory", () => {
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    expect(loadTraceHighlighting(refusing)).toBe(DEFAULT_TRACE_HIGHLIGHTING);
    expect(() => saveTraceHighlighting(refusing, DEFAULT_TRACE_HIGHLIGHTING)).not.toThrow();
  });
});
