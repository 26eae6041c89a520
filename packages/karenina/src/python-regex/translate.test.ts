import { afterEach, describe, expect, test } from "vitest";
import {
  compilePythonRegex,
  DEFAULT_REGEX_TIMEOUT_MS,
  PythonRegexError,
  setDefaultRegexTimeout,
  translatePythonRegex,
} from "./index.js";

/** `re.search(pattern, text, flags) is not None`, through the translation. */
const search = (pattern: string, text: string, ignoreCase = false) =>
  compilePythonRegex(pattern, { ignoreCase }).test(text);

const refusal = (pattern: string): PythonRegexError => {
  try {
    translatePythonRegex(pattern);
  } catch (error) {
    if (error instanceof PythonRegexError) return error;
    throw error;
  }
  throw new Error(`expected ${pattern} to be refused`);
};

describe("syntax translation", () => {
  test("named groups and named back-references use the JavaScript spelling", () => {
    expect(translatePythonRegex("(?P<x>[ab])(?P=x)").source).toBe(String.raw`(?<x>[ab])(?:\k<x>)`);
    expect(search("(?P<x>[ab])(?P=x)", "xbb")).toBe(true);
    expect(search("(?P<x>[ab])(?P=x)", "ab")).toBe(false);
  });

  test("leading global flags become JavaScript flags, alone or combined", () => {
    expect(translatePythonRegex("(?i)abc").flags).toBe("iu");
    expect(translatePythonRegex("(?is)a.c")).toEqual({ source: String.raw`a[\s\S]c`, flags: "iu" });
    expect(translatePythonRegex("(?i)(?m)^a").flags).toBe("iu");
    expect(translatePythonRegex("abc", { ignoreCase: true }).flags).toBe("iu");
    expect(translatePythonRegex("abc").flags).toBe("u");
  });

  test("the seed's case-insensitive trait matches as in Python", () => {
    const pattern = String.raw`(?i)bcl[-\s]?2\s+family`;
    expect(search(pattern, "members of the BCL-2 family")).toBe(true);
    expect(search(pattern, "bcl2  Family")).toBe(true);
    expect(search(pattern, "bcl-x family")).toBe(false);
  });

  test("\\A and \\Z anchor at the very start and end of the text", () => {
    expect(translatePythonRegex(String.raw`\Aabc\Z`).source).toBe(String.raw`^abc(?![\s\S])`);
    expect(search(String.raw`\Aabc\Z`, "abc")).toBe(true);
    expect(search(String.raw`\Aabc\Z`, "abc\n")).toBe(false);
    expect(search(String.raw`(?m)\Ab`, "a\nb")).toBe(false);
  });

  test("Python escapes that JavaScript's u flag rejects keep their Python meaning", () => {
    expect(search(String.raw`\.\-\_\ \'`, ".-_ '")).toBe(true);
    expect(search("x{1,2", "x{1,2")).toBe(true);
    expect(search("a]b}", "a]b}")).toBe(true);
    expect(search("[a-c-e]+", "-e")).toBe(true);
    expect(search(String.raw`\x41\u00e9\U0001F600`, "Aé😀")).toBe(true);
  });

  test("three octal digits are an octal escape, fewer are a group reference", () => {
    expect(search(String.raw`\123`, "S")).toBe(true);
    expect(search(String.raw`(a)\1`, "aa")).toBe(true);
    expect(search(String.raw`\0`, "\0")).toBe(true);
  });

  test("a back-reference followed by a digit keeps its group number", () => {
    expect(search(String.raw`(a)\1[0]`, "aa0")).toBe(true);
    expect(search(String.raw`(a)\1\x30`, "aa0")).toBe(true);
  });

  test("{,n} is Python's {0,n} and {,} is *", () => {
    expect(translatePythonRegex("x{,2}y").source).toBe("x{0,2}y");
    expect(search("a{,}b", "b")).toBe(true);
  });

  test("a quantified lookahead, allowed in Python, is wrapped for JavaScript", () => {
    expect(translatePythonRegex("(?=a)*b").source).toBe("(?:(?=a))*b");
    expect(search("(?=a)*b", "b")).toBe(true);
  });

  test("look-behinds must have a fixed width, groups and empty repeats included", () => {
    expect(search("(?<=(?:ab|cd))x", "cdx")).toBe(true);
    expect(search("(?<=(?:)*a)b", "ab")).toBe(true);
    expect(search(String.raw`(a)(?<=\1)b`, "ab")).toBe(true);
    expect(refusal("(?<=(?:a+))b").reason).toBe("look-behind requires fixed-width pattern");
    expect(refusal("(?<=a{1,2})b").reason).toBe("look-behind requires fixed-width pattern");
    expect(refusal(String.raw`(?<=(a)\1)b`).reason).toBe(
      "cannot refer to group defined in the same lookbehind subpattern",
    );
  });

  test("the documented example holds", () => {
    const { source, flags } = translatePythonRegex("(?i)(?P<gene>bcl-?2)$");
    expect([source, flags]).toEqual([String.raw`(?<gene>bcl-?2)(?=\n?(?![\s\S]))`, "iu"]);
    expect(new RegExp(source, flags).test("mentions BCL2\n")).toBe(true);
  });

  test("comments are dropped", () => {
    expect(translatePythonRegex("a(?#note)b").source).toBe("ab");
    expect(search("(?#lead)(?i)AB", "ab")).toBe(true);
  });
});

