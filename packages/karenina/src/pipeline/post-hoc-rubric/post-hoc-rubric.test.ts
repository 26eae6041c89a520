/**
 * Post-hoc rubric judging (spec 08 §10.2) of a run made by a real `karenina verify` against a scripted
 * OpenAI-compatible server on 127.0.0.1 and stored in a SQLite file. Every scripted reply below (answers and
 * judge verdicts) is hand-written test data, not output of any model.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseRubric } from "../../model/index.js";
import type { VerificationResult } from "../../results/index.js";
import { openStorage } from "../../storage/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../../test-support/cli.js";
import {
  type OpenAiTestServer,
  type ScriptRule,
  startOpenAiServer,
} from "../../test-support/openai-server/index.js";
import {
  evaluateRubricOnResults,
  evaluateRubricOnTexts,
  type PostHocJudgment,
  PostHocRubricError,
} from "./index.js";

const QUESTIONS = 4;
const FAST_RETRIES = {
  connection: { max_attempts: 0 },
  timeout: { max_attempts: 0 },
  rate_limit: { max_attempts: 0 },
  server_error: { max_attempts: 0 },
};
const RUBRIC = {
  llm_traits: [{ name: "clarity", kind: "score", description: "How clear the answer is" }],
  regex_traits: [{ name: "names_drug", pattern: "Venetoclax" }],
};

let dir: string;
let server: OpenAiTestServer;
let rows: VerificationResult[];
let runName: string;

const judge = (at: OpenAiTestServer, model = "rubric-judge") => ({
  id: model,
  model_name: model,
  interface: "openai_endpoint",
  endpoint_base_url: at.baseURL,
  endpoint_api_key: "test-key",
  retry_policy: FAST_RETRIES,
});

/** Hand-written verdict of the rubric judge on answer `i`: clarity `i + 1`, after `delayMs`. */
const verdict = (i: number, delayMs = 0, model = "rubric-judge"): ScriptRule => ({
  match: { model, lastUserIncludes: `answer number ${i}.` },
  reply: { json: { scores: { clarity: i + 1 } }, delayMs },
  repeat: true,
});

const chatModels = (at: OpenAiTestServer, from = 0) =>
  at.requests.slice(from).map((request) => request.body.model);

