import { describe, expect, test } from "vitest";
import { encodeJavaScriptCallable } from "../../../karenina/src/rubrics/index.js";
import { viewCallableCode } from "./callable-code.js";

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

describe("the callable card's language and code", () => {
  test("JavaScript, Python source, cloudpickle bytes, empty and unreadable code", () => {
    expect(viewCallableCode(encodeJavaScriptCallable("(text) => text.length > 10"))).toEqual({
      language: "JavaScript",
      source: "(text) => text.length > 10",
    });
    expect(viewCallableCode(base64("def evaluate(trace):\n    return True"))).toEqual({
      language: "Python",
      source: "def evaluate(trace):\n    return True",
    });
    expect(viewCallableCode(base64(new Uint8Array([0x80, 5, 0x95, 1]))).source).toBeNull();
    expect(viewCallableCode(base64(new Uint8Array([0x80, 5]))).language).toMatch(/cloudpickle/);
    expect(viewCallableCode("").language).toMatch(/none/);
    expect(viewCallableCode(base64(new Uint8Array([0xff, 0xfe, 0xfd]))).language).toMatch(/unreadable/);
  });

  test("base64 as Python reads it: line breaks skipped, decoding stops at padding", () => {
    const wrapped = `${base64("def f(t):\n  return 1").replace(/(.{8})/g, "$1\n")}=garbage`;
    expect(viewCallableCode(wrapped).source).toBe("def f(t):\n  return 1");
  });
});
