import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import type { RegexTestRequest, RegexTestResult } from "../api-types/curator.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function regexTest(body: RegexTestRequest): Promise<{ status: number; body: RegexTestResult }> {
  const res = await fetch(`${server.url}/api/v2/regex/test`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as RegexTestResult };
}

describe("POST /api/v2/regex/test", () => {
  test("lists finditer's matches with offsets, with Python semantics ($ before a final newline)", async () => {
    const res = await regexTest({ pattern: String.raw`\[(\d+)\]`, text: "see [1] and [23]" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      matched: true,
      matches: [
        { start: 4, end: 7, text: "[1]" },
        { start: 12, end: 16, text: "[23]" },
      ],
      error: null,
    });
    expect((await regexTest({ pattern: "done$", text: "done\n" })).body.matched).toBe(true);
  });

  test("case_sensitive false is IGNORECASE; true (the default) is not", async () => {
    expect((await regexTest({ pattern: "bcl2", text: "BCL2" })).body.matched).toBe(false);
    const folded = await regexTest({ pattern: "bcl2", text: "BCL2", case_sensitive: false });
    expect(folded.body).toMatchObject({ matched: true, matches: [{ start: 0, end: 4, text: "BCL2" }] });
  });

  test("an invalid pattern is a 200 with the library's message in `error`", async () => {
    const res = await regexTest({ pattern: "(unclosed", text: "x" });
    expect(res.status).toBe(200);
    expect(res.body.matched).toBe(false);
    expect(res.body.error).toMatch(/position/);
    const unsupported = await regexTest({ pattern: "(?x) a b", text: "ab" });
    expect(unsupported.body.error).toMatch(/cannot be translated faithfully/);
  });

  test("lists at most 100 matches", async () => {
    const res = await regexTest({ pattern: "a", text: "a".repeat(1000) });
    expect(res.body.matched).toBe(true);
    expect(res.body.matches).toHaveLength(100);
  });

  test("attack: a catastrophic pattern times out with an error while the server keeps answering", async () => {
    const order: string[] = [];
    const hostile = regexTest({ pattern: "(a+)+$", text: `${"a".repeat(40)}!` }).then((res) => {
      order.push("regex");
      return res;
    });
    // Give the regex request time to reach the worker, then ask something else.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const health = await fetch(`${server.url}/api/health`);
    order.push("health");
    expect(health.status).toBe(200);
    const res = await hostile;
    expect(order).toEqual(["health", "regex"]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ matched: false, matches: [] });
    expect(res.body.error).toMatch(/timed out|deadline|ms/i);
    // The pool replaced the worker: the next pattern runs normally.
    expect((await regexTest({ pattern: "a+", text: "baa" })).body.matches).toEqual([
      { start: 1, end: 3, text: "aa" },
    ]);
  });

  test("attack: 8 concurrent catastrophic patterns each end with their timeout error, health answering within 1 s", async () => {
    const started = Date.now();
    const hostile = Array.from({ length: 8 }, () =>
      regexTest({ pattern: "(a+)+$", text: `${"a".repeat(40)}!` }).then((res) => ({
        ...res,
        ms: Date.now() - started,
      })),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const healthStarted = Date.now();
    const health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(1000) });
    expect(health.status).toBe(200);
    expect(Date.now() - healthStarted).toBeLessThan(1000);
    const results = await Promise.all(hostile);
    for (const res of results) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ matched: false, matches: [] });
      expect(res.body.error).toMatch(/timed out/i);
      expect(res.ms).toBeLessThan(10_000);
    }
    expect((await regexTest({ pattern: "a+", text: "baa" })).body.matches).toHaveLength(1);
  }, 20_000);

  test("attack: a 200 000-character text with a pattern matching every character lists at most 100 matches", async () => {
    const res = await regexTest({ pattern: ".", text: "x".repeat(200_000) });
    expect(res.status).toBe(200);
    expect(res.body.matched).toBe(true);
    expect(res.body.error).toBeNull();
    expect(res.body.matches).toHaveLength(100);
    const empty = await regexTest({ pattern: "", text: "y".repeat(200_000) });
    expect(empty.body.matches.length).toBeLessThanOrEqual(100);
  });

  test("a pattern over 10 000 characters is a 422 naming the field", async () => {
    const res = await fetch(`${server.url}/api/v2/regex/test`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pattern: "a".repeat(10_001), text: "" }),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/body\.pattern/);
  });
});
