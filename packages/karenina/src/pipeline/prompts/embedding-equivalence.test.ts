import { expect, test } from "vitest";
import { equivalencePrompt, readEquivalenceReply } from "./index.js";

test("the equivalence prompt shows the question, then the ground truth JSON, then the parsed JSON", () => {
  const { system, user } = equivalencePrompt({
    question: "What does venetoclax target?",
    groundTruth: { target: "BCL2" },
    parsed: { target: "B-cell lymphoma 2" },
  });
  expect(system).toContain("YES");
  expect(system).toContain("NO");
  const at = (text: string) => user.indexOf(text);
  expect(at("What does venetoclax target?")).toBeGreaterThanOrEqual(0);
  expect(at(JSON.stringify({ target: "BCL2" }, null, 2))).toBeGreaterThan(at("What does venetoclax target?"));
  expect(at(JSON.stringify({ target: "B-cell lymphoma 2" }, null, 2))).toBeGreaterThan(at('"BCL2"'));
});

test("without a question there is no question block", () => {
  const { user } = equivalencePrompt({ question: null, groundTruth: { a: 1 }, parsed: { a: 1 } });
  expect(user).not.toContain("Question:");
  expect(user.startsWith("Expected answer (JSON):")).toBe(true);
});

test("equivalent iff the trimmed, upper-cased reply starts with YES", () => {
  expect(readEquivalenceReply("YES")).toBe(true);
  expect(readEquivalenceReply("  yes, they match")).toBe(true);
  expect(readEquivalenceReply("Yes.")).toBe(true);
  expect(readEquivalenceReply("NO")).toBe(false);
  expect(readEquivalenceReply("I would say yes")).toBe(false);
  expect(readEquivalenceReply("")).toBe(false);
});
