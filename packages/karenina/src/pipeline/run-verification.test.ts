import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { parseRubric } from "../model/index.js";
import {
  type OpenAiTestServer,
  type ScriptRule,
  startOpenAiServer,
} from "../test-support/openai-server/index.js";
import { endpointConfig } from "../test-support/pipeline-context.js";
import { parseVerificationConfig, type VerificationConfig } from "./config/index.js";
import { type ProgressEvent, runVerification } from "./run-verification.js";
import type { PipelineQuestion } from "./task.js";

/** A VerifiedField template: the judge must name the drug; ground truth "venetoclax". */
const DRUG_TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

function question(id: string, text: string): PipelineQuestion {
  return {
    id,
    text,
    rawAnswer: "venetoclax (reference answer)",
    template: { code: DRUG_TEMPLATE, language: "Python" },
    keywords: null,
    fewShotExamples: [],
    rubric: null,
    dynamicRubric: null,
    workspacePath: null,
  };
}

const FAST_RETRIES = {
  connection: { max_attempts: 1, backoff_min: 0, backoff_max: 0.01 },
  timeout: { max_attempts: 1, backoff_min: 0, backoff_max: 0.01 },
  rate_limit: { max_attempts: 2, backoff_min: 0, backoff_max: 0.01 },
  server_error: { max_attempts: 2, backoff_min: 0, backoff_max: 0.01 },
};

function config(
  server: OpenAiTestServer,
  extra: Record<string, unknown> = {},
  judges: readonly string[] = ["judge"],
): VerificationConfig {
  return endpointConfig(server.baseURL, { judges }, { retry_policy: FAST_RETRIES, ...extra });
}

// Every reply below is hand-written test data, not output of any model.
const answer = (questionText: string, text: string, extra: Partial<ScriptRule> = {}): ScriptRule => ({
  match: { model: "answerer", lastUserIncludes: questionText },
  reply: { text },
  ...extra,
});
const judge = (responseText: string, reply: ScriptRule["reply"]): ScriptRule => ({
  match: { model: "judge", lastUserIncludes: responseText },
  reply,
});

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

