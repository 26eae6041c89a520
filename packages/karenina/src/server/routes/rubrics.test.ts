import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const validate = (rubric: unknown) =>
  fetch(`${server.url}/api/v2/rubrics/validation`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rubric }),
  });

describe("POST /api/v2/rubrics/validation", () => {
  test("keeps literal classes, higher_is_better and deep-judgment settings (the original dropped them)", async () => {
    const res = await validate({
      llm_traits: [
        {
          name: "tone",
          description: "The tone",
          kind: "literal",
          classes: { formal: "Formal register", casual: "Casual register" },
          higher_is_better: false,
          deep_judgment_enabled: true,
          deep_judgment_max_excerpts: 3,
        },
      ],
      regex_traits: [{ name: "cites", description: "Cites", pattern: "\\[\\d+\\]" }],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      rubric: { llm_traits: Record<string, unknown>[] };
      trait_names: string[];
      readiness_errors: unknown[];
    };
    expect(body.rubric.llm_traits[0]).toMatchObject({
      classes: { formal: "Formal register", casual: "Casual register" },
      higher_is_better: false,
      deep_judgment_enabled: true,
      deep_judgment_max_excerpts: 3,
      min_score: 0,
      max_score: 1,
    });
    expect(body.trait_names).toEqual(["tone", "cites"]);
    expect(body.readiness_errors).toEqual([]);
  });

  test("a trait name used by two kinds is a 422 naming the trait's field", async () => {
    const res = await validate({
      llm_traits: [{ name: "clear", description: "d", kind: "boolean" }],
      regex_traits: [{ name: "clear", description: "d", pattern: "x" }],
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toBe(
      "body.rubric.regex_traits[0].name: Duplicate trait name 'clear' across different trait types (llm and regex); trait names must be unique, found a string \"clear\"",
    );
  });

  test("a trait that would keep a run from using the rubric is reported, not refused", async () => {
    const res = await validate({ regex_traits: [{ name: "cites", pattern: "x" }] });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { readiness_errors: unknown[] }).readiness_errors).toEqual([
      { source: "cites", error: "Trait 'cites' is missing a description" },
    ]);
  });

  test("there is no server-wide current rubric to read or overwrite", async () => {
    const get = await fetch(`${server.url}/api/v2/rubrics/current`);
    expect(get.status).toBe(404);
    const put = await fetch(`${server.url}/api/v2/rubrics/current`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(put.status).toBe(404);
  });
});