describe("Python semantics that differ from native JavaScript", () => {
  test("$ also matches before a final newline", () => {
    expect(search("abc$", "abc\n")).toBe(true);
    expect(search("abc$", "abc\n\n")).toBe(false);
  });

  test("only \\n breaks lines for ., ^ and $ (not \\r)", () => {
    expect(search("a.c", "a\rc")).toBe(true);
    expect(search("a.c", "a\nc")).toBe(false);
    expect(search("(?m)^b$", "a\r\nb\r\nc")).toBe(false);
    expect(search("(?m)^b$", "a\nb\nc")).toBe(true);
  });

  test("\\d, \\w and \\b are Unicode-aware", () => {
    expect(search(String.raw`^\d+$`, "٣٤٥")).toBe(true);
    expect(search(String.raw`^\w+$`, "naïve")).toBe(true);
    expect(search(String.raw`ve\b`, "naïve")).toBe(true);
    expect(search(String.raw`\bna`, "naïve")).toBe(true);
    expect(search(String.raw`^[^\W\d]+$`, "naïve")).toBe(true);
    expect(search(String.raw`^[^\W\d]+$`, "n4ive")).toBe(false);
    expect(search(String.raw`^[\W_]+$`, "_-")).toBe(true);
  });

  test("(?a) restricts the classes to ASCII", () => {
    expect(search(String.raw`(?a)^\w+$`, "naïve")).toBe(false);
    expect(search(String.raw`(?a)^\w+$`, "naive")).toBe(true);
  });

  test("\\s is Python's whitespace set, not JavaScript's", () => {
    expect(search(String.raw`\s`, "\x1c")).toBe(true);
    expect(search(String.raw`\s`, "\x85")).toBe(true);
    expect(search(String.raw`\s`, "\ufeff")).toBe(false);
    expect(search(String.raw`[\S]`, "\ufeff")).toBe(true);
  });

  test(". matches one code point, also outside the BMP", () => {
    expect(search("^.$", "😀")).toBe(true);
  });

  test("case-insensitive matching folds non-ASCII letters", () => {
    expect(search("É", "é", true)).toBe(true);
    expect(search("(?i)[^a]", "A")).toBe(false);
  });

  test("\\B does not match inside an empty string (Python before 3.14)", () => {
    expect(search(String.raw`\B`, "")).toBe(false);
    expect(search(String.raw`a\Bb`, "ab")).toBe(true);
  });
});

