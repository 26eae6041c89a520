import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DEFAULT_REGEX_TIMEOUT_MS, setDefaultRegexTimeout } from "../../python-regex/index.js";
import { loadDeclarativeTemplate } from "./load-declarative-template.js";
import type { TemplateFieldSpecInput } from "./template-spec.js";

// Crafted values: 40 word characters and a '!', on which `(a+)+$` and `^(\w+\s?)+$` try all 2^40 splits of
// the run; and 80 digits for a strptime format of 40 `%d` then `x`: each `%d` takes one or two digits and
// the `x` never comes, so again 2^40 tries. Without the deadline each check runs for hours (a day for the
// dates: 28 `%d` take 24 s).
const CRAFTED = `${"a".repeat(40)}!`;
const DIGITS = "1".repeat(80);
const MANY_DAYS = `${"%d".repeat(40)}x`;

const TIMEOUT_MS = 300;
beforeEach(() => setDefaultRegexTimeout(TIMEOUT_MS));
afterEach(() => setDefaultRegexTimeout(DEFAULT_REGEX_TIMEOUT_MS));

const template = (field: Partial<TemplateFieldSpecInput> & Pick<TemplateFieldSpecInput, "verify_with">) =>
  loadDeclarativeTemplate({
    fields: [{ name: "value", type: "str", description: "The value", ground_truth: "x", ...field }],
  });

async function timedEvaluation(
  run: () => Promise<{ verify: boolean; error: string | null; fieldResults: Record<string, unknown> }>,
) {
  const start = performance.now();
  const result = await run();
  return { result, elapsedMs: performance.now() - start };
}

describe("a declarative check whose regex backtracks catastrophically fails at the deadline", () => {
  test("RegexMatch with (a+)+$: the evaluation fails with the reason, then the next one passes", async () => {
    const regexMatch = template({ verify_with: { type: "RegexMatch", pattern: "(a+)+$" } });
    const { result, elapsedMs } = await timedEvaluation(() => regexMatch.evaluate({ value: CRAFTED }));
    expect(elapsedMs).toBeLessThan(5000);
    expect(result.verify).toBe(false);
    expect(result.error).toBe(
      `Field verification failed: Python regex "(a+)+$" timed out after ${TIMEOUT_MS} ms on a 41-character ` +
        "text and was stopped; the pattern backtracks catastrophically (nested quantifiers such as (a+)+?): " +
        "rewrite it so that each part of the text can be matched in only one way",
    );
    const next = await regexMatch.evaluate({ value: "baaa" });
    expect(next.fieldResults).toEqual({ value: true });
    expect(next.error).toBeNull();
  });

  test("TraceRegex with ^(\\w+\\s?)+$ on the raw response fails, then counts normally", async () => {
    const traceRegex = template({
      type: "bool",
      ground_truth: true,
      is_trace: true,
      verify_with: { type: "TraceRegex", pattern: String.raw`^(\w+\s?)+$` },
    });
    const { result, elapsedMs } = await timedEvaluation(() =>
      traceRegex.evaluate({}, { rawResponse: CRAFTED }),
    );
    expect(elapsedMs).toBeLessThan(5000);
    expect(result.verify).toBe(false);
    expect(result.error).toContain(
      String.raw`Python regex "^(\\w+\\s?)+$" timed out after 300 ms on a 41-character text`,
    );
    const next = await traceRegex.evaluate({}, { rawResponse: "two words" });
    expect(next.fieldResults).toEqual({ value: true });
  });

  test("DateMatch with a strptime format of 40 adjacent %d fails, then parses normally", async () => {
    const dateMatch = template({ verify_with: { type: "DateMatch", format: MANY_DAYS } });
    const { result, elapsedMs } = await timedEvaluation(() => dateMatch.evaluate({ value: DIGITS }));
    expect(elapsedMs).toBeLessThan(5000);
    expect(result.verify).toBe(false);
    expect(result.error).toContain(
      `the regex of strptime format "${MANY_DAYS}" timed out after 300 ms on a 80-character text`,
    );
    const dayMatch = template({ ground_truth: "07/03", verify_with: { type: "DateMatch", format: "%d/%m" } });
    expect((await dayMatch.evaluate({ value: "7/3" })).fieldResults).toEqual({ value: true });
  });
});
