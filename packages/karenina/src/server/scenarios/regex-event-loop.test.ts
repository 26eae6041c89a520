/**
 * The attack: a client sends a catastrophic regex ((a+)+$ against 40 a's and a "!", hours of backtracking
 * without a deadline) for the server to run. The regex is stopped at its 1 s deadline, and while it runs the
 * server must keep serving everyone else: /api/health is polled the whole time (one request after the other, a
 * 20 ms pause in between) and has to answer many times while the regex request is pending. A server whose
 * event loop waits for the regex answers at most once or twice in that second. Every question, template and
 * scripted reply below is hand-written test data.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { trait } from "../../rubrics/index.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { DRUG_TEMPLATE } from "../../test-support/pipeline-context.js";
import { scenarioCheckpoint, scenarioClient, scenarioConfig } from "../__fixtures__/scenario-fixtures.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

const CATASTROPHIC = "(a+)+$";
const ATTACK_TEXT = `${"a".repeat(40)}!`;
/** Health answers while one 1 s regex deadline passes: ~40 when the loop is free, 1–2 when it is held. */
const MIN_HEALTH_ANSWERS = 10;

const REGEX_FIELD_SPEC = {
  class_name: "Answer",
  verify_strategy: null,
  fields: [
    {
      name: "target",
      type: "str",
      description: "Target protein named in the response",
      extraction_hint: null,
      ground_truth: null,
      literal_values: null,
      verify_with: { type: "RegexMatch", pattern: CATASTROPHIC, flags: [] },
      weight: 1,
      is_trace: false,
    },
  ],
};

let server: TestServer;
let llm: OpenAiTestServer;

beforeAll(async () => {
  [server, llm] = await Promise.all([startTestServer(), startOpenAiServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), llm.close()]);
});

/** Polls /api/health until `pending` settles; returns how many answers (status 200) came meanwhile. */
async function healthAnswersWhile(pending: Promise<unknown>): Promise<number> {
  let settled = false;
  const done = pending.finally(() => {
    settled = true;
  });
  let answers = 0;
  while (!settled) {
    const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    if (res.status === 200 && !settled) answers++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await done;
  return answers;
}

describe("a catastrophic regex from a client does not hold the server's event loop", () => {
  test("template builder test route: a RegexMatch field runs to its deadline while /api/health keeps answering", async () => {
    // the builder writes the template (a declarative RegexMatch field) without running the regex
    const generated = await fetch(`${server.url}/api/v2/templates/builder/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ spec: REGEX_FIELD_SPEC }),
    });
    expect(generated.status).toBe(200);
    const { code } = (await generated.json()) as { code: string };
    llm.script({ match: { model: "judge-regex" }, reply: { json: { target: ATTACK_TEXT } } });
    const request = fetch(`${server.url}/api/v2/templates/builder/test`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        code,
        question_text: "Say some a's",
        sample_response: ATTACK_TEXT,
        parsing_model: {
          id: "judge-regex",
          model_provider: "openai",
          model_name: "judge-regex",
          interface: "openai_endpoint",
          endpoint_base_url: llm.baseURL,
          endpoint_api_key: "sk-test",
        },
      }),
      signal: AbortSignal.timeout(30_000),
    }).then(async (res) => ({ status: res.status, body: await res.json() }));

    const answers = await healthAnswersWhile(request);
    const { status, body } = await request;
    expect(status).toBe(200);
    // the regex was stopped at its deadline: the field check failed
    expect(body).toMatchObject({
      parsed_fields: { target: ATTACK_TEXT },
      verify_result: false,
      failure: { stage: "verify_template" },
    });
    expect(answers).toBeGreaterThanOrEqual(MIN_HEALTH_ANSWERS);
  }, 60_000);

  test("verification job: a catastrophic regex rubric trait runs to its deadline while /api/health keeps answering", async () => {
    llm.script({ match: { model: "answerer" }, reply: { text: ATTACK_TEXT }, repeat: true });
    llm.script({ match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true });
    const api = scenarioClient(server.url, server.token);
    const rows = api.runToEnd(
      scenarioCheckpoint(
        "regex-attack",
        [{ id: "q", question: "[regex-attack] Which drug?", answer: "venetoclax", template: DRUG_TEMPLATE }],
        [trait.regex({ name: "catastrophic", pattern: CATASTROPHIC })],
      ),
      scenarioConfig(llm.baseURL, { evaluation_mode: "template_and_rubric" }),
    );

    const answers = await healthAnswersWhile(rows);
    const [row] = await rows;
    expect(row.rubric.rubric_evaluation_performed).toBe(true);
    expect(row.metadata.warnings).toEqual([
      expect.stringContaining('Python regex "(a+)+$" timed out after 1000 ms on a 60-character text'),
    ]);
    expect(answers).toBeGreaterThanOrEqual(MIN_HEALTH_ANSWERS);
  }, 60_000);
});
