import { describe, expect, test } from "vitest";
import { questionIdFromText, questionUrn, templateId, uniqueId } from "./ids.js";
import { checkpointId, pythonIsoTimestamp } from "./timestamps.js";

describe("question ids", () => {
  test("the content id is the MD5 hex of the UTF-8 text (spec vectors)", () => {
    expect(questionIdFromText("What is the capital of France?")).toBe("cb0b4aaf80c43c9973aefeda1bd72890");
    expect(questionIdFromText("What is 2+2?")).toBe("936dbc8755f623c951d96ea2b03e13bc");
  });

  test("case and whitespace change the id", () => {
    expect(questionIdFromText("What is BCL2?")).not.toBe(questionIdFromText("What is bcl2?"));
    expect(questionIdFromText("What is BCL2?")).not.toBe(questionIdFromText("What is BCL2? "));
  });

  test.each([
    ["What is 2+2?", "urn:uuid:question-what-is-2+2-936dbc87"],
    [
      "What element has the atomic number 8? Provide both the name and chemical symbol.",
      "urn:uuid:question-what-element-has-the-atomic-number-8-provide-both--8bcf4ce2",
    ],
    [
      "Qu'est-ce que l'ADN ? Écrivez «court».",
      "urn:uuid:question-qu'est-ce-que-l'adn--écrivez-«court»-9dc63b0f",
    ],
    [
      "  Leading space, commas, and dots... ok?",
      "urn:uuid:question---leading-space-commas-and-dots-ok-65abfa06",
    ],
  ])("URN of %j", (text, urn) => {
    expect(questionUrn(text)).toBe(urn);
  });

  test("a taken id gets -1, -2, ... appended", () => {
    const taken = new Set(["a", "a-1"]);
    expect(uniqueId("b", taken)).toBe("b");
    expect(uniqueId("a", taken)).toBe("a-2");
  });

  test("template ids ignore indentation and line endings; empty code has no template id", () => {
    const flat = "class Answer:\n    x = 1\n";
    const indented = "    class Answer:\r\n        x = 1   \r\n";
    expect(templateId(flat)).toBe(templateId(indented));
    expect(templateId(flat)).toMatch(/^[0-9a-f]{32}$/);
    expect(templateId("  \n ")).toBe("no_template");
    expect(templateId(null)).toBe("no_template");
  });
});

describe("timestamps", () => {
  test("local time without zone, six fractional digits, none when zero", () => {
    expect(pythonIsoTimestamp(new Date(2026, 0, 1, 10, 5, 3, 250))).toBe("2026-01-01T10:05:03.250000");
    expect(pythonIsoTimestamp(new Date(2025, 0, 1, 12, 0, 0, 0))).toBe("2025-01-01T12:00:00");
  });

  test("checkpoint ids carry the POSIX time as a Python float", () => {
    expect(checkpointId(new Date(1767261600500))).toBe("urn:uuid:karenina-checkpoint-1767261600.5");
    expect(checkpointId(new Date(1767261600000))).toBe("urn:uuid:karenina-checkpoint-1767261600.0");
  });
});

test("a scenario node's question URN cuts the slug at 50 characters (spec 08 §6.1)", () => {
  expect(questionUrn("What is the capital of Australia?")).toBe(
    "urn:uuid:question-what-is-the-capital-of-australia-7dc9849f",
  );
  expect(questionUrn("Many people say Sydney. Do you want to change your answer?")).toBe(
    "urn:uuid:question-many-people-say-sydney-do-you-want-to-change-your--043f3223",
  );
});
