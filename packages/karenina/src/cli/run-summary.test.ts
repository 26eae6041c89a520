/**
 * The end of a run through the CLI: `verify` and `demo` end with the summary tables of `karenina results`
 * (failures grouped by category with their most common reasons), one definition of passed, failed and pass
 * rate everywhere, and colour only on a terminal.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { row } from "../results/__fixtures__/rows.js";
import { deadEndpoint, runKarenina, scriptedVerifyArgs } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";
import { createProgressDisplay } from "./progress-display.js";

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const ABSTAINS = "I would rather not say.";

/**
 * Hand-written test replies, not output of any model: question (2) is answered wrong, question (3) is
 * declined (the abstention check says so), the others are answered right.
 */
function scriptedServer(): Promise<OpenAiTestServer> {
  const usage = { prompt_tokens: 100, completion_tokens: 10 };
  return startOpenAiServer([
    {
      match: { model: "judge", lastUserIncludes: ABSTAINS },
      reply: { json: { reasoning: "Hand-written test reply: declined.", abstention_detected: true }, usage },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "Decide whether the response abstains" },
      reply: { json: { reasoning: "Hand-written test reply.", abstention_detected: false }, usage },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "Ibrutinib" },
      reply: { json: { drug: "ibrutinib" }, usage },
      repeat: true,
    },
    { match: { model: "judge" }, reply: { json: { drug: "venetoclax" }, usage }, repeat: true },
    {
      match: { model: "answerer", lastUserIncludes: "(2)" },
      reply: { text: "Ibrutinib.", usage },
      repeat: true,
    },
    { match: { model: "answerer", lastUserIncludes: "(3)" }, reply: { text: ABSTAINS, usage }, repeat: true },
    { match: { model: "answerer" }, reply: { text: "Venetoclax.", usage }, repeat: true },
  ]);
}

let dir: string;
let server: OpenAiTestServer;
const file = (name: string) => join(dir, name);

/** `verify` of the benchmark's questions `questions` against the scripted server, and `extra` options. */
function verify(questions: readonly string[], ...extra: string[]) {
  return runKarenina(
    ...scriptedVerifyArgs(
      server.baseURL,
      file("bench.jsonld"),
      ...questions.flatMap((question) => ["-q", question]),
      "--no-preflight",
      ...extra,
    ),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-run-summary-"));
  const bench = Benchmark.create({ name: "cli-run-summary" });
  for (let i = 0; i < 4; i++) {
    bench.addQuestion(`Which drug inhibits BCL2? (${i})`, "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: TEMPLATE,
      keywords: ["bcl2"],
    });
  }
  bench.addGlobalRubricTrait({ type: "regex", name: "names_venetoclax", pattern: "Venetoclax" });
  await bench.save(file("bench.jsonld"));
  server = await scriptedServer();
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe("verify ends with the summary tables of karenina results", () => {
  test("the same tables as `karenina results` of its run log, on stdout", async () => {
    const log = file("tables.jsonl");
    const run = await verify(["q0", "q1", "q2"], "--mode", "template_and_rubric", "-r", "2", "-o", log);
    expect(run.code, run.err).toBe(EXIT.ok);
    const results = await runKarenina("results", log);
    expect(results.code).toBe(EXIT.ok);
    const [verifyHeader, ...verifyTables] = run.out.split("\n");
    const [resultsHeader, ...resultsTables] = results.out.split("\n");
    expect(verifyHeader).toMatch(/tables\.jsonl: verify run, run run_[0-9a-f]{8}$/);
    expect(resultsHeader).toMatch(/tables\.jsonl: JSONL run log, run run_[0-9a-f]{8}$/);
    expect(verifyTables).toEqual(resultsTables);
    for (const section of [
      "By model pair (answering | parsing)",
      "Failures by category, most common reasons first",
      "  2 × content: verify_template returned False",
      `  One result in full: karenina show ${log} QUESTION`,
      "Rubric traits (6 results with a rubric evaluation)",
      "Tokens and cost (6 results with usage; built-in list prices)",
    ])
      expect(run.out).toContain(section);
    expect(run.out).toMatch(/\n {2}passed +4\n {2}failed +2 {2}\(content 2\)\n {2}pass rate +66\.7%\n/);
  });

  test("failures are grouped by category with their most common reasons: 4 × connection: ECONNREFUSED", async () => {
    const dead = await deadEndpoint();
    const { code, out } = await runKarenina(
      ...scriptedVerifyArgs(dead, file("bench.jsonld"), "-c", "4", "--no-preflight"),
    );
    expect(code).toBe(EXIT.checkFailed);
    expect(out).toContain("verify: results not written to a file (no --output)");
    expect(out).toMatch(/\n {2}failed +4 {2}\(connection 4\)\n/);
    expect(out).toContain(
      `\nFailures by category, most common reasons first\n  4 × connection: ECONNREFUSED ${dead.slice(7, -3)}\n`,
    );
    expect(out).not.toContain("One result in full");
  }, 60_000);

  test("passed, failed and pass rate mean the same in the summary line, the tables and --fail-under", async () => {
    // q0 and q1 pass, q2 fails its verification, q3 abstains: 2 passed, 2 failed. The pass rate is
    // passed / (passed + failed): the abstention counts against it.
    const within = await verify(["q0", "q1", "q2", "q3"], "--abstention", "--fail-under", "50");
    expect(within.code, within.err).toBe(EXIT.ok);
    expect(within.err).toMatch(/4\/4 done · 2 passed, 2 failed/);
    expect(within.out).toMatch(/\n {2}passed +2\n {2}failed +2 {2}\(abstention 1, content 1\)\n/);
    expect(within.out).toMatch(/\n {2}pass rate +50\.0%\n/);
    expect(within.out).toContain("  1 × abstention: Hand-written test reply: declined.");
    const below = await verify(["q0", "q1", "q2", "q3"], "--abstention", "--fail-under", "60");
    expect(below.code).toBe(EXIT.checkFailed);
    expect(below.err).toContain("pass rate 50.0% is below --fail-under 60%");
  });

  test("the progress bar on a terminal counts passed, failed and the pass rate as the tables do", () => {
    let shown = "";
    const terminal = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          shown += String(chunk);
          done();
        },
      }),
      { isTTY: true, columns: 200 },
    );
    const display = createProgressDisplay({ out: () => {}, err: () => {} }, true, terminal as never);
    const stats = {
      calls: 4,
      replayedCalls: 0,
      cacheHits: 0,
      inputTokens: 40,
      outputTokens: 4,
      costUsd: 0,
      unpricedCalls: 4,
    };
    display.update({ type: "start", total: 4, resumed: 0, runName: "run_test" });
    display.update({
      type: "result",
      result: row({ verify: false }),
      ...{ done: 4, total: 4, passed: 2, failed: 2, verified: 3 },
      stats,
    });
    display.stop();
    expect(shown).toContain("4/4 · 2 passed, 2 failed · pass rate 50.0% ·");
  });

  test("the demo ends with the same tables, its failures grouped with their reasons", async () => {
    const { code, out, err } = await runKarenina(
      "demo",
      "--offline",
      "--no-progress",
      "-o",
      file("demo.jsonl"),
      "--db",
      file("demo.db"),
    );
    expect(code, err).toBe(EXIT.ok);
    expect(err).toMatch(/14\/14 done · 8 passed, 6 failed/);
    expect(out).toMatch(/\n {2}passed +8\n {2}failed +6 {2}\(content 4, abstention 2\)\n/);
    expect(out).toContain(
      "Failures by category, most common reasons first\n  4 × content: verify_template returned False\n",
    );
    expect(out).toMatch(/\n {2}1 × abstention: .+\n {2}1 × abstention: .+\n/);
    expect(out).toContain(`One result in full: karenina show ${file("demo.jsonl")} QUESTION`);
  }, 60_000);
});

