import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { row } from "../results/__fixtures__/rows.js";
import type { VerificationResult } from "../results/index.js";
import { runKarenina } from "../test-support/cli.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { EXIT } from "./cli-io.js";

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

/**
 * Hand-written test replies, not output of any model: question (2) is answered wrong (ibrutinib), the
 * others right; token counts are made up.
 */
function scriptedServer(): Promise<OpenAiTestServer> {
  return startOpenAiServer([
    {
      match: { model: "answerer", lastUserIncludes: "(2)" },
      reply: { text: "Ibrutinib, taken\nwith food.", usage: { prompt_tokens: 100, completion_tokens: 20 } },
      repeat: true,
    },
    {
      match: { model: "answerer" },
      reply: { text: "Venetoclax.", usage: { prompt_tokens: 100, completion_tokens: 20 } },
      repeat: true,
    },
    {
      match: { model: "judge", lastUserIncludes: "Ibrutinib" },
      reply: { json: { drug: "ibrutinib" }, usage: { prompt_tokens: 300, completion_tokens: 10 } },
      repeat: true,
    },
    {
      match: { model: "judge" },
      reply: { json: { drug: "venetoclax" }, usage: { prompt_tokens: 300, completion_tokens: 10 } },
      repeat: true,
    },
  ]);
}

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-show-"));
  const bench = Benchmark.create({ name: "cli-show" });
  const texts = [
    "Which drug inhibits BCL2? (0)",
    "Name the BCL2 inhibitor (1)",
    "Which drug targets BCL2? (2)",
  ];
  texts.forEach((text, i) => {
    bench.addQuestion(text, "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: TEMPLATE,
      keywords: ["bcl2"],
    });
  });
  bench.addGlobalRubricTrait({ type: "regex", name: "names_venetoclax", pattern: "Venetoclax" });
  await bench.save(file("bench.jsonld"));
  const server = await scriptedServer();
  try {
    for (const output of ["run.jsonl", "run.json"]) {
      const { code, err } = await runKarenina(
        "verify",
        file("bench.jsonld"),
        "-a",
        `openai_endpoint:answerer@${server.baseURL}`,
        "-p",
        `openai_endpoint:judge@${server.baseURL}`,
        "--mode",
        "template_and_rubric",
        "-o",
        file(output),
        ...(output === "run.jsonl" ? ["--db", file("karenina.db")] : []),
        "--no-progress",
        "--no-preflight",
      );
      expect(code, err).toBe(EXIT.ok);
    }
  } finally {
    await server.close();
  }
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("karenina show RUN QUESTION", () => {
  test("prints the question, the response, the parsed fields against the ground truth, the verdict, rubric scores, the failure and tokens", async () => {
    const { code, out } = await runKarenina("show", file("run.jsonl"), "Which drug targets");
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/run\.jsonl: JSONL run log, run run_[0-9a-f]{8}\n/);
    expect(out).toContain(
      "question #2 of 3: q2\n  Which drug targets BCL2? (2)\n  expected answer: venetoclax",
    );
    expect(out).toContain("result 1 of 1: openai_endpoint:answerer | openai_endpoint:judge");
    expect(out).toContain("  verdict   FAILED  content: verify_template returned False");
    expect(out).toContain("  response\n    --- AI Message ---\n    Ibrutinib, taken\n    with food.\n");
    expect(out).toMatch(
      /\n {4}field +parsed \(judge\) +ground truth +match\n {4}drug +"ibrutinib" +"venetoclax" +no\n/,
    );
    expect(out).toMatch(/\n {4}names_venetoclax +regex +false\n/);
    expect(out).toContain("  failure   content at verify_template: verify_template returned False");
    expect(out).toMatch(/ {2}tokens {4}400 in \/ 30 out {2}\(.*answer.*100\/20 answerer.*300\/10 judge/);
  });

  test("a passing result shows PASSED and its fields matching", async () => {
    const { code, out } = await runKarenina("show", file("run.jsonl"), "q0");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("  verdict   PASSED\n");
    expect(out).toMatch(/\n {4}drug +"venetoclax" +"venetoclax" +yes\n/);
    expect(out).not.toContain("failure");
  });

  test("the # names the same question in the run log, its JSON export and the stored run", async () => {
    const fromLog = await runKarenina("show", file("run.jsonl"), "1", "--json");
    const fromExport = await runKarenina("show", file("run.json"), "1", "--json");
    const fromDb = await runKarenina(
      "show",
      "--db",
      file("karenina.db"),
      JSON.parse(fromLog.out).results[0].metadata.run_name,
      "1",
      "--json",
    );
    for (const { code, out } of [fromLog, fromExport, fromDb]) {
      expect(code).toBe(EXIT.ok);
      expect(JSON.parse(out).question).toEqual({
        index: 1,
        id: "q0",
        text: "Which drug inhibits BCL2? (0)",
        raw_answer: "venetoclax",
      });
    }
    const results = await runKarenina("results", file("run.jsonl"), "--by", "question");
    expect(results.out).toMatch(/\n {2}1 {2}q0 +1 +1 +0 +100\.0%\n/);
  });

  test("--json prints the source, the question and its results as the run log holds them", async () => {
    const { code, out } = await runKarenina("show", file("run.jsonl"), "q2", "--json");
    expect(code).toBe(EXIT.ok);
    const shown = JSON.parse(out) as { source: string; results: VerificationResult[] };
    expect(shown.source).toBe(file("run.jsonl"));
    expect(shown.results).toHaveLength(1);
    expect(shown.results[0]?.template?.parsed_llm_response).toEqual({ drug: "ibrutinib" });
    expect(shown.results[0]?.metadata.failure?.category).toBe("content");
  });

  test("an ambiguous or unknown question, or filters matching nothing, exit 2 with the candidates", async () => {
    const ambiguous = await runKarenina("show", file("run.jsonl"), "which drug");
    expect(ambiguous.code).toBe(EXIT.usage);
    expect(ambiguous.err).toContain(`"which drug" is the start of 2 questions' text`);
    expect(ambiguous.err).toContain("  2  q2  Which drug targets BCL2? (2)");
    const unknown = await runKarenina("show", file("run.jsonl"), "q9");
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.err).toContain(`no question matches "q9" by id, index (indexes 0 to 2)`);
    const filtered = await runKarenina("show", file("run.jsonl"), "q0", "--model", "gpt-5");
    expect(filtered.code).toBe(EXIT.usage);
    expect(filtered.err).toContain("model pairs: openai_endpoint:answerer | openai_endpoint:judge");
    const missing = await runKarenina("show", file("nosuch.jsonl"), "0");
    expect(missing.code).toBe(EXIT.usage);
  });

  test("--help explains the arguments and shows examples", async () => {
    const { code, out } = await runKarenina("show", "--help");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("Usage: karenina show [options] <run> <question>");
    expect(out).toContain("karenina show run.jsonl 3");
    expect(out).toContain("--json");
    expect(out).toContain("sorted by their text");
  });
});

