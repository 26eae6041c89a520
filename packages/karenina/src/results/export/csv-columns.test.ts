/**
 * The job CSV export compared column by column with what the original's exporter writes for the same rows
 * (spec 06 §2.2; the original's `export_verification_results_csv`: `_safe_json_serialize` for complex cells,
 * `x or ""` for optional scalars, `0` for the deep-judgment counters of an absent section, Python's csv writer
 * for booleans and numbers). The rows are the conformance fixture's (written by the original) and crafted ones;
 * every expected cell below was written by hand from reading that exporter and the spec.
 */
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { conformancePath, hasConformance, SKIP_REASON } from "../../test-support/conformance.js";
import { row } from "./__fixtures__/rows.js";
import { exportResultsCsv, exportResultsJson, parseResultsCsv, parseResultsJson } from "./index.js";

const file = {
  job_id: "job-fixture-001",
  export_timestamp: "2026-04-21 12:00:00 UTC",
  karenina_version: "0.1.0",
};

/** Every record of a CSV as a column → cell map, with the header. */
function records(csv: string): { header: string[]; rows: Record<string, string>[] } {
  const [header = [], ...rest] = parse(csv) as string[][];
  return {
    header,
    rows: rest.map((cells) => Object.fromEntries(header.map((name, at) => [name, cells[at] ?? ""]))),
  };
}

/**
 * The cells the original writes for a verified row without rubric, deep judgment, embedding check, usage or
 * agent, in the order of its columns (the three texts are the row's own).
 */
const PLAIN: Record<string, string> = {
  question_id: "",
  success: "True",
  error: "",
  question_text: "",
  raw_llm_response: "",
  parsed_gt_response: "",
  parsed_llm_response: "",
  template_verification_performed: "True",
  verify_result: "true",
  verify_granular_result: "",
  rubric_evaluation_performed: "False",
  keywords: "",
  answering_model: "langchain:gpt-4o",
  parsing_model: "langchain:gpt-4o",
  replicate: "",
  execution_time: "0.25",
  timestamp: "2026-04-21T12:00:00+00:00",
  answering_system_prompt: "",
  parsing_system_prompt: "",
  run_name: "",
  export_timestamp: "2026-04-21 12:00:00 UTC",
  karenina_version: "0.1.0",
  job_id: "job-fixture-001",
  embedding_check_performed: "False",
  embedding_similarity_score: "",
  embedding_override_applied: "False",
  embedding_model_used: "",
  answering_mcp_servers: "",
  deep_judgment_mode: "",
  deep_judgment_performed: "False",
  extracted_excerpts: "",
  attribute_reasoning: "",
  deep_judgment_stages_completed: "",
  deep_judgment_model_calls: "0",
  deep_judgment_excerpt_retry_count: "0",
  attributes_without_excerpts: "",
  deep_judgment_search_enabled: "False",
  hallucination_risk_assessment: "",
  deep_judgment_rubric_performed: "False",
  extracted_rubric_excerpts: "",
  rubric_trait_reasoning: "",
  deep_judgment_rubric_scores: "",
  standard_rubric_scores: "",
  trait_metadata: "",
  traits_without_valid_excerpts: "",
  rubric_hallucination_risk_assessment: "",
  total_deep_judgment_model_calls: "0",
  total_traits_evaluated: "0",
  total_excerpt_retries: "0",
  metric_trait_confusion_lists: "",
  metric_trait_metrics: "",
  usage_metadata: "",
  agent_metrics: "",
};

const ORIGINAL_COLUMNS = Object.keys(PLAIN);

describe.skipIf(!hasConformance)(
  `the conformance rows, column by column (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    async function fixtureRows() {
      const text = await readFile(conformancePath("export_format/results_export_full.json"), "utf8");
      return parseResultsJson(text).results;
    }

    test("every column of both rows is the cell the original's exporter writes", async () => {
      const { header, rows } = records(exportResultsCsv(await fixtureRows(), { metadata: file }));
      expect(header).toEqual(ORIGINAL_COLUMNS);
      const expected: Record<string, string>[] = [
        {
          ...PLAIN,
          question_id: "q-unicode",
          question_text: "Qu'est-ce que la température idéale du café? 咖啡的理想温度是多少?",
          raw_llm_response: "raw response for q-unicode",
        },
        {
          ...PLAIN,
          question_id: "q-timeout",
          success: "False",
          error: "timeout exceeded",
          question_text: "Second question",
          raw_llm_response: "raw response for q-timeout",
        },
      ];
      for (const [index, cells] of rows.entries()) {
        for (const column of header) {
          expect({ row: index, column, cell: cells[column] }).toEqual({
            row: index,
            column,
            cell: expected[index]?.[column],
          });
        }
      }
    });

    test("the CSV and the JSON export of the same rows agree on every value the CSV keeps", async () => {
      const rows = await fixtureRows();
      const json = parseResultsJson(exportResultsJson(rows, { metadata: file })).results;
      const csv = parseResultsCsv(exportResultsCsv(rows, { metadata: file })).results;
      for (const [index, fromJson] of json.entries()) {
        const fromCsv = csv[index];
        expect(fromCsv?.metadata.question_id).toBe(fromJson.metadata.question_id);
        expect(fromCsv?.metadata.result_id).toBe(fromJson.metadata.result_id);
        expect(fromCsv?.metadata.failure?.reason ?? null).toBe(fromJson.metadata.failure?.reason ?? null);
        expect(fromCsv?.template).toEqual(fromJson.template);
        expect([fromCsv?.deep_judgment, fromCsv?.deep_judgment_rubric]).toEqual([null, null]);
      }
    });
  },
);

describe("the deep-judgment counters", () => {
  const counters = [
    "deep_judgment_model_calls",
    "deep_judgment_excerpt_retry_count",
    "total_deep_judgment_model_calls",
    "total_traits_evaluated",
    "total_excerpt_retries",
  ];

  test("are 0, not empty, when deep judgment is off; a section's own counts are written as they are", () => {
    const csv = exportResultsCsv(
      [
        row("off"),
        row("on", {
          deep_judgment: {
            deep_judgment_mode: "full",
            deep_judgment_performed: true,
            deep_judgment_model_calls: 3,
          },
          deep_judgment_rubric: {
            deep_judgment_rubric_performed: true,
            total_deep_judgment_model_calls: 4,
            total_traits_evaluated: 2,
            total_excerpt_retries: 0,
          },
        }),
      ],
      { metadata: file },
    );
    const [off, on] = records(csv).rows;
    expect(counters.map((column) => off?.[column])).toEqual(["0", "0", "0", "0", "0"]);
    expect(counters.map((column) => on?.[column])).toEqual(["3", "0", "4", "2", "0"]);
    expect([on?.deep_judgment_mode, on?.deep_judgment_performed, on?.deep_judgment_rubric_performed]).toEqual(
      ["full", "True", "True"],
    );
  });

  test("a 0 counter reads back as no deep-judgment section, and a counted one as a section", () => {
    const csv = exportResultsCsv(
      [row("off"), row("on", { deep_judgment_rubric: { total_traits_evaluated: 2 } })],
      { metadata: file },
    );
    const [off, on] = parseResultsCsv(csv).results;
    expect([off?.deep_judgment, off?.deep_judgment_rubric]).toEqual([null, null]);
    expect(on?.deep_judgment_rubric?.total_traits_evaluated).toBe(2);
  });
});
