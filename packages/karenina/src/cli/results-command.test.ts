import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { ORIGINAL_SUMMARY_KEYS } from "../results/__fixtures__/original-summary-keys.js";
import { row } from "../results/__fixtures__/rows.js";
import { type ResultSummary, type RunComparison, writeResultsJson } from "../results/index.js";
import { conformancePath, hasConformance } from "../test-support/conformance.js";
import { type OpenAiTestServer, startOpenAiServer } from "../test-support/openai-server/index.js";
import { type CliIo, EXIT } from "./cli-io.js";
import { runCli } from "./program.js";

const TEMPLATE = `from karenina.schemas.entities import BaseAnswer, VerifiedField, ExactMatch


class Answer(BaseAnswer):
    drug: str = VerifiedField(description='The drug the response names', ground_truth='venetoclax', verify_with=ExactMatch(normalize=["lowercase", "strip"]))
`;

const ANSWERER = "gpt-4.1-mini";
const JUDGE = "gpt-4.1-nano";
const PAIR = `openai_endpoint:${ANSWERER} | openai_endpoint:${JUDGE}`;

/**
 * A scripted server whose answerer names ibrutinib (wrong) for the questions whose text includes one of
 * `wrong`, venetoclax (right) for the others. Hand-written test replies, not output of any model; the token
 * counts are made up so that costs come out round: per result, 1000 + 500 tokens of gpt-4.1-mini ($0.0012)
 * and 2000 + 100 of gpt-4.1-nano ($0.00024).
 */
function scriptedServer(wrong: readonly string[]): Promise<OpenAiTestServer> {
  const answer = { prompt_tokens: 1000, completion_tokens: 500 };
  const judge = { prompt_tokens: 2000, completion_tokens: 100 };
  return startOpenAiServer([
    ...wrong.map((marker) => ({
      match: { model: ANSWERER, lastUserIncludes: marker },
      reply: { text: "Ibrutinib.", usage: answer },
      repeat: true,
    })),
    { match: { model: ANSWERER }, reply: { text: "Venetoclax.", usage: answer }, repeat: true },
    {
      match: { model: JUDGE, lastUserIncludes: "Ibrutinib" },
      reply: { json: { drug: "ibrutinib" }, usage: judge },
      repeat: true,
    },
    { match: { model: JUDGE }, reply: { json: { drug: "venetoclax" }, usage: judge }, repeat: true },
  ]);
}

let dir: string;
const file = (name: string) => join(dir, name);

/** `karenina verify` of the 3-question benchmark, 2 replicates, template and rubric, against `server`. */
async function verify(server: OpenAiTestServer, output: string): Promise<void> {
  const { code, err } = await run(
    runCli,
    "verify",
    file("bench.jsonld"),
    "-a",
    `openai_endpoint:${ANSWERER}@${server.baseURL}`,
    "-p",
    `openai_endpoint:${JUDGE}@${server.baseURL}`,
    "--replicates",
    "2",
    "--mode",
    "template_and_rubric",
    "-o",
    output,
    "--no-progress",
  );
  expect(code, err).toBe(EXIT.ok);
}

/** `karenina results ARGS`, through the real program. */
function results(args: readonly string[], io: CliIo): Promise<number> {
  return runCli(["results", ...args], io);
}