let server: OpenAiTestServer;
let dir: string;
beforeEach(async () => {
  server = await startOpenAiServer();
  dir = await mkdtemp(join(tmpdir(), "karenina-run-"));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const chatBodies = (model: string) =>
  server.requests
    .filter((r) => r.path.endsWith("/chat/completions") && r.body.model === model)
    .map((r) => r.body);

describe("a run over real HTTP", () => {
  test("verdicts, the run log, and one shared answer per question for several judges", async () => {
    server.script(
      answer("Which drug inhibits BCL2?", "Venetoclax inhibits BCL2."),
      answer("Which drug was approved first?", "Navitoclax was."),
      {
        match: { model: "judge", lastUserIncludes: "Venetoclax inhibits" },
        reply: { json: { drug: "Venetoclax" } },
        repeat: true,
      },
      {
        match: { model: "judge2", lastUserIncludes: "Venetoclax inhibits" },
        reply: { json: { drug: "venetoclax" } },
      },
      {
        match: { model: "judge", lastUserIncludes: "Navitoclax was" },
        reply: { json: { drug: "navitoclax" } },
      },
      {
        match: { model: "judge2", lastUserIncludes: "Navitoclax was" },
        reply: { json: { drug: "navitoclax" } },
      },
    );
    const twoJudges = config(server, {}, ["judge", "judge2"]);
    const output = join(dir, "run.jsonl");
    const events: ProgressEvent["type"][] = [];
    const run = await runVerification(
      [question("q1", "Which drug inhibits BCL2?"), question("q2", "Which drug was approved first?")],
      twoJudges,
      { output, onProgress: (event) => events.push(event.type) },
    );
    expect(run.results).toHaveLength(4);
    const verdicts = Object.fromEntries(
      run.results.map((r) => [
        `${r.metadata.question_id}/${r.metadata.parsing.model_name}`,
        r.template?.verify_result,
      ]),
    );
    expect(verdicts).toEqual({ "q1/judge": true, "q1/judge2": true, "q2/judge": false, "q2/judge2": false });
    expect(chatBodies("answerer")).toHaveLength(2);
    const failed = run.results.find((r) => r.metadata.question_id === "q2");
    expect(failed?.metadata.failure?.category).toBe("content");
    expect(run.summary).toMatchObject({ total: 4, completed: 4, passed: 2, failed: 2, aborted: false });
    const lines = (await readFile(output, "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).metadata.result_id).sort()).toEqual(
      run.results.map((r) => r.metadata.result_id).sort(),
    );
    expect(await readFile(output, "utf8")).not.toContain("test-key");
    expect(events[0]).toBe("start");
    expect(events.at(-1)).toBe("end");
    expect(events.filter((e) => e === "result")).toHaveLength(4);
  });

  test("no ground truth and no reference answer reaches the judge or the answering model, checked on the wire", async () => {
    server.script(
      answer("BCL2", "Navitoclax, I think."),
      judge("Navitoclax", { json: { drug: "navitoclax" } }),
    );
    await runVerification([question("q1", "Which drug inhibits BCL2?")], config(server));
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of server.requests) {
      const body = JSON.stringify(request.body).toLowerCase();
      expect(body).not.toContain("venetoclax");
      expect(body).not.toContain("reference answer");
    }
  });

  test("a 429 with Retry-After is waited out and retried; the retry is counted in the result", async () => {
    server.script(
      { match: { model: "answerer" }, reply: { status: 429, retryAfter: 1, message: "slow down" } },
      answer("BCL2", "Venetoclax."),
      judge("Venetoclax.", { json: { drug: "venetoclax" } }),
    );
    const started = Date.now();
    const run = await runVerification([question("q1", "Which drug inhibits BCL2?")], config(server));
    const result = run.results[0];
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result?.template?.verify_result).toBe(true);
    expect(result?.metadata.retry_counts?.rate_limit.used).toBe(1);
    expect(result?.metadata.caveats).toContain("retries_used");
    expect(result?.metadata.failure).toBeNull();
  });

  test("500s are retried within the budget; beyond it the task fails as server_error with retries exhausted", async () => {
    server.script(
      { match: { model: "answerer", lastUserIncludes: "first" }, reply: { status: 500 } },
      answer("first", "Venetoclax."),
      judge("Venetoclax.", { json: { drug: "venetoclax" } }),
      { match: { model: "answerer", lastUserIncludes: "second" }, reply: { status: 503 }, repeat: true },
    );
    const run = await runVerification(
      [question("q1", "first: which drug?"), question("q2", "second: which drug?")],
      config(server),
    );
    const byId = Object.fromEntries(run.results.map((r) => [r.metadata.question_id, r]));
    expect(byId.q1?.template?.verify_result).toBe(true);
    expect(byId.q1?.metadata.retry_counts?.server_error.used).toBe(1);
    expect(byId.q2?.metadata.failure).toMatchObject({
      category: "server_error",
      stage: "GenerateAnswer",
      reason: "server_error retries exhausted",
      group: "retry",
    });
    expect(chatBodies("answerer").filter((b) => JSON.stringify(b).includes("second"))).toHaveLength(3);
  });

  test("a judge reply that hangs times out per call and fails the task as timeout once retries are spent", async () => {
    server.script(answer("Which drug?", "Venetoclax."), {
      match: { model: "judge" },
      reply: { text: "too late", delayMs: 5000 },
      repeat: true,
    });
    const run = await runVerification(
      [question("q1", "Which drug?")],
      config(server, { request_timeout: 0.2 }),
    );
    expect(run.results[0]?.metadata.failure).toMatchObject({
      category: "timeout",
      reason: "timeout retries exhausted",
    });
    expect(chatBodies("judge")).toHaveLength(2);
  });

  test("an answer stream that sends nothing before its timeout counts as a rate limit, as in the original", async () => {
    server.script({ match: { model: "answerer" }, reply: { text: "too late", delayMs: 5000 }, repeat: true });
    const run = await runVerification(
      [question("q1", "Which drug?")],
      config(server, { request_timeout: 0.2 }),
    );
    expect(run.results[0]?.metadata.failure).toMatchObject({
      category: "rate_limit",
      reason: "rate_limit retries exhausted",
    });
    expect(chatBodies("answerer")).toHaveLength(3);
  });

  test("truncated judge JSON is repaired; invalid JSON gets one feedback retry", async () => {
    server.script(
      answer("first", "Venetoclax."),
      answer("second", "It is venetoclax."),
      judge("Venetoclax.", { text: '{"drug": "venetoclax"' }),
      judge("It is venetoclax.", { text: "The drug is venetoclax, certainly." }),
      {
        match: { model: "judge", lastUserIncludes: "could not be used" },
        reply: { json: { drug: "venetoclax" } },
      },
    );
    const run = await runVerification([question("q1", "first?"), question("q2", "second?")], config(server));
    expect(run.results.map((r) => r.template?.verify_result)).toEqual([true, true]);
    expect(chatBodies("judge")).toHaveLength(3);
  });

  test("JSON that breaks the template's schema fails the task as parsing, keeping the judge's raw reply", async () => {
    const bad = { json: { drug: { name: "venetoclax" } } };
    server.script(answer("BCL2", "Venetoclax."), judge("Venetoclax.", bad), {
      match: { model: "judge", lastUserIncludes: "could not be used" },
      reply: bad,
    });
    const run = await runVerification([question("q1", "Which drug inhibits BCL2?")], config(server));
    const failure = run.results[0]?.metadata.failure;
    expect(failure).toMatchObject({ category: "parsing", stage: "ParseTemplate", group: "system" });
    expect(failure?.details?.judge_raw_response).toBe(JSON.stringify(bad.json));
    expect(run.results[0]?.template?.verify_result).toBeNull();
  });

  test("cancelling keeps finished results in the run log, and resume finishes the rest without duplicates", async () => {
    const questions = Array.from({ length: 6 }, (_, i) => question(`q${i}`, `question ${i}?`));
    server.script(
      { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: 30 }, repeat: true },
      { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    );
    const output = join(dir, "run.jsonl");
    const controller = new AbortController();
    const serial = config(server, { async_enabled: false });
    const first = await runVerification(questions, serial, {
      output,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === "result" && event.done === 2) controller.abort();
      },
    });
    expect(first.summary.aborted).toBe(true);
    expect(first.summary.completed).toBe(2);
    const second = await runVerification(questions, serial, { output, resume: true });
    expect(second.summary).toMatchObject({ resumed: 2, completed: 4, total: 6, aborted: false });
    const ids = (await readFile(output, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).metadata.question_id)
      .sort();
    expect(ids).toEqual(questions.map((q) => q.id).sort());
    expect(new Set(second.results.map((r) => r.metadata.run_name)).size).toBe(1);
  });

  test("many calls at once on one cancel signal raise no listener-leak warning", async () => {
    const questions = Array.from({ length: 40 }, (_, i) => question(`q${i}`, `question ${i}?`));
    server.script(
      { match: { model: "answerer" }, reply: { text: "Venetoclax.", delayMs: 20 }, repeat: true },
      { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const run = await runVerification(
        questions,
        config(server, { async_max_workers: 32, max_concurrent_requests: 32 }),
        {
          signal: new AbortController().signal,
        },
      );
      expect(run.summary.completed).toBe(40);
      // Node emits process warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  test("a manual answering model answers from traces keyed by the MD5 of the question text, with no call", async () => {
    const text = "Which drug inhibits BCL2?";
    server.script(judge("Venetoclax, from a trace.", { json: { drug: "venetoclax" } }));
    const traced = config(server);
    const manual = parseVerificationConfig({
      answering_models: [
        {
          interface: "manual",
          manual_traces: { [md5(text)]: "--- AI Message ---\nVenetoclax, from a trace." },
        },
      ],
      parsing_models: [
        {
          id: "judge",
          model_name: "judge",
          interface: "openai_endpoint",
          endpoint_base_url: server.baseURL,
          endpoint_api_key: "k",
        },
      ],
      retry_policy: traced.retry_policy,
    });
    const run = await runVerification([question("q1", text), question("q2", "Untraced?")], manual);
    const byId = Object.fromEntries(run.results.map((r) => [r.metadata.question_id, r]));
    expect(byId.q1?.template?.verify_result).toBe(true);
    expect(byId.q1?.metadata.answering).toMatchObject({ interface: "manual", model_name: "manual" });
    expect(byId.q2?.metadata.failure?.reason).toContain("No manual trace for question q2");
    expect(chatBodies("judge")).toHaveLength(1);
  });

  test("the response cache makes a rerun call nothing, counts its hits, and refresh calls again", async () => {
    server.script(
      { match: { model: "answerer" }, reply: { text: "Venetoclax." }, repeat: true },
      { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    );
    const cacheDir = join(dir, "cache");
    const questions = [question("q1", "Which drug inhibits BCL2?")];
    const first = await runVerification(questions, config(server), { cacheDir });
    const second = await runVerification(questions, config(server), { cacheDir });
    expect(first.summary).toMatchObject({ calls: 2, cacheHits: 0 });
    expect(second.summary).toMatchObject({ calls: 0, cacheHits: 2, passed: 1 });
    expect(second.results[0]?.template?.usage_metadata?.total?.total_tokens).toBe(36);
    const refreshed = await runVerification(questions, config(server), { cacheDir, cacheMode: "refresh" });
    expect(refreshed.summary).toMatchObject({ calls: 2, cacheHits: 0 });
    expect(chatBodies("answerer")).toHaveLength(2);
  });

  test("usage is reported per stage, and cost comes from the price table (unpriced models are counted)", async () => {
    server.script(answer("BCL2", "Venetoclax."), judge("Venetoclax.", { json: { drug: "venetoclax" } }));
    const run = await runVerification([question("q1", "Which drug inhibits BCL2?")], config(server), {
      prices: { answerer: { input_per_million: 1_000_000, output_per_million: 2_000_000 } },
    });
    const usage = run.results[0]?.template?.usage_metadata;
    expect(usage?.answer_generation).toMatchObject({ input_tokens: 11, output_tokens: 7, model: "answerer" });
    expect(usage?.parsing).toMatchObject({ input_tokens: 11, output_tokens: 7, model: "judge" });
    expect(run.summary).toMatchObject({
      inputTokens: 22,
      outputTokens: 14,
      costUsd: 11 + 14,
      unpricedCalls: 1,
    });
  });

  test("callable traits run the functions registered for the run, in rubric_only mode without a judge", async () => {
    server.script(answer("BCL2", "Venetoclax."));
    const rubric = parseRubric({ callable_traits: [{ name: "short", kind: "boolean", callable_code: "" }] });
    const run = await runVerification(
      [{ ...question("q1", "Which drug inhibits BCL2?"), rubric }],
      config(server, { evaluation_mode: "rubric_only" }),
      { callables: new Map([["short", (text: string) => text.length < 40]]) },
    );
    expect(run.results[0]?.rubric?.callable_trait_scores).toEqual({ short: true });
    expect(run.results[0]?.template?.verify_result).toBeNull();
    expect(chatBodies("judge")).toHaveLength(0);
  });
});