async function all(judgments: AsyncIterable<PostHocJudgment>): Promise<PostHocJudgment[]> {
  const list: PostHocJudgment[] = [];
  for await (const judgment of judgments) list.push(judgment);
  return list;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-post-hoc-"));
  // Hand-written answers (one per question, distinct) and parses of the two verify-time judges.
  server = await startOpenAiServer([
    ...Array.from({ length: QUESTIONS }, (_, i) => ({
      match: { model: "answerer", lastUserIncludes: `(${i})` },
      reply: { text: `Venetoclax, answer number ${i}.` },
      repeat: true,
    })),
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    { match: { model: "judge2" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
  const checkpoint = join(dir, "bench.jsonld");
  await drugBenchmark(QUESTIONS, "post-hoc").save(checkpoint);
  const db = join(dir, "karenina.db");
  const verify = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, checkpoint, "-p", `openai_endpoint:judge2@${server.baseURL}`),
    "--db",
    db,
  );
  expect(verify.code, verify.err).toBe(0);
  const storage = await openStorage(db);
  try {
    const [run] = await storage.listRuns();
    runName = run?.runName ?? "";
    rows = await storage.loadResults({ runId: run?.id ?? "" });
  } finally {
    await storage.close();
  }
  expect(rows).toHaveLength(QUESTIONS * 2);
}, 60_000);

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("evaluateRubricOnResults on a stored run", () => {
  test("scores every kept answer once, with only judge calls, and reports the parser siblings", async () => {
    server.script(...Array.from({ length: QUESTIONS }, (_, i) => verdict(i)));
    const before = server.requests.length;

    const judgments = await all(evaluateRubricOnResults(rows, RUBRIC, judge(server), { maxWorkers: 1 }));

    expect(chatModels(server, before)).toEqual(Array(QUESTIONS).fill("rubric-judge"));
    expect(judgments.map((j) => j.key.question_id)).toEqual(["q0", "q1", "q2", "q3"]);
    for (const [i, judgment] of judgments.entries()) {
      expect(judgment.error).toBeNull();
      expect(judgment.scores).toEqual({ clarity: i + 1, names_drug: true });
      expect(judgment.key.run_name).toBe(runName);
      expect(judgment.sibling_keys.map((key) => key.parsing_key)).toEqual([
        "openai_endpoint:judge:",
        "openai_endpoint:judge2:",
      ]);
      const siblings = rows.filter((row) => row.metadata.question_id === `q${i}`);
      expect(judgment.sibling_result_ids).toEqual(siblings.map((row) => row.metadata.result_id));
      expect(judgment.representative_result_id).toBe(siblings[0]?.metadata.result_id);
    }
  });

  test("without collapsing every row is judged, each its own sibling", async () => {
    server.script(...Array.from({ length: QUESTIONS }, (_, i) => verdict(i)));
    const before = server.requests.length;

    const judgments = await all(
      evaluateRubricOnResults(rows, RUBRIC, judge(server), { maxWorkers: 1, collapseParserSiblings: false }),
    );

    expect(judgments).toHaveLength(rows.length);
    expect(judgments.every((j) => j.sibling_keys.length === 1 && j.sibling_keys[0] === j.key)).toBe(true);
    expect(chatModels(server, before)).toEqual(Array(rows.length).fill("rubric-judge"));
  });

  test("row filter, text selector, row context and rubric factory shape what is judged", async () => {
    const at = await startOpenAiServer([
      // Hand-written verdict.
      { match: { model: "rubric-judge" }, reply: { json: { scores: { clarity: 2 } } }, repeat: true },
    ]);
    try {
      const judgments = await all(
        evaluateRubricOnResults(rows, RUBRIC, judge(at), {
          maxWorkers: 1,
          rowFilter: (row) => row.metadata.question_id === "q1",
          textSelector: (row) => `Rewritten for ${row.metadata.question_id}: Navitoclax.`,
          rowContext: (row) => ({ question: row.metadata.question_text, ground_truth: "venetoclax" }),
          rubricFactory: (_row, rubric) => ({ ...rubric, regex_traits: [] }),
        }),
      );
      expect(judgments).toHaveLength(1);
      expect(judgments[0]?.scores).toEqual({ clarity: 2 });
      const prompt = JSON.stringify(at.requests[0]?.body.messages);
      expect(prompt).toContain("Rewritten for q1: Navitoclax.");
    } finally {
      await at.close();
    }
  });

  test("with several workers judgments come in completion order, input order with one", async () => {
    const at = await startOpenAiServer([verdict(0, 400), verdict(1), verdict(2), verdict(3)]);
    try {
      const parallel = await all(evaluateRubricOnResults(rows, RUBRIC, judge(at), { maxWorkers: 2 }));
      expect(parallel.map((j) => j.key.question_id).at(-1)).toBe("q0");
      expect(new Set(parallel.map((j) => j.key.question_id))).toEqual(new Set(["q0", "q1", "q2", "q3"]));
      expect(at.peakInFlight["rubric-judge"]).toBeLessThanOrEqual(2);

      const serial = await all(evaluateRubricOnResults(rows, RUBRIC, judge(at), { maxWorkers: 1 }));
      expect(serial.map((j) => j.key.question_id)).toEqual(["q0", "q1", "q2", "q3"]);
      expect(serial.map((j) => j.scores.clarity)).toEqual([1, 2, 3, 4]);
    } finally {
      await at.close();
    }
  });

  test("leaving the loop early stops the judging still queued", async () => {
    // q1's verdict is slow, so it is still being judged when the loop is left after q0's.
    const at = await startOpenAiServer([verdict(0, 200), verdict(1, 2000), verdict(2, 200), verdict(3, 200)]);
    try {
      for await (const judgment of evaluateRubricOnResults(rows, RUBRIC, judge(at), { maxWorkers: 1 })) {
        expect(judgment.key.question_id).toBe("q0");
        break;
      }
      for await (const _ of evaluateRubricOnResults(rows, RUBRIC, judge(at), { maxWorkers: 2 })) break;
      // One call for the serial loop; for the pool q0 and q1 at once, then q2, started when q0 finished (it may
      // be aborted before its request is sent): q3 was still queued when the loop was left, and never starts.
      const asked = at.requests.map(
        (request) => JSON.stringify(request.body.messages).match(/answer number (\d)/)?.[1],
      );
      expect(asked[0]).toBe("0");
      expect(asked.slice(1, 3).sort()).toEqual(["0", "1"]);
      expect(asked).not.toContain("3");
    } finally {
      await at.close();
    }
  });
});

describe("scenario rows (08 Q38, a Fix)", () => {
  test("turns of one question in a scenario are judged apart, each with its parser siblings", async () => {
    const at = await startOpenAiServer([verdict(0)]);
    try {
      const asTurn = (row: VerificationResult, turn: number): VerificationResult => {
        const copy = structuredClone(row);
        Object.assign(copy.metadata, { scenario_id: "pushback", scenario_node: "ask", scenario_turn: turn });
        return copy;
      };
      const q0 = rows.filter((row) => row.metadata.question_id === "q0");
      const turns = [...q0.map((row) => asTurn(row, 1)), ...q0.map((row) => asTurn(row, 2))];

      const judgments = await all(evaluateRubricOnResults(turns, RUBRIC, judge(at), { maxWorkers: 1 }));

      expect(judgments.map((j) => [j.key.scenario_turn, j.sibling_keys.length])).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(judgments.every((j) => j.scores.clarity === 1)).toBe(true);
    } finally {
      await at.close();
    }
  });
});

describe("judgments that carry an error", () => {
  test("a failed judge call gives 'TaskEval produced no usable rubric scores' and warns with the cause", async () => {
    const at = await startOpenAiServer([
      { match: { model: "rubric-judge" }, reply: { status: 500, message: "judge down" }, repeat: true },
    ]);
    try {
      const warnings: string[] = [];
      const onWarning = (message: string) => warnings.push(message);
      const [first] = await all(evaluateRubricOnResults(rows.slice(0, 1), RUBRIC, judge(at), { onWarning }));
      // The regex trait is not scored either: the batch evaluation fails as a whole, as in a run.
      expect(first?.error).toBe("TaskEval produced no usable rubric scores");
      expect(warnings).toEqual([
        expect.stringMatching(/^post-hoc rubric: row q0: Rubric evaluation failed: .*judge down/),
      ]);
      expect(first?.scores).toEqual({});
      expect(first?.labels).toEqual({});
    } finally {
      await at.close();
    }
  });

  test("a verdict without any score gives 'TaskEval produced no usable rubric scores'", async () => {
    const at = await startOpenAiServer([
      // Hand-written verdict that scores nothing.
      { match: { model: "rubric-judge" }, reply: { json: { scores: {} } }, repeat: true },
    ]);
    try {
      const llmOnly = { llm_traits: RUBRIC.llm_traits };
      const [first] = await all(evaluateRubricOnResults(rows.slice(0, 1), llmOnly, judge(at)));
      expect(first?.error).toBe("TaskEval produced no usable rubric scores");
      expect(first?.scores).toEqual({});
    } finally {
      await at.close();
    }
  });

  test("an exception becomes the judgment's error and a warning; the other rows are judged", async () => {
    server.script(verdict(1));
    const warnings: string[] = [];
    const judgments = await all(
      evaluateRubricOnResults(rows, RUBRIC, judge(server), {
        maxWorkers: 1,
        onWarning: (message) => warnings.push(message),
        textSelector: (row) => {
          if (row.metadata.question_id === "q0") throw new Error("no text kept for q0");
          return row.template?.raw_llm_response ?? "";
        },
        rubricFactory: (row, rubric) => (row.metadata.question_id === "q2" ? parseRubric({}) : rubric),
      }),
    );
    const byQuestion = Object.fromEntries(judgments.map((j) => [j.key.question_id, j]));
    expect(byQuestion.q0?.error).toBe("no text kept for q0");
    expect(byQuestion.q2?.error).toMatch(/^nothing to evaluate/);
    expect(byQuestion.q1?.error).toBeNull();
    expect(byQuestion.q1?.scores.clarity).toBe(2);
    expect(warnings).toHaveLength(2);
  });

  test("maxWorkers below 1 is refused before anything runs", () => {
    for (const maxWorkers of [0, -1]) {
      expect(() => evaluateRubricOnResults(rows, RUBRIC, judge(server), { maxWorkers })).toThrow(
        new PostHocRubricError("max_workers must be at least 1"),
      );
    }
    expect(() => evaluateRubricOnTexts([], RUBRIC, judge(server), { maxWorkers: 0 })).toThrow(
      PostHocRubricError,
    );
  });
});

describe("evaluateRubricOnTexts", () => {
  test("judges prepared texts under their keys, without result ids", async () => {
    server.script(verdict(2), verdict(3));
    const key = (question_id: string) => ({
      question_id,
      answering_key: "prod:agent:",
      parsing_key: "none:",
      replicate: null,
      run_name: null,
    });
    const judgments = await all(
      evaluateRubricOnTexts(
        [
          { key: key("a"), text: "Venetoclax, answer number 2." },
          { key: key("b"), text: "Venetoclax, answer number 3.", context: { question: "Which drug?" } },
        ],
        RUBRIC,
        judge(server),
        { maxWorkers: 1 },
      ),
    );
    expect(judgments.map((j) => [j.key.question_id, j.scores.clarity, j.error])).toEqual([
      ["a", 3, null],
      ["b", 4, null],
    ]);
    expect(judgments[0]).toMatchObject({ representative_result_id: null, sibling_result_ids: [] });
    expect(judgments[0]?.sibling_keys).toEqual([judgments[0]?.key]);
  });
});
