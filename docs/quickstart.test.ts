import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { Benchmark } from "../packages/karenina/src/index.js";
import {
  type OpenAiTestServer,
  startOpenAiServer,
} from "../packages/karenina/src/test-support/openai-server/index.js";
import { quickstart } from "./quickstart.js";

const ANSWER = "Aspirin irreversibly inhibits cyclooxygenase (COX-1 and COX-2).";

let server: OpenAiTestServer;
let home = "";
let dir = "";

beforeEach(async () => {
  home = process.cwd();
  dir = await mkdtemp(join(tmpdir(), "karenina-quickstart-"));
  process.chdir(dir);
  // Hand-written test replies, not output of any model. The judge parses the answer, then scores the rubric.
  server = await startOpenAiServer([
    { match: { model: "answerer-model" }, reply: { text: ANSWER } },
    {
      match: { model: "judge-model", lastUserIncludes: ANSWER },
      reply: { json: { enzyme: "cyclooxygenase" } },
    },
    {
      match: { model: "judge-model", lastUserIncludes: ANSWER },
      reply: { json: { scores: { concise: true } } },
    },
  ]);
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server.close();
  process.chdir(home);
  await rm(dir, { recursive: true, force: true });
});

test("the quickstart builds a benchmark, runs it against the models and summarises the results", async () => {
  const { run, summary } = await quickstart({
    baseURL: server.baseURL,
    answeringModel: "answerer-model",
    judgeModel: "judge-model",
  });

  expect(server.requests.map((request) => request.body.model)).toEqual([
    "answerer-model",
    "judge-model",
    "judge-model",
  ]);
  expect(summary.template_pass_overall).toMatchObject({ passed: 1, total: 1 });
  expect(summary.rubric_scores.llm.concise).toMatchObject({ kind: "boolean", true_count: 1 });
  expect(run.results[0]?.metadata.failure).toBeNull();
  expect(console.log).toHaveBeenCalledWith("passed 1 of 1");

  const saved = await Benchmark.load(join(dir, "medicine-cabinet.jsonld"));
  expect(saved.getQuestionIds()).toEqual([run.results[0]?.metadata.question_id]);
  const log = (await readFile(join(dir, "medicine-cabinet.jsonl"), "utf8")).trim().split("\n");
  expect(log).toHaveLength(1);
});

test("a wrong answer fails the template and shows in the summary", async () => {
  await server.close();
  // Hand-written test replies, not output of any model.
  server = await startOpenAiServer([
    { match: { model: "answerer-model" }, reply: { text: "Aspirin inhibits lipoxygenase." } },
    {
      match: { model: "judge-model", lastUserIncludes: "lipoxygenase" },
      reply: { json: { enzyme: "lipoxygenase" } },
    },
    {
      match: { model: "judge-model", lastUserIncludes: "lipoxygenase" },
      reply: { json: { scores: { concise: true } } },
    },
  ]);
  const { summary } = await quickstart({
    baseURL: server.baseURL,
    answeringModel: "answerer-model",
    judgeModel: "judge-model",
  });
  expect(summary.template_pass_overall).toMatchObject({ passed: 0, total: 1 });
  expect(console.log).toHaveBeenCalledWith("passed 0 of 1");
});
