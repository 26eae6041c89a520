import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { conformancePath, hasConformance, SKIP_REASON } from "../../test-support/conformance.js";
import { thrown } from "../../test-support/thrown.js";
import { scenarioTurnTable } from "../scenario/index.js";
import { row } from "./__fixtures__/rows.js";
import {
  exportResultsJson,
  iterResultsJson,
  parseResultsJson,
  ResultsFileError,
  ResultsRowError,
  readResultsJson,
  writeResultsJson,
} from "./index.js";

const metadata = { job_id: "job-1", export_timestamp: "2026-04-21 12:00:00 UTC", karenina_version: "0.1.0" };

async function tempFile(name: string, text?: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "karenina-import-")), name);
  if (text !== undefined) await writeFile(path, text);
  return path;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe.skipIf(!hasConformance)(
  `reading the original's exports (${hasConformance ? "" : SKIP_REASON})`,
  () => {
    test("the full export reads as v2.2 with its header, rubric definition and two rows", async () => {
      const read = await readResultsJson(conformancePath("export_format/results_export_full.json"));
      expect(read.format).toBe("v2.2");
      expect(read.metadata?.job_id).toBe("job-fixture-001");
      expect(read.rubricDefinition).toEqual({
        llm_traits: [
          {
            name: "clarity",
            description: "Response is clearly written and easy to read.",
            kind: "boolean",
            higher_is_better: true,
          },
        ],
      });
      expect(read.results.map((r) => r.metadata.question_id)).toEqual(["q-unicode", "q-timeout"]);
      expect(read.results[1]?.metadata.failure?.group).toBe("retry");
      expect(read.scenarioResults).toBeNull();
    });

    test("streaming reads the same rows line by line", async () => {
      const path = conformancePath("export_format/results_export_full.json");
      const streamed = await collect(iterResultsJson(path));
      expect(streamed).toEqual((await readResultsJson(path)).results);
      expect(
        await collect(iterResultsJson(conformancePath("export_format/results_export_empty.json"))),
      ).toEqual([]);
    });
  },
);

