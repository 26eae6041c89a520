import { describe, expect, test } from "vitest";
import { ownValue, setOwn } from "./index.js";

describe("keys that come from data", () => {
  test("a missing key named after an Object.prototype member reads as undefined, not the inherited value", () => {
    const record: Record<string, unknown> = { a: 1 };
    expect(ownValue(record, "constructor")).toBeUndefined();
    expect(ownValue(record, "toString")).toBeUndefined();
    expect(ownValue(record, "__proto__")).toBeUndefined();
    expect(ownValue(record, "a")).toBe(1);
    expect(ownValue(null, "a")).toBeUndefined();
  });

  test("setting __proto__ adds a key and leaves the prototype alone", () => {
    const record: Record<string, unknown> = {};
    setOwn(record, "__proto__", { polluted: true });
    setOwn(record, "constructor", "plain");
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(["__proto__", "constructor"]);
    expect(ownValue(record, "__proto__")).toEqual({ polluted: true });
    expect((record as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(record)).toBe('{"__proto__":{"polluted":true},"constructor":"plain"}');
  });
});
