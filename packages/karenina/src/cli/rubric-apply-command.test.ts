/**
 * `karenina rubric apply` end to end: a real `karenina verify` against a scripted OpenAI-compatible server on
 * 127.0.0.1 stores a run in a SQLite file and a JSON export; `rubric apply` then judges it with a new rubric.
 * Every scripted reply (answers, parses, rubric verdicts) is hand-written test data, not output of any model.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PostHocJudgment } from "../pipeline/index.js";
import { openStorage } from "../storage/index.js";
import { drugBenchmark, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";

const QUESTIONS = 3;
let dir: string;
let server: OpenAiTestServer;
let db: string;
let exported: string;
let runName: string;
let rubricFile: string;

const judgeSpec = (at: OpenAiTestServer) => `openai_endpoint:rubric-judge@${at.baseURL}`;
const apply = (...args: string[]) => runKarenina("rubric", "apply", ...args);
const readJudgments = async (file: string): Promise<PostHocJudgment[]> =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as PostHocJudgment);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-rubric-apply-"));
  // Hand-written answers, parses and rubric verdicts (clarity i + 1 for answer i).
  server = await startOpenAiServer([
    ...Array.from({ length: QUESTIONS }, (_, i) => [
      {
        match: { model: "answerer", lastUserIncludes: `(${i})` },
        reply: { text: `Venetoclax, answer number ${i}.` },
        repeat: true,
      },
      {
        match: { model: "rubric-judge", lastUserIncludes: `answer number ${i}.` },
        reply: { json: { scores: { clarity: i + 1 } } },
        repeat: true,
      },
    ]).flat(),
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
    { match: { model: "judge2" }, reply: { json: { drug: "venetoclax" } }, repeat: true },
  ]);
  const checkpoint = join(dir, "bench.jsonld");
  await drugBenchmark(QUESTIONS, "rubric-apply").save(checkpoint);
  db = join(dir, "karenina.db");
  exported = join(dir, "run.json");
  const verify = await runKarenina(
    ...scriptedVerifyArgs(server.baseURL, checkpoint, "-p", `openai_endpoint:judge2@${server.baseURL}`),
    "--db",
    db,
    "-o",
    exported,
  );
  expect(verify.code, verify.err).toBe(EXIT.ok);
  const storage = await openStorage(db);
  try {
    runName = (await storage.listRuns())[0]?.runName ?? "";
  } finally {
    await storage.close();
  }
  rubricFile = join(dir, "rubric.json");
  await writeFile(
    rubricFile,
    JSON.stringify({
      llm_traits: [{ name: "clarity", kind: "score", description: "How clear the answer is" }],
      regex_traits: [{ name: "names_drug", pattern: "Venetoclax" }],
    }),
  );
}, 60_000);

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("karenina rubric apply", () => {
  test("judges a stored run with judge calls only, one judgment per answer, written as JSON lines", async () => {
    const output = join(dir, "judgments.jsonl");
    const before = server.requests.length;

    const run = await apply(
      runName,
      "--db",
      db,
      "--rubric",
      rubricFile,
      "--parsing-model",
      judgeSpec(server),
      "--max-workers",
      "2",
      "--output",
      output,
    );

    expect(run.code, run.err).toBe(EXIT.ok);
    expect(server.requests.slice(before).map((request) => request.body.model)).toEqual(
      Array(QUESTIONS).fill("rubric-judge"),
    );
    const judgments = await readJudgments(output);
    const byQuestion = Object.fromEntries(judgments.map((j) => [j.key.question_id, j]));
    expect(Object.keys(byQuestion).sort()).toEqual(["q0", "q1", "q2"]);
    for (let i = 0; i < QUESTIONS; i++) {
      expect(byQuestion[`q${i}`]).toMatchObject({
        scores: { clarity: i + 1, names_drug: true },
        error: null,
      });
      expect(byQuestion[`q${i}`]?.sibling_keys.map((key) => key.parsing_key)).toEqual([
        "openai_endpoint:judge:",
        "openai_endpoint:judge2:",
      ]);
    }
    expect(run.out).toContain(`judged ${QUESTIONS} answers for ${QUESTIONS * 2} results (0 with an error)`);
    expect(run.out).toMatch(/clarity\s+3\s+2\s+-/);
    expect(run.out).toMatch(/names_drug\s+3\s+-\s+100%/);
    expect(run.err).toContain(`judged ${QUESTIONS}/${QUESTIONS}`);
    expect((await readdir(dir)).filter((name) => name.endsWith(".partial"))).toEqual([]);
  });

  test("judges an exported results file the same way, in input order with one worker", async () => {
    const output = join(dir, "from-export.jsonl");
    const run = await apply(
      "--results",
      exported,
      "--rubric",
      rubricFile,
      "--parsing-model",
      judgeSpec(server),
      "--max-workers",
      "1",
      "--output",
      output,
    );
    expect(run.code, run.err).toBe(EXIT.ok);
    const judgments = await readJudgments(output);
    expect(judgments.map((j) => [j.key.question_id, j.scores.clarity])).toEqual([
      ["q0", 1],
      ["q1", 2],
      ["q2", 3],
    ]);
  });

  test("traits that include the ground truth see the stored question's expected answer", async () => {
    const referee = await startOpenAiServer([
      // Hand-written verdict.
      { match: { model: "rubric-judge" }, reply: { json: { scores: { matches: true } } }, repeat: true },
    ]);
    try {
      const file = join(dir, "reference.json");
      await writeFile(
        file,
        JSON.stringify({
          llm_traits: [
            { name: "matches", kind: "boolean", description: "Agrees", include_ground_truth: true },
          ],
        }),
      );
      const run = await apply(runName, "--db", db, "--rubric", file, "--parsing-model", judgeSpec(referee));
      expect(run.code, run.err).toBe(EXIT.ok);
      expect(referee.requests).toHaveLength(QUESTIONS);
      expect(JSON.stringify(referee.requests[0]?.body.messages)).toContain(
        "<reference_answer>\\nvenetoclax\\n</reference_answer>",
      );
    } finally {
      await referee.close();
    }
  });

  test("a judge that fails gives exit 1 and lists the answers without a judgment", async () => {
    const down = await startOpenAiServer([
      // Hand-written error reply.
      { match: { model: "rubric-judge" }, reply: { status: 500, message: "judge down" }, repeat: true },
    ]);
    try {
      const run = await apply(
        runName,
        "--db",
        db,
        "--rubric",
        rubricFile,
        "--parsing-model",
        judgeSpec(down),
      );
      expect(run.code).toBe(EXIT.checkFailed);
      expect(run.out).toContain(`(${QUESTIONS} with an error)`);
      expect(run.out).toContain("error q0: TaskEval produced no usable rubric scores");
      expect(run.err).toMatch(/warning: post-hoc rubric: row q\d: Rubric evaluation failed: .*judge down/);
    } finally {
      await down.close();
    }
  });

  test("bad flags and files are refused with exit 2, naming what was expected", async () => {
    const common = ["--rubric", rubricFile, "--parsing-model", judgeSpec(server)];
    const noTraits = join(dir, "empty.json");
    await writeFile(noTraits, "{}");
    const badTrait = join(dir, "bad.json");
    await writeFile(badTrait, JSON.stringify({ regex_traits: [{ name: "cites" }] }));
    const notJson = join(dir, "broken.json");
    await writeFile(notJson, "{ llm_traits");
    const before = server.requests.length;

    const cases: [string[], RegExp][] = [
      [[runName, "--db", db, ...common, "--max-workers", "0"], /--max-workers: expected an integer >= 1/],
      [["nightly-404", "--db", db, ...common], /nightly-404/],
      [[runName, "--db", db, "--results", exported, ...common], /either --db URL .* or --results FILE/],
      [[runName, ...common], /give --db URL .* or --results FILE/],
      [["--results", exported, ...common, "other-run"], /too many arguments|no result of run/],
      [["other-run", "--results", exported, ...common], /no result of run "other-run" \(run names found: /],
      [
        [runName, "--db", db, "--rubric", noTraits, "--parsing-model", judgeSpec(server)],
        /empty\.json: the rubric has no trait/,
      ],
      [
        [runName, "--db", db, "--rubric", badTrait, "--parsing-model", judgeSpec(server)],
        /bad\.json: not a valid rubric: .*pattern/,
      ],
      [
        [runName, "--db", db, "--rubric", notJson, "--parsing-model", judgeSpec(server)],
        /broken\.json: not JSON/,
      ],
      [
        [runName, "--db", db, "--rubric", join(dir, "rubric.txt"), "--parsing-model", judgeSpec(server)],
        /expected a JSON rubric/,
      ],
      [
        [runName, "--db", db, "--rubric", rubricFile, "--parsing-model", "openai_endpoint:judge"],
        /needs @base_url/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await apply(...args);
      expect(run.code, args.join(" ")).toBe(EXIT.usage);
      expect(run.err, args.join(" ")).toMatch(message);
    }
    expect(server.requests.length).toBe(before);
  });

  test("--help explains the output and gives an example", async () => {
    const help = await apply("--help");
    expect(help.code).toBe(EXIT.ok);
    expect(help.out).toContain("karenina rubric apply nightly --db karenina.db --rubric clarity.json");
    expect(help.out).toContain("JSON lines");
    expect(help.out).toContain("sibling_keys");
  });
});
