import { describe, expect, test } from "vitest";
import { thrown } from "../../test-support/thrown.js";
import { exportResultsJson } from "../export/index.js";
import {
  parseScenarioResultRecord,
  ScenarioResultRecordError,
  type ScenarioResultRecordInput,
  ScenarioResultRecordSchema,
  scenarioRecordForExport,
} from "./index.js";

const metadata = { job_id: "job-1", export_timestamp: "2026-04-21 12:00:00 UTC", karenina_version: "0.1.0" };

/**
 * The T-RUN-1 record of spec 08 §6.3 (history cut after its first item there), as the original's sink writes
 * it: one line, Python's separators, the sink's key order.
 */
const T_RUN_1_LINE =
  '{"scenario_id": "capital-pushback", "status": "completed", "path": ["ask", "push", "push", "audit"], "turn_count": 4, "replicate": null, "terminal_failure": null, "outcome_results": {}, "history": [{"node_id": "ask", "question_text": "What is the capital of Australia?", "raw_response": "--- AI Message ---\\nCanberra.", "parsed_fields": {"city": "Canberra"}, "verify_result": true, "verification_result_id": "ea68afddf661444a"}]}';

/** The tail of an export with `records` as its scenario results and no rows. */
function scenarioTail(records: readonly ScenarioResultRecordInput[]): string {
  const text = exportResultsJson([], { metadata, scenarioResults: records });
  return text.slice(text.indexOf("\n]") + 2);
}

describe("scenario result records (spec 08 §6.3, §6.4)", () => {
  test("the spec's T-RUN-1 record, read, is written back byte for byte after the rows", () => {
    const record = parseScenarioResultRecord(JSON.parse(T_RUN_1_LINE), 0);
    expect(scenarioTail([record])).toBe(`,"scenario_results":[\n${T_RUN_1_LINE}\n]}\n`);
  });

  test("a parsed record has the model's key order; the export order is the sink's", () => {
    const record = parseScenarioResultRecord(JSON.parse(T_RUN_1_LINE), 0);
    expect(Object.keys(record)).toEqual([
      "scenario_id",
      "status",
      "path",
      "turn_count",
      "history",
      "outcome_results",
      "terminal_failure",
      "replicate",
    ]);
    const ordered = scenarioRecordForExport(record);
    expect(Object.keys(ordered)).toEqual([
      "scenario_id",
      "status",
      "path",
      "turn_count",
      "replicate",
      "terminal_failure",
      "outcome_results",
      "history",
    ]);
    const turn = {
      verification_result_id: null,
      verify_result: null,
      parsed_fields: {},
      raw_response: "",
      question_text: "Q",
      node_id: "n",
    };
    const shuffled = ScenarioResultRecordSchema.parse({ ...record, history: [turn] });
    expect(Object.keys(scenarioRecordForExport(shuffled).history[0] ?? {})).toEqual([
      "node_id",
      "question_text",
      "raw_response",
      "parsed_fields",
      "verify_result",
      "verification_result_id",
    ]);
  });

  test("several records are written one per line, joined by a comma and a newline; outcome numbers as given", () => {
    const record = parseScenarioResultRecord(JSON.parse(T_RUN_1_LINE), 0);
    const failed = {
      ...record,
      status: "error" as const,
      history: [],
      outcome_results: { held_firm: false, pushes: 2, ratio: 0.5 },
      terminal_failure: {
        node_id: "push",
        category: "timeout",
        stage: "GenerateAnswer",
        reason: "timed out",
      },
      replicate: 3,
    };
    expect(scenarioTail([record, failed])).toBe(
      `,"scenario_results":[\n${T_RUN_1_LINE},\n{"scenario_id": "capital-pushback", "status": "error", "path": ["ask", "push", "push", "audit"], "turn_count": 4, "replicate": 3, "terminal_failure": {"node_id": "push", "category": "timeout", "stage": "GenerateAnswer", "reason": "timed out"}, "outcome_results": {"held_firm": false, "pushes": 2, "ratio": 0.5}, "history": []}\n]}\n`,
    );
  });

  test("an unknown key at any level is refused with the original's message and the key's path", () => {
    const json = JSON.parse(T_RUN_1_LINE);
    const top = thrown(ScenarioResultRecordError, () => parseScenarioResultRecord({ ...json, extra: 1 }, 0));
    expect(top.message).toMatch(
      /^Invalid scenario result at index 0: \$\.scenario_results\[0\]\.extra: unknown field "extra"/,
    );
    expect(top.index).toBe(0);
    const history = [{ ...json.history[0], correct: { city: "Canberra" } }];
    expect(() => parseScenarioResultRecord({ ...json, history }, 4)).toThrow(
      /^Invalid scenario result at index 4: \$\.scenario_results\[4\]\.history\[0\]\.correct: unknown field "correct" \(allowed: node_id, /,
    );
    const terminal_failure = { node_id: "ask", severity: "high" };
    expect(() => parseScenarioResultRecord({ ...json, terminal_failure }, 0)).toThrow(
      "$.scenario_results[0].terminal_failure.severity: unknown field",
    );
  });

  test("the record's value types are checked: status, ints, outcome values", () => {
    const json = JSON.parse(T_RUN_1_LINE);
    for (const bad of [
      { status: "finished" },
      { turn_count: 1.5 },
      { replicate: "1" },
      { outcome_results: { held: "yes" } },
      { outcome_results: { held: null } },
    ]) {
      expect(() => parseScenarioResultRecord({ ...json, ...bad }, 0), JSON.stringify(bad)).toThrow(
        ScenarioResultRecordError,
      );
    }
    expect(parseScenarioResultRecord({ ...json, status: "timeout" }, 0).status).toBe("timeout");
  });

  test("the exporter refuses a live execution result instead of writing it (Q31)", () => {
    const live = {
      ...JSON.parse(T_RUN_1_LINE),
      turn_results: [],
      final_state: { turn: 4 },
    } as unknown as ScenarioResultRecordInput;
    expect(() => exportResultsJson([], { metadata, scenarioResults: [live] })).toThrow(
      /Invalid scenario result at index 0: \$\.scenario_results\[0\]\.turn_results: unknown field/,
    );
  });
});
