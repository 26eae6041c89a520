/**
 * Attacks on the template builder as a stranger would mount them: client code that never ends, that eats
 * memory, that patches shared modules while another request runs, and a catastrophic regex. Each must end
 * within a deadline, leave the server answering and leave no sandbox process behind but the one spare (started
 * in advance, never used: see server/spare-sandboxes), which the server's shutdown closes too.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  runningSandboxesOf,
  sandboxProcessesOf,
  waitFor,
} from "../../sandbox/python/__fixtures__/sandbox-processes.js";
import { CLASSIC_TEMPLATE } from "../../test-support/classic-template.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";

let server: TestServer;
let llm: OpenAiTestServer;

beforeAll(async () => {
  [server, llm] = await Promise.all([startTestServer(), startOpenAiServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), llm.close()]);
  expect(await waitFor(() => sandboxProcessesOf(process.pid).length === 0, 10_000)).toBe(true);
});

/** The server runs in this process, so its sandbox processes are those of this process: the spare at most. */
afterEach(async () => {
  expect(await waitFor(() => runningSandboxesOf(process.pid).length <= 1, 10_000)).toBe(true);
});

/** Far above the sandbox's 1 s deadline and startup, far below "hangs". */
const ANSWER_DEADLINE_MS = 30_000;

const post = (path: string, body: unknown) =>
  fetch(`${server.url}/api/v2/templates/builder${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
  });

const health = () => fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5_000) });

const judge = (model: string) => ({
  id: model,
  model_provider: "openai",
  model_name: model,
  interface: "openai_endpoint",
  endpoint_base_url: llm.baseURL,
  endpoint_api_key: "sk-test",
});

const withClassBody = (line: string) =>
  CLASSIC_TEMPLATE.replace("class Answer(BaseAnswer):\n", `class Answer(BaseAnswer):\n    ${line}\n`);

const ENDLESS = withClassBody("while True: pass");
const MEMORY_HOG = withClassBody('hog = b"x" * (2**30)');
const GROWING_LIST = withClassBody('hog = []\n    while True: hog.append("x" * 1_000_000)');

async function expectServerAlive(): Promise<void> {
  const res = await health();
  expect(res.status).toBe(200);
}

describe("template builder attacks: client code that never ends or eats memory", () => {
  for (const [name, code] of [
    ["an endless loop in the class body", ENDLESS],
    ["a 1 GiB bytes allocation", MEMORY_HOG],
    ["an ever-growing list", GROWING_LIST],
  ] as const) {
    test(`validate: ${name} is invalid, within the deadline, and the server lives on`, async () => {
      const res = await post("/validate", { code });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { valid: boolean; errors: string[] };
      expect(body.valid).toBe(false);
      expect(body.errors.join(" ")).toMatch(/timed out|memory/i);
      await expectServerAlive();
    }, 60_000);

    test(`test: ${name} gives no verdict, within the deadline, and the server lives on`, async () => {
      llm.script({ match: { model: "judge-hostile" }, reply: { json: { target: "BCL2" } } });
      const res = await post("/test", {
        code,
        question_text: "Which protein does venetoclax inhibit?",
        sample_response: "BCL2",
        parsing_model: judge("judge-hostile"),
      });
      const body = (await res.json()) as { verify_result?: boolean | null };
      expect(body.verify_result ?? null).not.toBe(true);
      expect(JSON.stringify(body)).toMatch(/timed out|memory limit/i);
      expect(res.status === 200 || (res.status >= 400 && res.status < 500)).toBe(true);
      await expectServerAlive();
    }, 60_000);
  }
});

/** An honest classic template whose verify leans on shared modules (`re` and the base class). */
const HONEST = `import re
from pydantic import Field
from karenina.schemas.entities import BaseAnswer


class Answer(BaseAnswer):
    target: str = Field(description="The protein target")

    def ground_truth(self):
        self.correct = {"target": "BCL2"}

    def verify(self) -> bool:
        return re.fullmatch(self.correct["target"], self.target.strip().upper()) is not None
`;

/** Patches the shared `re` module and the shared base class so that any verdict would become true. */
const PATCHER = `import re
import karenina.schemas.entities as e
from pydantic import Field
e.BaseAnswer.verify = lambda self: True
re.fullmatch = lambda *a, **k: "patched"


class Answer(e.BaseAnswer):
    target: str = Field(description="The protein target")

    def ground_truth(self):
        self.correct = {"target": "BCL2"}

    def verify(self) -> bool:
        return True
`;

describe("template builder attacks: one request cannot change another's verdict", () => {
  const testRequest = (code: string, model: string) =>
    post("/test", {
      code,
      question_text: "Which protein does venetoclax inhibit?",
      sample_response: "It inhibits MCL1.",
      parsing_model: judge(model),
    });

  test("request A patches re and BaseAnswer while B (at the same time, then after) stays false", async () => {
    llm.script({ match: { model: "judge-a" }, reply: { json: { target: "MCL1" } } });
    llm.script({ match: { model: "judge-b" }, reply: { json: { target: "MCL1" } } });
    const [a, b] = await Promise.all([testRequest(PATCHER, "judge-a"), testRequest(HONEST, "judge-b")]);
    // The patches work where they were made: A's own verdict is true.
    expect(((await a.json()) as { verify_result: boolean }).verify_result).toBe(true);
    expect(await b.json()).toMatchObject({ verify_result: false });

    llm.script({ match: { model: "judge-b" }, reply: { json: { target: "MCL1" } } });
    const after = await testRequest(HONEST, "judge-b");
    expect(await after.json()).toMatchObject({ verify_result: false });
  }, 90_000);
});

describe("template builder attacks: a catastrophic regex", () => {
  const SPEC = {
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
        verify_with: { type: "RegexMatch", pattern: "(a+)+$", flags: [] },
        weight: 1,
        is_trace: false,
      },
    ],
  };

  test("generate writes the code without running the regex; test ends at the regex deadline while /api/health answers", async () => {
    const generated = await post("/generate", { spec: SPEC });
    expect(generated.status).toBe(200);
    const { code } = (await generated.json()) as { code: string };
    expect(code).toContain("(a+)+$");

    llm.script({ match: { model: "judge-regex" }, reply: { json: { target: `${"a".repeat(40)}!` } } });
    const pending = post("/test", {
      code,
      question_text: "Say some a's",
      sample_response: `${"a".repeat(40)}!`,
      parsing_model: judge("judge-regex"),
    });
    // The regex runs in a worker with a deadline: the server keeps answering (the request's own call waits
    // at most the deadline), and 40 a's would take (a+)+$ hours of backtracking without one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expectServerAlive();
    const res = await pending;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { verify_result: boolean | null; failure: unknown };
    expect(body.verify_result).not.toBe(true);
    await expectServerAlive();
  }, 60_000);
});
