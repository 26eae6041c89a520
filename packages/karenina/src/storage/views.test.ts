/**
 * The original's SQL views (spec 06 §4.3) and `benchmark_questions.original_answer_template` (spec 06 §4.2),
 * read with plain SQL as an outside tool would, on a SQLite file and on PostgreSQL: both dialects must give
 * the same rows.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import { parseVerificationResult, type VerificationResult } from "../results/index.js";
import { rawQuery, storagesPerTest, storageTargets, tempDir } from "./__fixtures__/databases.js";
import { manyResults, richResult, timedOutResult } from "./__fixtures__/results.js";
import { VIEW_NAMES } from "./views.js";

const targets = storageTargets();

const TEMPLATE_V1 = `class Answer(BaseAnswer):
    target: str = Field(description="The protein")

    def model_post_init(self, __context):
        self.correct = {"target": "BCL2"}

    def verify(self) -> bool:
        return self.target == self.correct["target"]
`;
const TEMPLATE_V2 = TEMPLATE_V1.replace("The protein", "The protein the drug inhibits");

/** A result whose ground truth has one attribute of every JSON type. */
function typedResult(): VerificationResult {
  const base = richResult({ questionId: "q2", timestamp: "2026-04-22 08:30:00" });
  return parseVerificationResult({
    ...base,
    template: {
      ...base.template,
      parsed_gt_response: { dose: 5, ratio: 0.25, ok: true, tags: ["a"], extra: { k: 1 }, none: null },
      parsed_llm_response: { dose: 5, ratio: 0.5, ok: true, tags: ["a"] },
    },
  });
}

