import { afterEach, describe, expect, test } from "vitest";
import { thrown } from "../test-support/thrown.js";
import {
  compilePythonRegex,
  DEFAULT_REGEX_TIMEOUT_MS,
  InvalidRegexTimeoutError,
  pythonCountMatches,
  pythonFindall,
  pythonSearch,
  RegexEngineError,
  RegexTimeoutError,
  runRegex,
  setDefaultRegexTimeout,
  translatePythonRegex,
} from "./index.js";

// Crafted responses for the two classic catastrophic patterns: a run of word characters that cannot end
// the way the pattern demands, so V8 tries every way of splitting the run (2^40 for 40 characters).
const NESTED = "(a+)+$";
const NESTED_TEXT = `${"a".repeat(40)}!`;
const WORDS = String.raw`^(\w+\s?)+$`;
const WORDS_TEXT = `${"a".repeat(40)}!`;

afterEach(() => setDefaultRegexTimeout(DEFAULT_REGEX_TIMEOUT_MS));

/** Runs `run`, and returns what it threw with how long it took. */
function timed<E extends Error>(errorClass: abstract new (...args: never[]) => E, run: () => unknown) {
  const start = performance.now();
  const error = thrown(errorClass, run);
  return { error, elapsedMs: performance.now() - start };
}

describe("a pattern that backtracks catastrophically is stopped at its deadline", () => {
  test("(a+)+$ on 40 a's and a '!' ends with a RegexTimeoutError naming the pattern, deadline and text", () => {
    const { error, elapsedMs } = timed(RegexTimeoutError, () =>
      pythonSearch(NESTED, NESTED_TEXT, { timeoutMs: 300 }),
    );
    expect(elapsedMs).toBeLessThan(5000);
    expect(error.timeoutMs).toBe(300);
    expect(error.textLength).toBe(41);
    expect(error.message).toBe(
      'Python regex "(a+)+$" timed out after 300 ms on a 41-character text and was stopped; the pattern ' +
        "backtracks catastrophically (nested quantifiers such as (a+)+?): rewrite it so that each part of the " +
        "text can be matched in only one way",
    );
  });

  test("^(\\w+\\s?)+$ is stopped too, for findall and counting as for search", () => {
    for (const run of [pythonSearch, pythonFindall, pythonCountMatches]) {
      const { elapsedMs } = timed(RegexTimeoutError, () => run(WORDS, WORDS_TEXT, { timeoutMs: 300 }));
      expect(elapsedMs).toBeLessThan(5000);
    }
  });

  test("the evaluation after a timeout runs normally, on a fresh worker", () => {
    thrown(RegexTimeoutError, () => pythonSearch(NESTED, NESTED_TEXT, { timeoutMs: 200 }));
    expect(pythonSearch(NESTED, "aaaa")).toBe(true);
    expect(pythonFindall(String.raw`\[(\d+)\]`, "see [1] and [23]")).toEqual(["1", "23"]);
    thrown(RegexTimeoutError, () => pythonSearch(WORDS, WORDS_TEXT, { timeoutMs: 200 }));
    expect(pythonSearch(WORDS, "two words")).toBe(true);
  });

  test("the process-wide default deadline applies when a call sets none", () => {
    setDefaultRegexTimeout(250);
    expect(thrown(RegexTimeoutError, () => pythonSearch(NESTED, NESTED_TEXT)).timeoutMs).toBe(250);
  });

  test("a deadline that is not a positive number of milliseconds is refused", () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      thrown(InvalidRegexTimeoutError, () => setDefaultRegexTimeout(bad));
      thrown(InvalidRegexTimeoutError, () => pythonSearch("a", "a", { timeoutMs: bad }));
    }
  });
});

describe("an error of the regex engine is a typed error, not a crash of the host", () => {
  test("a backtracking stack overflow on a 6M-character text is a RegexEngineError; the next call works", () => {
    const error = thrown(RegexEngineError, () => pythonSearch("^(?:(a)|b)*c", "ab".repeat(3e6)));
    expect(error.message).toMatch(/^Python regex "\^\(\?:\(a\)\|b\)\*c" could not run: RangeError: /);
    expect(pythonSearch("^(?:(a)|b)*c", "abc")).toBe(true);
  });
});

describe("results equal those of the translated regex run in the host's thread", () => {
  // Each pattern is run both ways on each text; the texts exercise groups that do not take part, case
  // folding, Python's $ before a final newline, Unicode digits and astral characters.
  const PATTERNS = [
    String.raw`\[(\d+)\]`,
    String.raw`(\w)=(\d)?`,
    "(?i)bcl-?2",
    "done$",
    String.raw`^\d+$`,
    "(?P<x>[ab])(?P=x)",
    "",
    "x*",
    ".",
    String.raw`(?<=\[)\d+`,
  ];
  const TEXTS = ["see [1] and [23]", "a=1 b= c=3", "BCL2, bcl-2", "done\n", "٣", "xbb", "", "😀x😀", "\n"];

  function inThread(pattern: string, text: string) {
    const regex = compilePythonRegex(pattern);
    const global = new RegExp(regex.source, `${regex.flags}g`);
    const groups = new RegExp(`${regex.source}|`, regex.flags).exec("")?.length ?? 1;
    const findall = [...text.matchAll(global)].map((match) =>
      groups === 1 ? match[0] : groups === 2 ? (match[1] ?? "") : match.slice(1).map((group) => group ?? ""),
    );
    const exec = regex.exec(text);
    return { test: regex.test(text), exec: exec && [...exec], count: findall.length, findall };
  }

  test("test, exec, count and findall agree on every pattern and text", () => {
    for (const pattern of PATTERNS) {
      const translated = translatePythonRegex(pattern);
      for (const text of TEXTS) {
        const inWorker = {
          test: runRegex("test", translated, text),
          exec: runRegex("exec", translated, text),
          count: runRegex("count", translated, text),
          findall: runRegex("findall", translated, text),
        };
        expect(inWorker, `${pattern} on ${JSON.stringify(text)}`).toEqual(inThread(pattern, text));
      }
    }
  });

  test("case-insensitive compilation is passed through", () => {
    expect(pythonSearch("bcl2", "BCL2")).toBe(false);
    expect(pythonSearch("bcl2", "BCL2", { ignoreCase: true })).toBe(true);
  });
});
