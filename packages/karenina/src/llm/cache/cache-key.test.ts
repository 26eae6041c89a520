import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { systemMessage, userMessage } from "../messages.js";
import { CacheKeyError, cacheKey, canonicalJson } from "./cache-key.js";

const base = {
  modelIdentity: "openai/gpt-4.1-mini",
  messages: [systemMessage("Be brief."), userMessage("What is 2+2?")],
  parameters: { temperature: 0, max_tokens: 100 },
  replicate: 1,
};

describe("cacheKey", () => {
  test("is the SHA-256 hex of the canonical JSON of the inputs, keys sorted", () => {
    const key = cacheKey({
      modelIdentity: "m",
      messages: [],
      parameters: { b: 1, a: { d: 2, c: 3 } },
      replicate: 0,
    });
    const expected =
      '{"format":1,"messages":[],"modelIdentity":"m","parameters":{"a":{"c":3,"d":2},"b":1},"replicate":0,"schema":null}';
    expect(key).toBe(createHash("sha256").update(expected).digest("hex"));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  test("does not depend on the order of parameter keys", () => {
    expect(cacheKey({ ...base, parameters: { max_tokens: 100, temperature: 0 } })).toBe(cacheKey(base));
  });

  test("changes with each input that decides the response", () => {
    const keys = new Set([
      cacheKey(base),
      cacheKey({ ...base, modelIdentity: "openai/gpt-4.1" }),
      cacheKey({ ...base, messages: [userMessage("What is 2+3?")] }),
      cacheKey({ ...base, parameters: { temperature: 0.5, max_tokens: 100 } }),
      cacheKey({ ...base, schema: { type: "object" } }),
      cacheKey({ ...base, replicate: 2 }),
    ]);
    expect(keys.size).toBe(6);
  });

  test("a missing schema and a null schema give the same key", () => {
    expect(cacheKey({ ...base, schema: null })).toBe(cacheKey(base));
  });

  test("an input that is not JSON is a CacheKeyError", () => {
    expect(() => cacheKey({ ...base, parameters: { seed: 1n } })).toThrow(CacheKeyError);
  });

  test("canonicalJson keeps array order and drops undefined members", () => {
    expect(canonicalJson({ z: [3, 1, 2], a: undefined, m: { y: 1, x: null } })).toBe(
      '{"m":{"x":null,"y":1},"z":[3,1,2]}',
    );
  });
});
