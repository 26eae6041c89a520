/**
 * A template whose top-level (class-level) code loops forever fails its own rows, not the whole verification:
 * the sandbox's deadline stops it, each of its tasks becomes a failed result (`template_validation`, stage
 * `validate_template`) and the honest question beside it completes. Through the library
 * (`selectQuestions(…, { unusable: "fail" })` then `Benchmark.runVerification`) and through a server job.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark, selectQuestions } from "../../benchmark/index.js";
import { parseVerificationConfig } from "../../pipeline/index.js";
import type { VerificationResult } from "../../results/index.js";
import { javascriptVerifying } from "../../test-support/escaping-templates.js";
import { type OpenAiTestServer, startOpenAiServer } from "../../test-support/openai-server/index.js";
import { startTestServer, type TestServer } from "../__fixtures__/test-server.js";
import { apiClient, json, scriptedConfig } from "../__fixtures__/verification-jobs.js";

/** JavaScript: honest; every answer passes. */
const JAVASCRIPT_ACCEPTING = javascriptVerifying("return true;");

/** JavaScript whose top-level code loops forever before it reaches the template object. */
const JAVASCRIPT_LOOPING_AT_TOP = `for (;;) {}\n${JAVASCRIPT_ACCEPTING}`;

/** Python whose class body loops forever, so the class is never defined. */
const PYTHON_LOOPING_IN_CLASS = [
  "class Answer(BaseAnswer):",
  "    x: str = Field(description='Anything the response says')",
  "    while True:",
  "        pass",
  "    def verify(self):",
  "        return True",
].join("\n");

/** Python: honest; every answer passes. */
const PYTHON_ACCEPTING = [
  "class Answer(BaseAnswer):",
  "    x: str = Field(description='Anything the response says')",
  "    def verify(self):",
  "        return True",
].join("\n");

const LANGUAGES = {
  JavaScript: { looping: JAVASCRIPT_LOOPING_AT_TOP, honest: JAVASCRIPT_ACCEPTING },
  Python: { looping: PYTHON_LOOPING_IN_CLASS, honest: PYTHON_ACCEPTING },
} as const;
type Language = keyof typeof LANGUAGES;

/** Two finished questions: `looping` (its template loops at top level) and `honest`. */
function twoQuestions(language: Language): Benchmark {
  const bench = Benchmark.create({ name: `looping-${language}` });
  for (const id of ["looping", "honest"]) {
    bench.addQuestion(`Which drug inhibits BCL2? (${id})`, "venetoclax", {
      questionId: id,
      answerTemplate: PYTHON_ACCEPTING,
      finished: true,
    });
  }
  // Set as a client's checkpoint would carry them: `addAnswerTemplate` would refuse the looping one.
  const checkpoint = JSON.parse(bench.serialize());
  for (const element of checkpoint.dataFeedElement as {
    "@id": string;
    item: { hasPart: Record<string, unknown> };
  }[]) {
    element.item.hasPart.programmingLanguage = language;
    element.item.hasPart.text = LANGUAGES[language][element["@id"] as "looping" | "honest"];
  }
  return Benchmark.parse(JSON.stringify(checkpoint));
}

let llm: OpenAiTestServer;
beforeAll(async () => {
  llm = await startOpenAiServer([
    { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
    { match: { model: "judge" }, reply: { json: { x: "venetoclax" } }, repeat: true },
  ]);
});
afterAll(() => llm.close());

const rawConfig = () => scriptedConfig(llm.baseURL, { answerer: "answerer", judge: "judge" });

function expectLoopingFailedHonestPassed(results: readonly VerificationResult[]): void {
  const byQuestion = new Map(results.map((result) => [result.metadata.question_id, result]));
  expect(results).toHaveLength(2);
  const looping = byQuestion.get("looping");
  expect(looping?.metadata.failure).toMatchObject({
    category: "template_validation",
    stage: "validate_template",
  });
  expect(looping?.metadata.failure?.reason).toContain("Template validation failed");
  expect(looping?.metadata.failure?.reason).toMatch(/ran longer than its limit|timed out|time limit/);
  const honest = byQuestion.get("honest");
  expect(honest?.metadata.failure ?? null).toBeNull();
  expect(honest?.template?.verify_result).toBe(true);
}

describe.each(["JavaScript", "Python"] as const)("a %s template looping at top level", (language) => {
  test("through the library: the default selection refuses it before any LLM call (spec 04 §1)", async () => {
    const bench = twoQuestions(language);
    const config = parseVerificationConfig(rawConfig());
    const before = llm.requests.length;
    await expect(bench.runVerification(config)).rejects.toThrow("Question looping: invalid template");
    expect(llm.requests.length).toBe(before);
  }, 60_000);

  test("through the library with unusable: fail, it is a failed row and the other question completes", async () => {
    const bench = twoQuestions(language);
    const config = parseVerificationConfig(rawConfig());
    const { questions, skipped } = await selectQuestions(bench, config, { unusable: "fail" });
    expect(questions.map((q) => q.id)).toEqual(["looping", "honest"]);
    expect(skipped).toEqual([]);
    const run = await bench.runVerification(config, { questions });
    expect(run.failures).toEqual([]);
    expectLoopingFailedHonestPassed(run.results);
  }, 60_000);
});

describe("a server job", () => {
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    server = await startTestServer();
    api = apiClient(server.url, server.token);
  });
  afterAll(() => server.close());

  test.each(["JavaScript", "Python"] as const)(
    "of a benchmark whose %s template loops at top level completes, that question a failed row",
    async (language) => {
      const started = await api.post("/api/v2/verifications", {
        config: rawConfig(),
        checkpoint: JSON.parse(twoQuestions(language).serialize()),
      });
      expect(started.status).toBe(202);
      const jobId = (await json(started)).job_id as string;
      const done = await api.waitForStatus(jobId, "completed", 3000);
      expect(done).toMatchObject({ processed: 2, total: 2, successful: 1, failed: 1 });
      const page = await json(await api.get(`/api/v2/verifications/${jobId}/results?limit=10`));
      expectLoopingFailedHonestPassed(page.items);
      expect((await api.get("/api/health")).status).toBe(200);
    },
    60_000,
  );
});
