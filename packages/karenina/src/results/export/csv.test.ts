import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, test } from "vitest";
import { parseRubric } from "../../model/index.js";
import { conformancePath, hasConformance, SKIP_REASON } from "../../test-support/conformance.js";
import { thrown } from "../../test-support/thrown.js";
import { parseVerificationResult, type VerificationResult } from "../verification-result.js";
import { row } from "./__fixtures__/rows.js";
import {
  CSV_UNKNOWN_TEMPLATE_ID,
  exportResultsCsv,
  parseResultsCsv,
  parseResultsJson,
  ResultsFileError,
  ResultsRowError,
  readResultsCsv,
  writeResultsCsv,
} from "./index.js";

const metadata = { job_id: "job-1", export_timestamp: "2026-04-21 12:00:00 UTC", karenina_version: "0.1.0" };

/** The CSV's records, split without a CSV parser (fields here hold no quotes or line breaks). */
const lines = (csv: string) => csv.split("\r\n");

/** Header and one row as a column → cell map. */
function cellsOf(csv: string, index = 0): Record<string, string> {
  const parsed = parseCsv(csv);
  const header = parsed[0] ?? [];
  return Object.fromEntries(header.map((name, at) => [name, parsed[index + 1]?.[at] ?? ""]));
}

function parseCsv(csv: string): string[][] {
  return parse(csv) as string[][];
}

/** What a row looks like after CSV export and import: the fields the CSV does not keep, as import fills them. */
function afterCsv(result: VerificationResult): VerificationResult {
  const failure = result.metadata.failure;
  return parseVerificationResult({
    ...result,
    metadata: {
      ...result.metadata,
      template_id: CSV_UNKNOWN_TEMPLATE_ID,
      failure: failure && {
        category: "unexpected_error",
        stage: "unknown",
        reason: failure.reason,
        details: null,
      },
    },
  });
}

describe.skipIf(!hasConformance)(`the original's rows in CSV (${hasConformance ? "" : SKIP_REASON})`, () => {
  async function conformanceRows(): Promise<VerificationResult[]> {
    const text = await readFile(conformancePath("export_format/results_export_full.json"), "utf8");
    return parseResultsJson(text).results;
  }

  test("the two rows export with the job CSV's columns and encodings", async () => {
    const csv = exportResultsCsv(await conformanceRows(), { metadata });
    const [header, unicode, timeout, end] = lines(csv);
    expect(header?.split(",").slice(0, 13)).toEqual([
      "question_id",
      "success",
      "error",
      "question_text",
      "raw_llm_response",
      "parsed_gt_response",
      "parsed_llm_response",
      "template_verification_performed",
      "verify_result",
      "verify_granular_result",
      "rubric_evaluation_performed",
      "keywords",
      "answering_model",
    ]);
    expect(header?.split(",")).toHaveLength(53);
    expect(unicode).toBe(
      "q-unicode,True,,Qu'est-ce que la température idéale du café? 咖啡的理想温度是多少?,raw response for q-unicode,,,True,true,,False,,langchain:gpt-4o,langchain:gpt-4o,,0.25,2026-04-21T12:00:00+00:00,,,,2026-04-21 12:00:00 UTC,0.1.0,job-1,False,,False,,,,False,,,,0,0,,False,,False,,,,,,,,0,0,0,,,,",
    );
    expect(timeout?.startsWith("q-timeout,False,timeout exceeded,Second question,")).toBe(true);
    expect(end).toBe("");
  });

  test("the rows round-trip through CSV, losing only the template id and the failure's category and stage", async () => {
    const rows = await conformanceRows();
    const back = parseResultsCsv(exportResultsCsv(rows, { metadata }), "full.csv");
    expect(back.results).toEqual(rows.map(afterCsv));
    expect(back.results.map((r) => r.metadata.result_id)).toEqual(["ccb35805790e357a", "b60b6a00a978f080"]);
    expect(back.metadata).toEqual(metadata);
  });
});

