import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RubricSchema } from "../../../karenina/src/model/index.js";
import { startTestServer, type TestServer } from "../../../karenina/src/server/__fixtures__/test-server.js";
import type { RubricValidation } from "../library-types/index.js";
import { placedTraits } from "./traits.js";
import { problemOfDetail, problemsOfReadiness, problemsOfRefusal } from "./validation.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function validate(rubric: unknown) {
  const res = await fetch(`${server.url}/api/v2/rubrics/validation`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ rubric }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("the server's verdict, placed on traits", () => {
  test("a 422's details land on the trait and field they name", async () => {
    const { status, body } = await validate({
      llm_traits: [{ name: "tone", description: "T", kind: "literal", classes: { a: "A", b: "" } }],
      regex_traits: [
        { name: "ok", description: "d", pattern: "x" },
        { name: "bad", description: "d", pattern: "(?<=a+)b" },
      ],
    });
    expect(status).toBe(422);
    const { message, details } = body.error as { message: string; details: unknown };
    const problems = problemsOfRefusal(message, details);
    expect(problems.map(({ traitKey, field }) => [traitKey, field])).toEqual([
      ["llm:0", "classes"],
      ["regex:1", "pattern"],
    ]);
    expect(problems[0]?.message).toMatch(/Description for class 'b' cannot be empty/);
  });

  test("readiness errors land on the trait of their name", async () => {
    const rubric = RubricSchema.parse({ regex_traits: [{ name: "cites", pattern: "" }] });
    const { status, body } = await validate(rubric);
    expect(status).toBe(200);
    const readiness = body.readiness_errors as RubricValidation["readiness_errors"];
    const problems = problemsOfReadiness(readiness, placedTraits(rubric));
    expect(problems).toEqual([
      { traitKey: "regex:0", field: null, message: "Trait 'cites' is missing a description" },
      { traitKey: "regex:0", field: null, message: "Regex trait 'cites' has an empty pattern" },
    ]);
  });

  test("a detail outside any trait, or an envelope without details, is a rubric-level problem", () => {
    expect(problemOfDetail({ field: "body", message: "expected object" })).toEqual({
      traitKey: null,
      field: null,
      message: "body: expected object",
    });
    expect(problemsOfRefusal("invalid body", undefined)).toEqual([
      { traitKey: null, field: null, message: "invalid body" },
    ]);
  });
});
