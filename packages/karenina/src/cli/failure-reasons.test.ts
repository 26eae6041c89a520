import { describe, expect, test } from "vitest";
import { row } from "../results/__fixtures__/rows.js";
import type { Failure, FailureCategory } from "../results/index.js";
import { failureDigest, failuresByCategory } from "./failure-reasons.js";

const failure = (
  reason: string,
  errorMessage?: string,
  category: FailureCategory = "unexpected_error",
): Failure => ({
  category,
  stage: "GenerateAnswer",
  reason,
  details: errorMessage === undefined ? null : { error_message: errorMessage },
  group: "system",
});

describe("failureDigest", () => {
  test("a network error is its code and address, whatever wraps it", () => {
    const wrapped =
      "Adapter call failed: LlmCallError: LLM call to x failed: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:59999";
    expect(failureDigest(failure("connection retries exhausted", wrapped, "connection"))).toBe(
      "ECONNREFUSED 127.0.0.1:59999",
    );
    expect(failureDigest(failure("getaddrinfo ENOTFOUND api.example.invalid"))).toBe(
      "ENOTFOUND api.example.invalid",
    );
  });

  test("other errors lose the client's wrappers and keep their first line, cut to 120 characters", () => {
    expect(
      failureDigest(
        failure("x", "Adapter call failed: APICallError: Incorrect API key provided\n  at stack"),
      ),
    ).toBe("Incorrect API key provided");
    const missingKey =
      "Failed to initialize answering model: AdapterUnavailableError: openai needs an API key: set OPENAI_API_KEY";
    expect(failureDigest(failure("x", missingKey))).toBe("openai needs an API key: set OPENAI_API_KEY");
    expect(failureDigest(failure("verify_template returned False"))).toBe("verify_template returned False");
    const long = failureDigest(failure("y".repeat(300)));
    expect(Array.from(long)).toHaveLength(120);
    expect(long.endsWith("…")).toBe(true);
  });
});

test("failures are grouped by category, the most frequent first, each with its reasons by count", () => {
  const rows = [
    row({ question: "a", verify: false }),
    row({ question: "b", failure: { category: "timeout", reason: "timed out after 60 s" } }),
    row({ question: "c", failure: { category: "timeout", reason: "timed out after 60 s" } }),
    row({ question: "d", failure: { category: "timeout", reason: "timed out after 30 s" } }),
    row({ question: "e", verify: true }),
  ];
  expect(failuresByCategory(rows)).toEqual([
    {
      category: "timeout",
      count: 3,
      reasons: [
        { reason: "timed out after 60 s", count: 2 },
        { reason: "timed out after 30 s", count: 1 },
      ],
    },
    { category: "content", count: 1, reasons: [{ reason: "verify_template returned False", count: 1 }] },
  ]);
});