describe("CSV export", () => {
  test("no rows: the short header only", () => {
    expect(exportResultsCsv([], { metadata })).toBe(
      "question_id,success,error,question_text,raw_llm_response,keywords,export_timestamp,karenina_version,job_id\r\n",
    );
  });

  test("complex values are JSON with non-ASCII escaped; falsy values, a false verdict and a 0 score are empty", () => {
    const csv = exportResultsCsv(
      [
        row("q1", {
          metadata: { keywords: ["café"], replicate: 0, run_name: "", answering_system_prompt: "Be brief" },
          template: {
            verify_result: false,
            verify_granular_result: 0,
            parsed_llm_response: { dose: 1, unit: "µg" },
            parsed_gt_response: {},
            embedding_similarity_score: 0,
            usage_metadata: { total: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } },
          },
        }),
        row("q2", { template: { verify_result: true, verify_granular_result: 1 } }),
      ],
      { metadata },
    );
    const first = cellsOf(csv, 0);
    expect(first.keywords).toBe('["caf\\u00e9"]');
    expect(first.parsed_llm_response).toBe('{"dose": 1, "unit": "\\u00b5g"}');
    expect(first.parsed_gt_response).toBe("");
    expect(first.verify_result).toBe("");
    expect(first.verify_granular_result).toBe("");
    expect(first.replicate).toBe("");
    expect(first.run_name).toBe("");
    expect(first.embedding_similarity_score).toBe("");
    expect(first.answering_system_prompt).toBe("Be brief");
    expect(first.usage_metadata).toBe(
      '{"total": {"input_tokens": 3, "output_tokens": 4, "total_tokens": 7}}',
    );
    expect(first.execution_time).toBe("1.0");
    const second = cellsOf(csv, 1);
    expect(second.verify_result).toBe("true");
    expect(second.verify_granular_result).toBe("1.0");
  });

  test("global traits get sorted rubric_ columns holding Python's str(); the others go to question_specific_rubrics", () => {
    const rubric = {
      rubric_evaluation_performed: true,
      llm_trait_scores: { clarity: true, depth: 4 },
      regex_trait_scores: { cites: false },
      metric_trait_scores: { coverage: { precision: 1, recall: 0.5 } },
      agentic_trait_scores: { explored: true },
    };
    const global = parseRubric({
      llm_traits: [
        { name: "depth", kind: "score" },
        { name: "clarity", kind: "boolean" },
      ],
      metric_traits: [
        { name: "coverage", evaluation_mode: "tp_only", metrics: ["precision"], tp_instructions: ["a"] },
      ],
    });
    const csv = exportResultsCsv([row("q1", { rubric }), row("q2")], { metadata, globalRubric: global });
    const header = parseCsv(csv)[0] ?? [];
    expect(header.slice(11, 16)).toEqual([
      "keywords",
      "rubric_clarity",
      "rubric_coverage",
      "rubric_depth",
      "question_specific_rubrics",
    ]);
    const first = cellsOf(csv, 0);
    expect(first.rubric_clarity).toBe("True");
    expect(first.rubric_depth).toBe("4");
    expect(first.rubric_coverage).toBe("{'precision': 1.0, 'recall': 0.5}");
    expect(first.question_specific_rubrics).toBe('{"cites": false}');
    expect(first.metric_trait_metrics).toBe('{"coverage": {"precision": 1.0, "recall": 0.5}}');
    const second = cellsOf(csv, 1);
    expect([second.rubric_clarity, second.question_specific_rubrics]).toEqual(["", "{}"]);
  });

  test("without a global rubric every trait is question-specific; unusable trait names get no column", () => {
    const long = "x".repeat(256);
    const csv = exportResultsCsv(
      [row("q1", { rubric: { llm_trait_scores: { b: 1, a: 2, [long]: 3, "two\nlines": 4 } } })],
      { metadata, globalRubric: ["a", long, "two\nlines"] },
    );
    const cells = cellsOf(csv);
    expect(Object.keys(cells).filter((name) => name.startsWith("rubric_"))).toEqual([
      "rubric_evaluation_performed",
      "rubric_a",
      "rubric_trait_reasoning",
      "rubric_hallucination_risk_assessment",
    ]);
    expect(cells.question_specific_rubrics).toBe('{"b": 1}');
  });

  test("cells with commas, quotes or line breaks are quoted; records end with CRLF", () => {
    const csv = exportResultsCsv(
      [row("q1", { template: { raw_llm_response: 'He said "no",\nthen left' } })],
      {
        metadata,
      },
    );
    expect(csv).toContain(',"He said ""no"",\nthen left",');
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(cellsOf(csv).raw_llm_response).toBe('He said "no",\nthen left');
  });
});

