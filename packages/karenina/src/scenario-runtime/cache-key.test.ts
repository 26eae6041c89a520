import { describe, expect, test } from "vitest";
import type { Message } from "../llm/index.js";
import { historyKeyStrings, scenarioCacheKey } from "./cache-key.js";

describe("scenarioCacheKey (spec 08 §5.5, T-M13)", () => {
  test("the original's three vectors", () => {
    expect(scenarioCacheKey("s", "n", "claude", ["hi"], null)).toBe("s_n_claude_8f434346648f6b96");
    expect(scenarioCacheKey("s", "n", "claude", ["hi", "there"], 3)).toBe("s_n_claude_f97d41979d9529cb_rep3");
    expect(scenarioCacheKey("s", "n", "m", [], null)).toBe("s_n_m_e3b0c44298fc1c14");
  });

  test("keys differ by scenario, node, model, history and replicate", () => {
    const base = scenarioCacheKey("s", "n", "m", ["a"], null);
    const variants = [
      scenarioCacheKey("t", "n", "m", ["a"], null),
      scenarioCacheKey("s", "o", "m", ["a"], null),
      scenarioCacheKey("s", "n", "x", ["a"], null),
      scenarioCacheKey("s", "n", "m", ["b"], null),
      scenarioCacheKey("s", "n", "m", ["a", ""], null),
      scenarioCacheKey("s", "n", "m", ["a"], 1),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  test("a null replicate equals the four-argument form; a replicate adds the _rep<N> suffix", () => {
    expect(scenarioCacheKey("s", "n", "m", ["a"], null)).toBe(scenarioCacheKey("s", "n", "m", ["a"]));
    expect(scenarioCacheKey("s", "n", "m", ["a"], 3).endsWith("_rep3")).toBe(true);
    expect(scenarioCacheKey("s", "n", "m", ["a"]).includes("_rep")).toBe(false);
  });
});

describe("historyKeyStrings", () => {
  const question: Message = { role: "user", content: [{ type: "text", text: "What is BCL2?" }] };

  test("equal messages give equal strings whatever the key order of their objects", () => {
    const reordered = { content: [{ text: "What is BCL2?", type: "text" }], role: "user" } as Message;
    expect(historyKeyStrings([reordered])).toEqual(historyKeyStrings([question]));
  });

  test("one string per message; different messages give different strings and keys", () => {
    const answer: Message = { role: "assistant", content: [{ type: "text", text: "A protein." }] };
    const strings = historyKeyStrings([question, answer]);
    expect(strings).toHaveLength(2);
    expect(strings[0]).not.toBe(strings[1]);
    expect(scenarioCacheKey("s", "n", "m", strings)).not.toBe(
      scenarioCacheKey("s", "n", "m", historyKeyStrings([question])),
    );
  });
});