describe("refusals", () => {
  test.each([
    ["(?x) a b", "verbose"],
    ["(?i:abc)", "scoped inline flags"],
    ["(?-i:abc)", "scoped inline flags"],
    ["(?(1)a|b)", "conditional"],
    ["(?>abc)", "atomic"],
    ["a*+", "possessive"],
    ["a{1,2}+", "possessive"],
    [String.raw`\N{EM DASH}`, "\\N{"],
    ["(?ai)abc", "ASCII-only case-insensitive"],
  ])("%s cannot be translated faithfully: the error says why", (pattern, reason) => {
    const error = refusal(pattern);
    expect(error.kind).toBe("unsupported");
    expect(error.message).toContain(reason);
    expect(error.message).toContain(JSON.stringify(pattern));
  });

  test.each([
    ["[abc", "unterminated character set"],
    ["(abc", "missing ), unterminated subpattern"],
    ["abc)", "unbalanced parenthesis"],
    ["*a", "nothing to repeat"],
    ["^*", "nothing to repeat"],
    ["a**", "multiple repeat"],
    ["a{3,2}", "min repeat greater than max repeat"],
    [String.raw`(a)\2`, "invalid group reference 2"],
    [String.raw`(a\1)`, "cannot refer to an open group"],
    ["(?P=missing)", "unknown group name 'missing'"],
    ["(?P<a>x)(?P<a>y)", "redefinition of group name 'a'"],
    ["(?<n>a)", "unknown extension ?<n"],
    ["(?<=a+)b", "look-behind requires fixed-width pattern"],
    ["a(?i)b", "global flags not at the start of the expression"],
    ["(?i-s)a", "missing :"],
    ["(?L)a", "cannot use 'L' flag with a str pattern"],
    [String.raw`\q`, "bad escape \\q"],
    [String.raw`\z`, "bad escape \\z"],
    [String.raw`[\A]`, "bad escape \\A"],
    [String.raw`\x4`, "incomplete escape \\x4"],
    ["[z-a]", "bad character range"],
    [String.raw`[\d-z]`, "bad character range"],
    ["abc\\", "bad escape (end of pattern)"],
  ])("%s is invalid Python: %s", (pattern, reason) => {
    const error = refusal(pattern);
    expect(error.kind).toBe("invalid");
    expect(error.message).toContain(reason);
  });

  test("errors are typed and report the position in code points", () => {
    const error = refusal("😀[abc");
    expect(error).toBeInstanceOf(PythonRegexError);
    expect(error.position).toBe(1);
    expect(error.pattern).toBe("😀[abc");
  });
});

describe("hostile pattern sizes are refused or translated in bounded time, never a bare RangeError", () => {
  afterEach(() => setDefaultRegexTimeout(DEFAULT_REGEX_TIMEOUT_MS));

  test("groups nested thousands deep are a typed refusal (Python raises RecursionError on them)", () => {
    for (const pattern of [
      `${"(".repeat(5000)}a${")".repeat(5000)}`,
      `${"(?:".repeat(20000)}a${")".repeat(20000)}`,
    ]) {
      const error = refusal(pattern);
      expect(error.kind).toBe("unsupported");
      expect(error.message).toContain("nests groups too deeply");
    }
  });

  test("200,000 alternatives translate, as Python compiles them", () => {
    setDefaultRegexTimeout(20_000); // V8 takes about a second to compile them, in the worker
    const pattern = `${"a|".repeat(200_000)}b`;
    expect(translatePythonRegex(pattern).source).toBe(pattern);
  });

  test("200,000 quantified atoms translate in linear time (they took minutes when each re-sliced the source)", () => {
    const start = performance.now();
    expect(translatePythonRegex("a*".repeat(200_000)).source).toHaveLength(400_000);
    expect(performance.now() - start).toBeLessThan(5000);
  });

  test("a pattern V8 would take ~20 s to compile is refused at the deadline, off the host's thread", () => {
    setDefaultRegexTimeout(300);
    const start = performance.now();
    const error = refusal(String.raw`\w`.repeat(100_000));
    expect(performance.now() - start).toBeLessThan(5000);
    expect(error.message).toContain("the translated pattern did not compile within 300 ms (it is too large)");
  });

  test("error messages show the first 200 characters of a long pattern, and its length", () => {
    const error = refusal(`${"a".repeat(1_000_000)}(`);
    expect(error.message).toBe(
      `missing ), unterminated subpattern at position 1000000 of Python regex "${"a".repeat(200)}"… (1000001 characters)`,
    );
  });
});