describe("reading results files", () => {
  test("the legacy array form, rows with row_index and success keys, reads as results", () => {
    const legacy = JSON.stringify([
      { ...row("q1"), row_index: 1, success: "abstained" },
      { ...row("q2"), row_index: 2 },
    ]);
    const read = parseResultsJson(legacy, "frontend.json");
    expect(read.format).toBe("array");
    expect(read.results.map((r) => r.metadata.question_id)).toEqual(["q1", "q2"]);
    expect(Object.keys(read.results[0] ?? {})).not.toContain("row_index");
  });

  test("a {metadata, results: map} wrapper and a bare map read as results", () => {
    const wrapped = parseResultsJson(
      JSON.stringify({ metadata: { source: "gui" }, results: { a: row("q1") } }),
    );
    expect(wrapped.format).toBe("map");
    expect(wrapped.metadata).toEqual({ source: "gui" });
    expect(wrapped.results).toHaveLength(1);
    const bare = parseResultsJson(JSON.stringify({ a: row("q1"), b: row("q2") }));
    expect(bare.results.map((r) => r.metadata.question_id)).toEqual(["q1", "q2"]);
  });

  test("a missing file is a ResultsFileError naming the file", async () => {
    const path = await tempFile("absent.json");
    await expect(readResultsJson(path)).rejects.toThrow(ResultsFileError);
    await expect(readResultsJson(path)).rejects.toThrow(
      `${path}: cannot read the results file (no such file)`,
    );
    await expect(collect(iterResultsJson(path))).rejects.toThrow(
      `${path}: cannot read the results file (no such file)`,
    );
  });

  test("corrupt JSON names the file, line and column", () => {
    const error = thrown(ResultsFileError, () =>
      parseResultsJson('{"format_version": "2.2",\n  "metadata": }', "run.json"),
    );
    expect(error.message).toMatch(/^run\.json: not valid JSON at line 2, column \d+/);
  });

  test("a row with a wrong field names the file, the row index and the field", () => {
    const text = exportResultsJson([row("q1"), row("q2")], { metadata }).replace(
      '"question_id": "q2"',
      '"question_id": 42',
    );
    const error = thrown(ResultsRowError, () => parseResultsJson(text, "run.json"));
    expect(error.message).toBe(
      "run.json: $.results[1].metadata.question_id: expected string, found the number 42",
    );
    expect(error.row).toBe(1);
    expect(error.field).toBe("metadata.question_id");
  });

  test("an unknown metadata field of a row is named with the allowed ones", () => {
    const text = JSON.stringify([row("q1", { metadata: { colour: "red" } })]);
    expect(() => parseResultsJson(text, "legacy.json")).toThrow(
      /^legacy\.json: \$\[0\]\.metadata\.colour: unknown field "colour" \(allowed: question_id, /,
    );
  });

  test("another format version, or a results array without one, is refused", () => {
    expect(() => parseResultsJson('{"format_version": "2.1", "results": []}', "old.json")).toThrow(
      'old.json: $.format_version: expected "2.2", found a string "2.1"',
    );
    expect(() => parseResultsJson('{"results": []}', "odd.json")).toThrow(
      "odd.json: $.format_version: missing",
    );
    expect(() => parseResultsJson("42", "n.json")).toThrow("n.json: $: expected a results export");
  });

  test("streaming names the row of a bad line, and reads other layouts whole", async () => {
    const text = exportResultsJson([row("q1"), row("q2")], { metadata }).replace(
      '"execution_time": 1.0',
      '"execution_time": "x"',
    );
    const path = await tempFile("bad.json", text);
    await expect(collect(iterResultsJson(path))).rejects.toThrow(
      `${path}: $.results[0].metadata.execution_time: expected number`,
    );
    const pretty = await tempFile(
      "pretty.json",
      JSON.stringify(JSON.parse(exportResultsJson([row("q1")], { metadata })), null, 2),
    );
    expect((await collect(iterResultsJson(pretty))).map((r) => r.metadata.question_id)).toEqual(["q1"]);
  });

  test("what is written is read back equal, scenario results included", async () => {
    const path = await tempFile("round.json");
    const rows = [row("q1", { metadata: { execution_time: 0.5, keywords: ["ä"] } }), row("q2")];
    const scenario = {
      scenario_id: "s",
      status: "limit_reached" as const,
      path: ["ask"],
      turn_count: 1,
      replicate: 2,
      terminal_failure: null,
      outcome_results: { held: true, ratio: 0.5 },
      history: [
        {
          node_id: "ask",
          question_text: "Ça va?",
          raw_response: "Oui.",
          parsed_fields: { answer: "oui" },
          verify_result: true,
          verification_result_id: "00000000000000aa",
        },
      ],
    };
    await writeResultsJson(path, rows, { metadata, scenarioResults: [scenario] });
    const read = await readResultsJson(path);
    expect(read.results.map((r) => r.metadata.keywords)).toEqual([["ä"], null]);
    expect(read.scenarioResults).toEqual([scenario]);
    if (read.format !== "v2.2") throw new Error("expected v2.2");
    const again = exportResultsJson(read.results, {
      metadata: read.metadata,
      scenarioResults: read.scenarioResults,
    });
    expect(again).toBe(await readFile(path, "utf8"));
  });
});

/** A v2.2 export of one row with `scenario_results` set to `records` (hand-written records, not a run's). */
function exportWithScenarios(records: unknown): string {
  const json = JSON.parse(exportResultsJson([row("q1")], { metadata: { ...metadata, note: "kept" } }));
  return JSON.stringify({ ...json, scenario_results: records });
}

const RECORD = {
  scenario_id: "capital-pushback",
  status: "completed",
  path: ["ask"],
  turn_count: 1,
  replicate: null,
  terminal_failure: null,
  outcome_results: {},
  history: [
    {
      node_id: "ask",
      question_text: "What is the capital of Australia?",
      raw_response: "Canberra.",
      parsed_fields: { city: "Canberra" },
      verify_result: true,
      verification_result_id: "ea68afddf661444a",
    },
  ],
};

describe("scenario_results of an export (spec 08 §6.4)", () => {
  test("T-R1: records are parsed, the metadata is kept, the turn table has one row", () => {
    const read = parseResultsJson(exportWithScenarios([RECORD]), "run.json");
    if (read.format !== "v2.2") throw new Error("expected v2.2");
    expect(read.scenarioResults).toEqual([RECORD]);
    expect(read.metadata).toMatchObject({ job_id: "job-1", note: "kept" });
    const turns = scenarioTurnTable(read.scenarioResults ?? []);
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({ scenario_turn: 0, node_id: "ask", verify_result: true });
  });

  test("T-R2: a record with an extra key is refused with the original's message, naming the file and key", () => {
    const error = thrown(ResultsFileError, () =>
      parseResultsJson(exportWithScenarios([{ ...RECORD, colour: "red" }]), "run.json"),
    );
    expect(error.message).toMatch(
      /^run\.json: Invalid scenario result at index 0: \$\.scenario_results\[0\]\.colour: unknown field "colour" \(allowed: scenario_id, /,
    );
    const turn = { ...RECORD.history[0], id: "urn" };
    expect(() =>
      parseResultsJson(exportWithScenarios([RECORD, { ...RECORD, history: [turn] }]), "run.json"),
    ).toThrow(
      /Invalid scenario result at index 1: \$\.scenario_results\[1\]\.history\[0\]\.id: unknown field/,
    );
    expect(() => parseResultsJson(exportWithScenarios([{ ...RECORD, status: "done" }]), "run.json")).toThrow(
      "Invalid scenario result at index 0: $.scenario_results[0].status:",
    );
  });

  test("T-R2: a bad result row beside scenario results names the row at index 0", () => {
    const json = JSON.parse(exportWithScenarios([RECORD]));
    json.results[0].metadata.question_id = 7;
    const error = thrown(ResultsRowError, () => parseResultsJson(JSON.stringify(json), "run.json"));
    expect(error.row).toBe(0);
    expect(error.message).toContain("run.json: $.results[0].metadata.question_id");
  });

  test("an empty scenario_results reads as null; one that is not an array is refused", () => {
    expect(parseResultsJson(exportWithScenarios([]), "run.json").scenarioResults).toBeNull();
    expect(() => parseResultsJson(exportWithScenarios({}), "run.json")).toThrow(
      "run.json: $.scenario_results: expected an array",
    );
  });

  test("the record's optional fields get their defaults; a missing required one is named", () => {
    const { path: _path, history: _history, outcome_results: _outcomes, ...bare } = RECORD;
    const read = parseResultsJson(exportWithScenarios([bare]), "run.json");
    expect(read.scenarioResults?.[0]).toMatchObject({ path: [], history: [], outcome_results: {} });
    const { turn_count: _turns, ...noTurns } = RECORD;
    expect(() => parseResultsJson(exportWithScenarios([noTurns]), "run.json")).toThrow(
      "$.scenario_results[0].turn_count: missing required field",
    );
  });
});