/** Rows sorted by their JSON text, for comparing sets of rows whatever order the database gives. */
const sorted = (rows: Record<string, unknown>[]) =>
  [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe.each(targets)("views and original templates on $name", (target) => {
  const stores = storagesPerTest(target);
  const open = stores.open;

  /** A benchmark "bench" with q1, q2, q3 and one run "nightly" holding the given results. */
  async function storedRun(results: VerificationResult[]): Promise<string> {
    const storage = await open();
    const bench = Benchmark.create({ name: "bench" });
    for (const id of ["q1", "q2", "q3"]) bench.addQuestion(`Question ${id}?`, "BCL2", { questionId: id });
    await storage.saveBenchmark(bench);
    const run = await storage.startRun({ runName: "nightly", benchmarkName: "bench" });
    await storage.saveResults(run.id, results);
    return run.id;
  }

  const query = (sql: string) => rawQuery(stores.url, sql);

  describe("original_answer_template", () => {
    const originals = () =>
      query("SELECT question_id, answer_template, original_answer_template FROM benchmark_questions");

    test("is the template as first saved; a later save changes the template and keeps the original", async () => {
      const storage = await open();
      const bench = Benchmark.create({ name: "bench" });
      bench.addQuestion("Which protein does venetoclax inhibit?", "BCL2", {
        questionId: "q1",
        answerTemplate: TEMPLATE_V1,
      });
      await storage.saveBenchmark(bench);
      expect(await originals()).toEqual([
        { question_id: "q1", answer_template: TEMPLATE_V1, original_answer_template: TEMPLATE_V1 },
      ]);
      await bench.updateTemplate("q1", TEMPLATE_V2);
      await storage.saveBenchmark(bench);
      expect(await originals()).toEqual([
        { question_id: "q1", answer_template: TEMPLATE_V2, original_answer_template: TEMPLATE_V1 },
      ]);
      // Loading gives back the benchmark as saved last.
      expect((await storage.loadBenchmark("bench")).getQuestion("q1").answer_template).toBe(TEMPLATE_V2);
    });

    test("a checkpoint naming its original_answer_template (as the original's GUI writes it) stores that one", async () => {
      const storage = await open();
      const bench = Benchmark.create({ name: "bench" });
      bench.addQuestion("Which protein?", "BCL2", { questionId: "q1", answerTemplate: TEMPLATE_V2 });
      const file = join(await tempDir(), "gui.jsonld");
      await bench.save(file);
      const doc = JSON.parse(await readFile(file, "utf8"));
      doc.dataFeedElement[0].item.additionalProperty = [
        ...(doc.dataFeedElement[0].item.additionalProperty ?? []),
        { "@type": "PropertyValue", name: "original_answer_template", value: TEMPLATE_V1 },
      ];
      await writeFile(file, JSON.stringify(doc));
      await storage.saveBenchmark(await Benchmark.load(file));
      expect(await originals()).toEqual([
        { question_id: "q1", answer_template: TEMPLATE_V2, original_answer_template: TEMPLATE_V1 },
      ]);
    });
  });

  test("every view of spec 06 §4.3 exists", async () => {
    await open();
    expect(VIEW_NAMES).toEqual([
      "template_results_view",
      "models_used_view",
      "template_attributes_view",
      "question_attributes_view",
      "results_metadata_view",
      "raw_llm_answers_view",
      "rubric_traits_view",
      "deep_judgment_rubric_traits_view",
      "result_mcp_servers_view",
      "result_tools_used_view",
      "combination_info_view",
    ]);
    for (const view of VIEW_NAMES) expect(await query(`SELECT * FROM ${view}`)).toEqual([]);
  });

  test("template_attributes_view: each ground-truth attribute beside the extracted value", async () => {
    const passed = richResult({ questionId: "q1", questionText: "Quelle cible ? 靶点" });
    const failed = richResult({ questionId: "q2", passed: false });
    await storedRun([passed, failed, timedOutResult("q3")]);
    const rows = await query(
      "SELECT result_id, verification_date, run_name, benchmark_name, question_id, question_text, " +
        "attribute_name, gt_value, llm_value, attribute_match FROM template_attributes_view",
    );
    const common = { verification_date: "2026-04-21", run_name: "nightly", benchmark_name: "bench" };
    expect(sorted(rows)).toEqual(
      sorted([
        {
          ...common,
          result_id: passed.metadata.result_id,
          question_id: "q1",
          question_text: "Quelle cible ? 靶点",
          attribute_name: "target",
          gt_value: "BCL2",
          llm_value: "BCL2",
          attribute_match: 1,
        },
        {
          ...common,
          result_id: passed.metadata.result_id,
          question_id: "q1",
          question_text: "Quelle cible ? 靶点",
          attribute_name: "correct",
          gt_value: '{"target":"BCL2"}',
          llm_value: null,
          attribute_match: 0,
        },
        {
          ...common,
          result_id: failed.metadata.result_id,
          question_id: "q2",
          question_text: failed.metadata.question_text,
          attribute_name: "target",
          gt_value: "BCL2",
          llm_value: "MCL1",
          attribute_match: 0,
        },
        {
          ...common,
          result_id: failed.metadata.result_id,
          question_id: "q2",
          question_text: failed.metadata.question_text,
          attribute_name: "correct",
          gt_value: '{"target":"BCL2"}',
          llm_value: null,
          attribute_match: 0,
        },
      ]),
    );
  });

  test("template_attributes_view compares values of every JSON type by their text", async () => {
    await storedRun([typedResult()]);
    const rows = await query(
      "SELECT attribute_name, gt_value, llm_value, attribute_match FROM template_attributes_view",
    );
    expect(sorted(rows)).toEqual(
      sorted([
        { attribute_name: "dose", gt_value: "5", llm_value: "5", attribute_match: 1 },
        { attribute_name: "ratio", gt_value: "0.25", llm_value: "0.5", attribute_match: 0 },
        { attribute_name: "ok", gt_value: "true", llm_value: "true", attribute_match: 1 },
        { attribute_name: "tags", gt_value: '["a"]', llm_value: '["a"]', attribute_match: 1 },
        { attribute_name: "extra", gt_value: '{"k":1}', llm_value: null, attribute_match: 0 },
        { attribute_name: "none", gt_value: null, llm_value: null, attribute_match: 0 },
      ]),
    );
  });

  test("question_attributes_view: each attribute once per question, with its Python type", async () => {
    await storedRun([
      typedResult(),
      richResult({ questionId: "q1" }),
      richResult({ questionId: "q1", replicate: 2 }),
    ]);
    const rows = await query(
      "SELECT benchmark_name, question_id, attribute_name, attribute_type FROM question_attributes_view",
    );
    const q2 = (attribute_name: string, attribute_type: string) => ({
      benchmark_name: "bench",
      question_id: "q2",
      attribute_name,
      attribute_type,
    });
    expect(sorted(rows)).toEqual(
      sorted([
        { benchmark_name: "bench", question_id: "q1", attribute_name: "target", attribute_type: "str" },
        { benchmark_name: "bench", question_id: "q1", attribute_name: "correct", attribute_type: "dict" },
        q2("dose", "int"),
        q2("ratio", "float"),
        q2("ok", "bool"),
        q2("tags", "list"),
        q2("extra", "dict"),
        q2("none", "None"),
      ]),
    );
  });

  test("results_metadata_view: tokens, agent metrics, flags and the failure of each result", async () => {
    const passed = richResult({ questionId: "q1" });
    const failed = richResult({ questionId: "q2", passed: false });
    const timedOut = timedOutResult("q3");
    await storedRun([passed, failed, timedOut]);
    const rows = await query("SELECT * FROM results_metadata_view");
    const full = {
      has_template_results: 1,
      has_rubric_results: 1,
      execution_time: 2.75,
      timestamp: "2026-04-21 12:00:00",
      input_tokens: 420,
      output_tokens: 60,
      total_tokens: 480,
      agent_iterations: 3,
      agent_tool_calls: 2,
      has_mcp: 1,
      used_full_trace: 0,
      has_trace_extraction_error: 0,
      abstention_detected: null,
      abstention_reasoning: null,
      embedding_check_performed: 1,
      recursion_limit_reached: 0,
    };
    expect(sorted(rows)).toEqual(
      sorted([
        {
          result_id: passed.metadata.result_id,
          ...full,
          metadata_failure_category: null,
          metadata_failure_group: null,
          metadata_failure_stage: null,
          metadata_failure_reason: null,
          metadata_caveats: "[]",
        },
        {
          result_id: failed.metadata.result_id,
          ...full,
          metadata_failure_category: "content",
          metadata_failure_group: failed.metadata.failure?.group,
          metadata_failure_stage: "verify_template",
          metadata_failure_reason: "target: expected BCL2, found MCL1",
          metadata_caveats: '["retries_used"]',
        },
        {
          result_id: timedOut.metadata.result_id,
          has_template_results: 0,
          has_rubric_results: 0,
          execution_time: 60.5,
          timestamp: "2026-04-21 12:00:05",
          input_tokens: null,
          output_tokens: null,
          total_tokens: null,
          agent_iterations: null,
          agent_tool_calls: null,
          has_mcp: 0,
          used_full_trace: 1,
          has_trace_extraction_error: 0,
          abstention_detected: null,
          abstention_reasoning: null,
          embedding_check_performed: 0,
          recursion_limit_reached: 0,
          metadata_failure_category: "timeout",
          metadata_failure_group: timedOut.metadata.failure?.group,
          metadata_failure_stage: "generate_answer",
          metadata_failure_reason: "no answer within 60 s",
          metadata_caveats: "[]",
        },
      ]),
    );
  });

  test("raw_llm_answers_view: results with an answer only", async () => {
    const passed = richResult({ questionId: "q1" });
    await storedRun([passed, timedOutResult("q3")]);
    expect(await query("SELECT * FROM raw_llm_answers_view")).toEqual([
      {
        result_id: passed.metadata.result_id,
        question_id: "q1",
        raw_llm_response: "Venetoclax inhibits BCL2 — the anti-apoptotic protein.",
      },
    ]);
  });

  test("rubric_traits_view: every trait of every kind, scores as text", async () => {
    const passed = richResult({ questionId: "q1" });
    await storedRun([passed, timedOutResult("q3")]);
    const rows = await query("SELECT result_id, trait_name, trait_type, score FROM rubric_traits_view");
    const row = (trait_name: string, trait_type: string, score: string | null) => ({
      result_id: passed.metadata.result_id,
      trait_name,
      trait_type,
      score,
    });
    expect(sorted(rows)).toEqual(
      sorted([
        row("clarity", "llm", "4"),
        row("safe", "llm", "true"),
        row("tone", "llm", "2"),
        row("cites_pmid", "regex", "false"),
        row("short_enough", "callable", "true"),
        row("coverage", "metric", '{"precision":1,"recall":0.5,"f1":0.6666666666666666}'),
        row("looked_up_sources", "agentic", "true"),
        row("failed_trait", "agentic", null),
      ]),
    );
  });

  test("deep_judgment_rubric_traits_view: deep-judgment and standard scores, told apart", async () => {
    const passed = richResult({ questionId: "q1" });
    await storedRun([passed]);
    const rows = await query("SELECT * FROM deep_judgment_rubric_traits_view");
    expect(sorted(rows)).toEqual(
      sorted([
        {
          result_id: passed.metadata.result_id,
          trait_name: "clarity",
          trait_type: "llm",
          score: "4",
          is_deep_judgment: 1,
        },
        {
          result_id: passed.metadata.result_id,
          trait_name: "safe",
          trait_type: "llm",
          score: "true",
          is_deep_judgment: 0,
        },
      ]),
    );
  });

  test("result_mcp_servers_view and result_tools_used_view: servers attached and tools called", async () => {
    const passed = richResult({ questionId: "q1" });
    await storedRun([passed, timedOutResult("q3")]);
    expect(await query("SELECT * FROM result_mcp_servers_view")).toEqual([
      { result_id: passed.metadata.result_id, mcp_server: "pubmed" },
    ]);
    expect(await query("SELECT * FROM result_tools_used_view")).toEqual([
      { result_id: passed.metadata.result_id, tool_name: "pubmed_search" },
    ]);
  });

  test("combination_info_view: one row per model pair of a run, with MCP use and replicates", async () => {
    const runId = await storedRun([
      richResult({ questionId: "q1" }),
      timedOutResult("q3"),
      ...manyResults(["q1", "q2"], 4, { answeringModel: "other-model" }),
    ]);
    const rows = await query("SELECT * FROM combination_info_view");
    const combination = { run_id: runId, run_name: "nightly", answering_interface: "openai_endpoint" };
    expect(sorted(rows)).toEqual(
      sorted([
        {
          ...combination,
          answering_model: "gpt-4.1-mini",
          parsing_interface: "openai_endpoint",
          parsing_model: "judge-mini",
          has_mcp: 1,
          replicate_count: 1,
        },
        {
          ...combination,
          answering_model: "other-model",
          parsing_interface: "openai_endpoint",
          parsing_model: "judge-mini",
          has_mcp: 1,
          replicate_count: 4,
        },
      ]),
    );
  });
});