describe("colour: on a terminal, never when piped or with NO_COLOR", () => {
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  const RED = "\u001b[31m";
  let log: string;

  beforeAll(async () => {
    log = file("colour.jsonl");
    const run = await verify(["q0", "q2"], "-o", log);
    expect(run.code, run.err).toBe(EXIT.ok);
  });

  /** `karenina results LOG` in a child process, its stdout piped, with `env` over a colourless environment. */
  async function resultsPiped(env: Record<string, string>): Promise<string> {
    const { NO_COLOR: _, FORCE_COLOR: __, ...base } = process.env;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", main, "results", log],
      {
        env: { ...base, ...env },
      },
    );
    return stdout;
  }

  test("piped: plain text", async () => {
    const out = await resultsPiped({});
    expect(out).toContain("Failures by category");
    expect(out).not.toContain("\u001b");
  });

  test("FORCE_COLOR colours the tables; NO_COLOR wins over it", async () => {
    const forced = await resultsPiped({ FORCE_COLOR: "1" });
    expect(forced).toContain(`${RED}1${"\u001b[39m"}`);
    expect(forced).toContain(`${RED}1 × content${"\u001b[39m"}: verify_template returned False`);
    expect(await resultsPiped({ FORCE_COLOR: "1", NO_COLOR: "1" })).not.toContain("\u001b");
  });

  const hasScript = spawnSync("script", ["--version"]).status === 0;
  test.skipIf(!hasScript)(
    "a terminal (a pseudo-terminal made by script(1)) gets colours, unless NO_COLOR",
    async () => {
      const { NO_COLOR: _, FORCE_COLOR: __, ...base } = process.env;
      const command = `${process.execPath} --import tsx ${main} results ${log}`;
      const onTerminal = (env: NodeJS.ProcessEnv) =>
        spawnSync("script", ["-qec", command, "/dev/null"], {
          env: { ...env, TERM: "xterm" },
          encoding: "utf8",
        }).stdout;
      expect(onTerminal(base)).toContain(`${RED}1 × content`);
      const noColour = onTerminal({ ...base, NO_COLOR: "1" });
      expect(noColour).toContain("1 × content: verify_template returned False");
      expect(noColour).not.toContain(RED);
    },
  );
});