describe("CSV import", () => {
  const rich = () =>
    row("q-ü", {
      metadata: {
        keywords: ["α", "b"],
        answering: {
          interface: "openai_endpoint",
          model_name: "llama3.1:8b",
          tools: ["files", "search"],
          config_id: "agent",
        },
        replicate: 2,
        run_name: "nightly",
        answering_system_prompt: "Answer, briefly.",
        execution_time: 12.5,
        failure: { category: "content", stage: "verify_template", reason: "wrong dose" },
      },
      template: {
        raw_llm_response: 'Line 1, "quoted"\nLine 2 — ü',
        parsed_gt_response: { dose: 5 },
        parsed_llm_response: { dose: 4 },
        template_verification_performed: true,
        verify_result: true,
        verify_granular_result: 0.5,
        embedding_check_performed: true,
        embedding_similarity_score: 0.91,
        embedding_model_used: "all-MiniLM",
        answering_mcp_servers: ["files", "search"],
        usage_metadata: { total: { input_tokens: 3, output_tokens: 4, total_tokens: 7 } },
        agent_metrics: { iterations: 2, tool_calls: 3, limit_reached: false },
      },
      rubric: {
        rubric_evaluation_performed: true,
        llm_trait_scores: { clarity: true, depth: 4 },
        metric_trait_scores: { coverage: { precision: 1, recall: 0.5 } },
        metric_trait_confusion_lists: { coverage: { tp: ["a"], tn: [], fp: [], fn: ["b"] } },
      },
      deep_judgment: {
        deep_judgment_mode: "full",
        deep_judgment_performed: true,
        extracted_excerpts: { dose: [{ text: "4 mg", confidence: "high", similarity_score: 1 }] },
        attribute_reasoning: { dose: "stated" },
        deep_judgment_stages_completed: ["excerpts", "reasoning"],
        deep_judgment_model_calls: 2,
      },
      deep_judgment_rubric: { deep_judgment_rubric_performed: true, total_deep_judgment_model_calls: 3 },
    });

  test("a rich row survives export, import and export again with the same CSV", () => {
    const csv = exportResultsCsv([rich(), row("q2", { template: null })], {
      metadata,
      globalRubric: ["clarity"],
    });
    const back = parseResultsCsv(csv, "rich.csv");
    expect(back.globalTraitNames).toEqual(["clarity"]);
    expect(exportResultsCsv(back.results, { metadata, globalRubric: back.globalTraitNames })).toBe(csv);
    const [first] = back.results;
    expect(first?.metadata.answering).toEqual({
      interface: "openai_endpoint",
      model_name: "llama3.1:8b",
      tools: ["files", "search"],
      config_id: "agent",
    });
    expect(first?.template?.raw_llm_response).toBe('Line 1, "quoted"\nLine 2 — ü');
    expect(first?.rubric?.llm_trait_scores).toEqual({ clarity: true, depth: 4 });
    expect(first?.rubric?.metric_trait_scores).toEqual({ coverage: { precision: 1, recall: 0.5 } });
    expect(first?.deep_judgment?.extracted_excerpts).toEqual({
      dose: [{ text: "4 mg", confidence: "high", similarity_score: 1 }],
    });
    expect(first?.deep_judgment_rubric?.total_deep_judgment_model_calls).toBe(3);
    expect(first?.metadata.failure).toEqual({
      category: "unexpected_error",
      stage: "unknown",
      reason: "wrong dose",
      details: null,
      group: "system",
    });
    expect(back.results[1]?.deep_judgment).toBeNull();
    expect(back.results[1]?.rubric).toBeNull();
  });

  test("a false verdict reads back as null (the CSV writes both as an empty cell)", () => {
    const csv = exportResultsCsv([row("q1", { template: { verify_result: false } })], { metadata });
    expect(parseResultsCsv(csv).results[0]?.template?.verify_result).toBeNull();
  });

  test("files are written atomically and read back", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "karenina-csv-")), "run.csv");
    await writeResultsCsv(path, [rich()], { metadata });
    expect((await readResultsCsv(path)).results.map((r) => r.metadata.question_id)).toEqual(["q-ü"]);
  });

  test("a missing file, a broken CSV and a file without question_id are ResultsFileErrors naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "karenina-csv-"));
    await expect(readResultsCsv(join(dir, "absent.csv"))).rejects.toThrow(
      `${join(dir, "absent.csv")}: cannot read the results file (no such file)`,
    );
    expect(() => parseResultsCsv('question_id,success\r\n"q1,True\r\n', "open.csv")).toThrow(
      /^open\.csv: not a valid CSV file: Quote Not Closed/,
    );
    expect(() => parseResultsCsv("a,b\r\n1,2\r\n", "other.csv")).toThrow(ResultsFileError);
    const ragged = join(dir, "ragged.csv");
    await writeFile(ragged, "question_id,success\r\nq1,True,extra\r\n");
    await expect(readResultsCsv(ragged)).rejects.toThrow(
      /ragged\.csv: not a valid CSV file: Invalid Record Length/,
    );
  });

  test("a bad cell names the file, the row and the column", () => {
    const csv = exportResultsCsv([row("q1"), row("q2")], { metadata });
    const broken = csv.replace(/(q2,.*?),1\.0,/, "$1,fast,");
    const error = thrown(ResultsRowError, () => parseResultsCsv(broken, "run.csv"));
    expect(error.message).toBe(
      'run.csv: row 2 (after the header): column execution_time: expected a number, found a string "fast"',
    );
    expect([error.row, error.field]).toEqual([1, "execution_time"]);
    const badJson = csv.replace(/^(q1,True,,Question q1,answer q1),,/m, "$1,{oops,");
    expect(() => parseResultsCsv(badJson, "run.csv")).toThrow(
      /^run\.csv: row 1 \(after the header\): column parsed_gt_response: expected JSON/,
    );
  });
});