describe("karenina show, results from elsewhere", () => {
  test("a failure shows its category, its reason in a few words and the full error", async () => {
    const failed = row({
      question: "q-dead",
      questionText: "Which drug inhibits BCL2?",
      failure: {
        category: "connection",
        stage: "GenerateAnswer",
        reason: "connection retries exhausted",
      },
    });
    failed.metadata.failure = {
      ...(failed.metadata.failure as NonNullable<VerificationResult["metadata"]["failure"]>),
      details: {
        error_message:
          "Adapter call failed: LlmCallError: LLM call to x failed: Cannot connect to API: connect ECONNREFUSED 127.0.0.1:59999",
      },
    };
    const log = file("dead.jsonl");
    await writeFile(log, `${JSON.stringify(failed)}\n`);
    const { code, out } = await runKarenina("show", log, "0");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("  verdict   FAILED  connection: ECONNREFUSED 127.0.0.1:59999");
    expect(out).toContain("  response\n    (none: no answer was generated)");
    expect(out).toContain("  parsed fields  none (the answer was not parsed)");
    expect(out).toContain("  failure   connection (retry) at GenerateAnswer: connection retries exhausted");
    expect(out).toContain(
      "    Adapter call failed: LlmCallError: LLM call to x failed: Cannot connect to API",
    );
  });

  test("escape sequences in a response, a question or a field are shown escaped, never sent to the terminal", async () => {
    const hostile = row({
      question: "q\u001b[2J",
      questionText: "Which drug?\u001b]0;owned\u0007",
      verify: true,
    });
    const template = hostile.template as NonNullable<VerificationResult["template"]>;
    template.raw_llm_response = "Venetoclax.\u001b[1A\u001b[2K PASSED";
    template.parsed_llm_response = { "drug\u001b[31m": "venetoclax\u009b2J" };
    template.parsed_gt_response = { "drug\u001b[31m": "venetoclax" };
    const log = file("hostile.jsonl");
    await writeFile(log, `${JSON.stringify(hostile)}\n`);
    const { code, out } = await runKarenina("show", log, "0");
    expect(code).toBe(EXIT.ok);
    for (const control of ["\u001b", "\u0007", "\u009b"]) expect(out).not.toContain(control);
    expect(out).toContain("Venetoclax.\\x1b[1A\\x1b[2K PASSED");
    expect(out).toContain("question #0 of 1: q\\x1b[2J");
    expect(out).toContain("drug\\x1b[31m");
    const table = await runKarenina("results", log, "--by", "question");
    expect(table.code).toBe(EXIT.ok);
    expect(table.out).not.toContain("\u001b");
    expect(table.out).toContain("q\\x1b[2J");
  });
});
