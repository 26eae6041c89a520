import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { questionHash } from "../../llm/index.js";
import { questionIdFromText } from "../../model/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { uploadsRoot } from "../uploads/index.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

function uploadTraces(name: string, content: string): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([content]), name);
  return fetch(`${server.url}/api/v2/traces`, { method: "POST", body: form });
}

describe("POST /api/v2/questions/export", () => {
  test("answers the original's Python questions file as a download", async () => {
    const res = await post("/api/v2/questions/export", {
      questions: [{ question: "What is 2+2?", raw_answer: "4", keywords: ["math"] }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/x-python; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="questions_\d+\.py"$/);
    expect(await res.text()).toBe(
      "from karenina.schemas.question_class import Question\n\n# Auto-generated questions from file\n\n" +
        `question_1 = Question(\n    id='${questionIdFromText("What is 2+2?")}',\n    question='What is 2+2?',\n    raw_answer='4',\n    tags=['math']\n)\n\n` +
        "# List of all questions\nall_questions = [\n    question_1,\n]\n",
    );
  });

  test("an empty list is a 422 naming the field", async () => {
    const res = await post("/api/v2/questions/export", { questions: [] });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(/^body\.questions: /);
  });

  test("a question with an empty text is a 422 naming it", async () => {
    const res = await post("/api/v2/questions/export", { questions: [{ question: "", raw_answer: "4" }] });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'body.questions[0].question: must be a non-empty string, found a string ""',
    );
  });
});

describe("manual traces", () => {
  const hash = questionHash("What is 2+2?");

  test("an upload is validated, stored and described by its own id", async () => {
    const res = await uploadTraces("traces.json", JSON.stringify({ [hash]: "--- AI Message ---\n4" }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { file_id: string; trace_count: number; question_hashes: string[] };
    expect(body).toMatchObject({
      kind: "manual_traces",
      filename: "traces.json",
      trace_count: 1,
      question_hashes: [hash],
    });
    const again = await fetch(`${server.url}/api/v2/traces/${body.file_id}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(body);
  });

  test("two uploads are two sets: neither replaces the other (no process-wide traces)", async () => {
    const other = questionHash("Capital of France?");
    const first = (await (await uploadTraces("a.json", JSON.stringify({ [hash]: "4" }))).json()) as {
      file_id: string;
    };
    const second = (await (await uploadTraces("b.json", JSON.stringify({ [other]: "Paris" }))).json()) as {
      file_id: string;
    };
    const firstNow = (await (await fetch(`${server.url}/api/v2/traces/${first.file_id}`)).json()) as {
      question_hashes: string[];
    };
    expect(firstNow.question_hashes).toEqual([hash]);
    expect(second.file_id).not.toBe(first.file_id);
  });

  test("a key that is not an MD5 is a 422 naming it, and nothing is kept", async () => {
    const before = await readdir(uploadsRoot(server.deps.workDir)).catch(() => []);
    const res = await uploadTraces("bad.json", JSON.stringify({ "q-1": "4" }));
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: {
        code: "invalid_traces",
        message: 'bad.json: key "q-1" is not a 32-character hexadecimal MD5 of a question text',
      },
    });
    expect(await readdir(uploadsRoot(server.deps.workDir))).toEqual(before);
  });

  test("a file that is not JSON is a 422; one that is not .json is a 400", async () => {
    const notJson = await uploadTraces("t.json", "{nope");
    expect(notJson.status).toBe(422);
    expect(((await notJson.json()) as { error: { message: string } }).error.message).toMatch(
      /^t\.json: not valid JSON/,
    );
    const wrongKind = await uploadTraces("t.csv", "{}");
    expect(wrongKind.status).toBe(400);
  });

  test("a spreadsheet upload id is not a trace set (404), and delete works once", async () => {
    const form = new FormData();
    form.append("file", new Blob(["Question,Answer\nq,a\n"]), "q.csv");
    const sheet = (await (
      await fetch(`${server.url}/api/v2/files`, { method: "POST", body: form })
    ).json()) as {
      file_id: string;
    };
    expect((await fetch(`${server.url}/api/v2/traces/${sheet.file_id}`)).status).toBe(404);
    const set = (await (await uploadTraces("c.json", JSON.stringify({ [hash]: "4" }))).json()) as {
      file_id: string;
    };
    expect((await fetch(`${server.url}/api/v2/traces/${set.file_id}`, { method: "DELETE" })).status).toBe(
      200,
    );
    expect((await fetch(`${server.url}/api/v2/traces/${set.file_id}`)).status).toBe(404);
  });
});