async function run(
  cli: (args: readonly string[], io: CliIo) => Promise<number>,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await cli(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const karenina = (...args: string[]) => run(results, ...args);

/** The line of `out` that starts (after its indentation) with `start`. */
function lineOf(out: string, start: string): string {
  const line = out.split("\n").find((candidate) => candidate.trimStart().startsWith(start));
  if (line === undefined) throw new Error(`no line starting with ${JSON.stringify(start)} in:\n${out}`);
  return line;
}

/** The whitespace-separated cells of a table line (a cell like "pass rate" splits in two). */
const cells = (line: string) => line.trim().split(/\s+/);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-cli-results-"));
  const bench = Benchmark.create({ name: "cli-results" });
  const keywords = [["oncology"], ["oncology", "hematology"], ["hematology"]];
  for (let i = 0; i < 3; i++) {
    bench.addQuestion(`Which drug inhibits BCL2? (${i})`, "venetoclax", {
      questionId: `q${i}`,
      answerTemplate: TEMPLATE,
      keywords: keywords[i] ?? null,
    });
  }
  bench.addGlobalRubricTrait({ type: "regex", name: "names_venetoclax", pattern: "Venetoclax" });
  await bench.save(file("bench.jsonld"));
  // Run A: q2 answered wrong. Run B: q0 and q1 answered wrong, q2 right.
  const before = await scriptedServer(["(2)"]);
  const after = await scriptedServer(["(0)", "(1)"]);
  try {
    await verify(before, file("a.jsonl"));
    await verify(before, file("a.json"));
    await verify(before, file("a.csv"));
    await verify(after, file("b.jsonl"));
  } finally {
    await before.close();
    await after.close();
  }
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("karenina results FILE", () => {
  test("summarizes a run log: results, passed, failed with categories, pass rate per model pair", async () => {
    const { code, out, err } = await karenina(file("a.jsonl"));
    expect(code).toBe(EXIT.ok);
    expect(err).toBe("");
    expect(out.split("\n")[0]).toMatch(/a\.jsonl: JSONL run log, run run_[0-9a-f]{8}$/);
    expect(lineOf(out, "results ")).toMatch(/results\s+6 {2}\(3 questions, 1 model pair, 2 replicates\)$/);
    expect(lineOf(out, "passed ")).toMatch(/passed\s+4$/);
    expect(lineOf(out, "failed ")).toMatch(/failed\s+2 {2}\(content 2\)$/);
    expect(lineOf(out, "pass rate ")).toMatch(/pass rate\s+66\.7%$/);
    expect(out).toContain("By model pair (answering | parsing)");
    expect(cells(lineOf(out, PAIR)).slice(-6)).toEqual(["6", "4", "2", "66.7%", "content", "2"]);
  });

  test("the columns of a table are aligned: numbers right-aligned under their headers", async () => {
    const { out } = await karenina(file("a.jsonl"));
    const header = lineOf(out, "model pair ");
    const pair = lineOf(out, PAIR);
    for (const [title, value] of [
      ["results", "6"],
      ["passed", "4"],
      ["failed", "2"],
      ["pass rate", "66.7%"],
    ] as const) {
      const end = header.indexOf(title) + title.length;
      expect(pair.slice(end - value.length, end), title).toBe(value);
    }
    expect(pair.indexOf("content 2")).toBe(header.indexOf("failures"));
  });

  test("rubric traits, replicate pass rates, pass@k, tokens and cost at the built-in prices", async () => {
    const { out } = await karenina(file("a.jsonl"));
    expect(cells(lineOf(out, "names_venetoclax"))).toEqual(
      "names_venetoclax regex global 6 true 4 of 6 (66.7%)".split(" "),
    );
    expect(out).toContain("Replicates (2): pass rate mean 66.7%, std 0.0 pp");
    const replicates = out.slice(out.indexOf("Replicates (2)"));
    expect(cells(lineOf(replicates, "1 "))).toEqual(["1", "3", "2", "66.7%"]);
    expect(cells(lineOf(replicates, "2 "))).toEqual(["2", "3", "2", "66.7%"]);
    // q0 and q1 pass both replicates, q2 neither: pass@1 = pass@2 = 2/3.
    expect(lineOf(out, "pass@k by model pair")).toBeDefined();
    const passAtK = out.split("\n").filter((line) => line.trimStart().startsWith(PAIR));
    expect(cells(passAtK[1] ?? "").slice(-3)).toEqual(["3", "66.7%", "66.7%"]);
    // 6 results × (1000 + 500 tokens of gpt-4.1-mini at $0.4/$1.6 per million, 2000 + 100 of gpt-4.1-nano at $0.1/$0.4).
    expect(out).toContain("Tokens and cost (6 results with usage; built-in list prices)");
    expect(cells(lineOf(out, "gpt-4.1-mini "))).toEqual(["gpt-4.1-mini", "6000", "3000", "$0.0072"]);
    expect(cells(lineOf(out, "gpt-4.1-nano "))).toEqual(["gpt-4.1-nano", "12000", "600", "$0.0014"]);
    expect(cells(lineOf(out, "total "))).toEqual(["total", "18000", "3600", "$0.0086"]);
  });

  test("--prices prices the models from a price file", async () => {
    const prices = file("prices.json");
    await writeFile(
      prices,
      JSON.stringify({ [ANSWERER]: { input_per_million: 10, output_per_million: 20 } }),
    );
    const { out } = await karenina(file("a.jsonl"), "--prices", prices);
    expect(cells(lineOf(out, "gpt-4.1-mini "))).toEqual(["gpt-4.1-mini", "6000", "3000", "$0.1200"]);
  });

  test("--by question and --by keyword add a pass-rate table per question or keyword", async () => {
    const byQuestion = await karenina(file("a.jsonl"), "--by", "question");
    expect(byQuestion.out).toContain("By model pair (answering | parsing)");
    expect(byQuestion.out).toContain("By question");
    expect(cells(lineOf(byQuestion.out, "0  q0 "))).toEqual(["0", "q0", "2", "2", "0", "100.0%"]);
    expect(cells(lineOf(byQuestion.out, "2  q2 "))).toEqual([
      "2",
      "q2",
      "2",
      "0",
      "2",
      "0.0%",
      "content",
      "2",
    ]);
    const byKeyword = await karenina(file("a.jsonl"), "--by", "keyword");
    expect(cells(lineOf(byKeyword.out, "oncology "))).toEqual(["oncology", "4", "4", "0", "100.0%"]);
    expect(cells(lineOf(byKeyword.out, "hematology "))).toEqual([
      "hematology",
      "4",
      "2",
      "2",
      "50.0%",
      "content",
      "2",
    ]);
    const bad = await karenina(file("a.jsonl"), "--by", "colour");
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain("model, question, keyword");
  });

  test("the JSON export and the CSV export of the same run read to the same counts", async () => {
    const json = await karenina(file("a.json"));
    expect(json.code).toBe(EXIT.ok);
    expect(json.out.split("\n")[0]).toMatch(/a\.json: JSON export \(format 2\.2, job run_[0-9a-f]{8}\)/);
    expect(cells(lineOf(json.out, PAIR)).slice(-6)).toEqual(["6", "4", "2", "66.7%", "content", "2"]);
    expect(cells(lineOf(json.out, "total "))).toEqual(["total", "18000", "3600", "$0.0086"]);
    const csv = await karenina(file("a.csv"));
    expect(csv.code).toBe(EXIT.ok);
    expect(csv.out).toContain("a.csv: CSV export");
    expect(csv.out).toContain("note: CSV keeps no failure categories (read as unexpected_error)");
    expect(cells(lineOf(csv.out, PAIR)).slice(-6)).toEqual(["6", "4", "2", "66.7%", "unexpected_error", "2"]);
    expect(cells(lineOf(csv.out, "total "))).toEqual(["total", "18000", "3600", "$0.0086"]);
  });

  test("--json prints the summary object, with costs", async () => {
    const { code, out } = await karenina(file("a.jsonl"), "--json");
    expect(code).toBe(EXIT.ok);
    const summary = JSON.parse(out) as ResultSummary;
    expect(summary.num_results).toBe(6);
    expect(summary.template_pass_overall).toMatchObject({ total: 6, passed: 4 });
    expect(summary.template_pass_by_combo?.[PAIR]).toMatchObject({ total: 6, passed: 4 });
    expect(summary.failures_by_category).toEqual({ content: 2 });
    expect(summary.template_pass_by_keyword.hematology).toMatchObject({ num_results: 4, passed: 2 });
    expect(summary.cost?.total_usd).toBeCloseTo(6 * (0.0012 + 0.00024), 10);
    expect(summary.pass_at_k[PAIR]?.pass_at_k).toEqual({ "1": 2 / 3, "2": 2 / 3 });
  });

  test("every kind of rubric trait, failures before verification, and rows without verification", async () => {
    // Crafted rows (hand-written test data): a rubric with score, literal, boolean and metric traits; a
    // verified pass and fail; a timeout before verification; a rubric-only row.
    const rubric = (clarity: number, tone: string, precision: number) => ({
      rubric_evaluation_performed: true,
      llm_trait_scores: { clarity, tone: tone === "formal" ? 1 : 0, concise: clarity > 3 },
      llm_trait_labels: { tone },
      metric_trait_scores: { entities: { precision, recall: 1 } },
    });
    const crafted = file("crafted.json");
    await writeResultsJson(
      crafted,
      [
        row({ question: "q1", verify: true, rubric: rubric(4, "formal", 1) }),
        row({ question: "q2", verify: false, rubric: rubric(2, "casual", 0.5) }),
        row({ question: "q3", failure: { category: "timeout" } }),
        row({ question: "q4", rubric: rubric(3, "formal", 0.75) }),
      ],
      { metadata: { job_id: "crafted" } },
    );
    const { code, out } = await karenina(crafted);
    expect(code).toBe(EXIT.ok);
    expect(lineOf(out, "failed ")).toMatch(/failed\s+2 {2}\(content 1, timeout 1\)$/);
    expect(lineOf(out, "passed ")).toMatch(/passed\s+1$/);
    expect(lineOf(out, "not verified ")).toMatch(/not verified\s+1/);
    // passed / (passed + failed): the timeout counts against the rate, the rubric-only row does not.
    expect(lineOf(out, "pass rate ")).toMatch(/pass rate\s+33\.3% {2}\(of the 3 passed or failed\)$/);
    expect(lineOf(out, "model pair ")).toContain("not verified");
    // results, passed, failed, not verified, pass rate, failures
    expect(cells(lineOf(out, "openai:answerer | openai:judge")).slice(-9)).toEqual(
      "4 1 2 1 33.3% content 1, timeout 1".split(" "),
    );
    expect(cells(lineOf(out, "clarity "))).toEqual("clarity llm global 3 mean 3.00, min 2, max 4".split(" "));
    expect(cells(lineOf(out, "tone "))).toEqual("tone llm global 3 formal 2, casual 1".split(" "));
    expect(cells(lineOf(out, "concise "))).toEqual("concise llm global 3 true 1 of 3 (33.3%)".split(" "));
    expect(cells(lineOf(out, "entities "))).toEqual(
      "entities metric global 3 mean precision 0.75, recall 1.00".split(" "),
    );
    expect(out).not.toContain("Replicates");
  });
});

describe("karenina results FILE --compare OTHER", () => {
  test("pass rates side by side, then the results whose verdict changed, with failure categories", async () => {
    const { code, out } = await karenina(file("a.jsonl"), "--compare", file("b.jsonl"));
    expect(code).toBe(EXIT.ok);
    expect(lineOf(out, "before:")).toContain("a.jsonl: JSONL run log, 6 results");
    expect(lineOf(out, "after:")).toContain("b.jsonl: JSONL run log, 6 results");
    expect(lineOf(out, "matched ")).toMatch(/matched\s+6 results \(only before 0, only after 0\)/);
    expect(lineOf(out, "pass rate ")).toMatch(/4\/6 66\.7% → 2\/6 33\.3% {2}\(-33\.3 pp, matched results\)/);
    expect(lineOf(out, "verdicts ")).toMatch(/4 pass → fail, 2 fail → pass, 0 unchanged/);
    expect(cells(lineOf(out, PAIR)).slice(-6)).toEqual(["4/6", "66.7%", "2/6", "33.3%", "-33.3", "pp"]);
    expect(out).toContain("Pass → fail (4)");
    expect(out).toContain("Fail → pass (2)");
    const lines = out.split("\n");
    const regressed = lines.slice(lines.indexOf("Pass → fail (4)") + 2, lines.indexOf("Pass → fail (4)") + 6);
    expect(regressed.map((line) => [cells(line)[0], cells(line).at(-2), cells(line).at(-1)])).toEqual([
      ["q0", "1", "content"],
      ["q0", "2", "content"],
      ["q1", "1", "content"],
      ["q1", "2", "content"],
    ]);
    const improved = lines.slice(lines.indexOf("Fail → pass (2)") + 2, lines.indexOf("Fail → pass (2)") + 4);
    expect(improved.every((line) => line.trimStart().startsWith("q2 ") && line.endsWith("  content"))).toBe(
      true,
    );
  });

  test("--by question adds each question's pass rate in both runs", async () => {
    const { out } = await karenina(file("a.jsonl"), "--compare", file("b.jsonl"), "--by", "question");
    expect(out).toContain("Pass rate by question");
    expect(cells(lineOf(out, "q0 "))).toEqual(["q0", "2/2", "100.0%", "0/2", "0.0%", "-100.0", "pp"]);
    expect(cells(lineOf(out, "q2 "))).toEqual(["q2", "0/2", "0.0%", "2/2", "100.0%", "+100.0", "pp"]);
  });

  test("--compare --json prints the comparison object", async () => {
    const { code, out } = await karenina(file("a.jsonl"), "--compare", file("b.jsonl"), "--json");
    expect(code).toBe(EXIT.ok);
    const comparison = JSON.parse(out) as RunComparison;
    expect(comparison.summary).toMatchObject({ matched: 6, pass_to_fail: 4, fail_to_pass: 2 });
    expect(comparison.by_combo[PAIR]?.pass_pct_delta).toBeCloseTo(-100 / 3, 10);
    expect(comparison.pass_to_fail.map((change) => change.after.failure_category)).toEqual(
      Array(4).fill("content"),
    );
  });
});

describe("karenina results: files it cannot use", () => {
  test("a missing file is named, whatever its kind, and exits 2", async () => {
    for (const name of ["missing.jsonl", "missing.json", "missing.csv"]) {
      const { code, out, err } = await karenina(file(name));
      expect(code).toBe(EXIT.usage);
      expect(out).toBe("");
      expect(err).toContain(`${file(name)}: cannot read the results file (no such file)`);
    }
    const other = await karenina(file("a.jsonl"), "--compare", file("missing.json"));
    expect(other.code).toBe(EXIT.usage);
    expect(other.err).toContain("missing.json: cannot read the results file");
  });

  test("corrupt files and files of another kind get an error naming the file", async () => {
    const cases: [name: string, text: string, message: string][] = [
      ["torn.json", '{"format_version": "2.2", "results": [', "not valid JSON at line 1"],
      ["garbage.jsonl", "not json\nat all\n", "not a JSONL run log: none of its 2 lines is JSON"],
      ["other.jsonl", '{"name": "not a result"}\n', "not a run log of verification results"],
      ["people.csv", "name,age\nAda,36\n", "not a results CSV export"],
    ];
    for (const [name, text, message] of cases) {
      await writeFile(file(name), text);
      const { code, err } = await karenina(file(name));
      expect(code, name).toBe(EXIT.usage);
      expect(err, name).toContain(`${file(name)}: `);
      expect(err, name).toContain(message);
    }
    const checkpoint = await karenina(file("bench.jsonld"));
    expect(checkpoint.code).toBe(EXIT.usage);
    expect(checkpoint.err).toContain("bench.jsonld: not a results file");
    expect(checkpoint.err).toContain("karenina checkpoint inspect");
  });

  test("a run log whose last line was cut short by a crash is read with a warning; an empty one has no results", async () => {
    const text = await readFile(file("a.jsonl"), "utf8");
    await writeFile(file("torn.jsonl"), `${text}{"metadata": {"question_id": "q`);
    const { code, out, err } = await karenina(file("torn.jsonl"));
    expect(code).toBe(EXIT.ok);
    expect(err).toContain("torn.jsonl: skipped a line that is not JSON");
    expect(lineOf(out, "results ")).toMatch(/results\s+6 /);
    await writeFile(file("empty.jsonl"), "");
    const empty = await karenina(file("empty.jsonl"));
    expect(empty.code).toBe(EXIT.ok);
    expect(empty.out).toBe(`${file("empty.jsonl")}: JSONL run log\n  no results\n`);
  });

  test("--help shows examples", async () => {
    const { code, out } = await karenina("--help");
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("karenina results before.jsonl --compare after.jsonl");
    expect(out).toContain("--by <grouping>");
  });
});

describe("karenina results: one definition of passed and failed", () => {
  test.skipIf(!hasConformance)(
    "the original's export: the timeout row whose verify_result is true is failed, never passed",
    async () => {
      const { code, out } = await karenina(conformancePath("export_format/results_export_full.json"));
      expect(code).toBe(EXIT.ok);
      expect(lineOf(out, "passed ")).toMatch(/passed\s+1$/);
      expect(lineOf(out, "failed ")).toMatch(/failed\s+1 {2}\(timeout 1\)$/);
      expect(lineOf(out, "pass rate ")).toMatch(/pass rate\s+50\.0%$/);
      // results, passed, failed, pass rate, failures
      expect(cells(lineOf(out, "langchain:gpt-4o | langchain:gpt-4o")).slice(-6)).toEqual(
        "2 1 1 50.0% timeout 1".split(" "),
      );
    },
  );

  test("--json: the summary has the original's get_summary() keys, and counts a failed row as failed", async () => {
    const crafted = file("failed-but-true.json");
    // Hand-written rows: two passes, and a row whose verification gave true before it timed out.
    await writeResultsJson(
      crafted,
      [
        row({ question: "q1", verify: true, usage: { answer_generation: { input: 10, output: 4 } } }),
        row({ question: "q2", verify: true, failure: { category: "timeout" } }),
        row({ question: "q3", verify: true, usage: { answer_generation: { input: 30, output: 6 } } }),
      ],
      { metadata: { job_id: "crafted" } },
    );
    const text = await karenina(crafted);
    expect(lineOf(text.out, "passed ")).toMatch(/passed\s+2$/);
    expect(lineOf(text.out, "failed ")).toMatch(/failed\s+1 {2}\(timeout 1\)$/);
    const { code, out } = await karenina(crafted, "--json");
    expect(code).toBe(EXIT.ok);
    const summary = JSON.parse(out) as ResultSummary;
    expect(Object.keys(summary).slice(0, ORIGINAL_SUMMARY_KEYS.length)).toEqual(ORIGINAL_SUMMARY_KEYS);
    expect(summary.outcomes).toMatchObject({
      passed: 2,
      failed: 1,
      not_evaluated: 0,
      pass_pct: (2 / 3) * 100,
    });
    expect(summary.template_pass_overall).toMatchObject({ total: 3, passed: 2 });
    expect(summary.tokens).toMatchObject({
      total_input: 40,
      median_per_question_input: 20,
      median_per_question_input_std: 10,
      median_per_question_output: 5,
      deep_judgment_input: null,
    });
    expect(summary.tokens_by_combo["openai:answerer | openai:judge"]).toMatchObject({
      input: 40,
      output: 10,
      total: 50,
    });
    expect([summary.rubric_traits, summary.tool_usage_stats, summary.trace_length_stats]).toEqual([
      null,
      null,
      null,
    ]);
  });
});

describe("the exports verify writes", () => {
  test("the JSON export's job_summary has the run's start_time, end_time and total_duration", async () => {
    const text = await readFile(file("a.json"), "utf8");
    const summary = JSON.parse(text).metadata.job_summary;
    expect(summary).toMatchObject({
      total_questions: 6,
      successful_count: 4,
      failed_count: 2,
      is_complete: true,
    });
    expect(typeof summary.start_time).toBe("number");
    expect(summary.end_time).toBeGreaterThanOrEqual(summary.start_time);
    expect(summary.start_time).toBeGreaterThan(1_700_000_000);
    expect(summary.total_duration).toBeCloseTo(summary.end_time - summary.start_time, 6);
  });

  test("the CSV export writes 0 for the deep-judgment counters of a run without deep judgment", async () => {
    const [header = "", first = ""] = (await readFile(file("a.csv"), "utf8")).split("\r\n");
    const columns = header.split(",");
    const cellsOf = first.split(",");
    for (const column of [
      "deep_judgment_model_calls",
      "deep_judgment_excerpt_retry_count",
      "total_deep_judgment_model_calls",
      "total_traits_evaluated",
      "total_excerpt_retries",
    ]) {
      expect({ column, cell: cellsOf[columns.indexOf(column)] }).toEqual({ column, cell: "0" });
    }
  });
});
