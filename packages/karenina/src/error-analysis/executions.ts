/**
 * The cases of an analysis (spec 08 §10.4 step 2): one per question-answer row, one per scenario execution.
 * Executions come from the file's `scenario_results` records, their turns from the rows those records list;
 * scenario rows no record lists (an export without `scenario_results`, which the original rejects: quirk Q36,
 * fixed) are grouped into executions by combo key, as the original's sink groups them.
 */
import {
  isScenarioRow,
  type ScenarioResultRecord,
  scenarioRecordsFromRows,
  scenarioRowsById,
  type VerificationResult,
} from "../results/index.js";

/** One scenario execution: its record and its turn rows, in turn order. */
export interface ScenarioExecution {
  record: ScenarioResultRecord;
  turns: VerificationResult[];
}

/** The cases of a result set. */
export interface AnalysisCases {
  qa: VerificationResult[];
  scenarios: ScenarioExecution[];
}

const turnOf = (row: VerificationResult) => row.metadata.scenario_turn ?? 0;

/** QA rows, and scenario executions rebuilt from records and rows. */
export function analysisCases(
  rows: readonly VerificationResult[],
  records: readonly ScenarioResultRecord[] | null,
): AnalysisCases {
  const scenarioRows = rows.filter(isScenarioRow);
  const byId = scenarioRowsById(scenarioRows);
  const claimed = new Set<VerificationResult>();
  const claim = (record: ScenarioResultRecord): ScenarioExecution => {
    const turns: VerificationResult[] = [];
    for (const item of record.history) {
      const row = byId
        .get(item.verification_result_id ?? "")
        ?.find(
          (candidate) => !claimed.has(candidate) && candidate.metadata.scenario_id === record.scenario_id,
        );
      if (row === undefined) continue;
      claimed.add(row);
      turns.push(row);
    }
    return { record, turns: turns.sort((a, b) => turnOf(a) - turnOf(b)) };
  };
  const scenarios = (records ?? []).map(claim);
  const leftovers = scenarioRows.filter((row) => !claimed.has(row));
  for (const record of scenarioRecordsFromRows(leftovers)) scenarios.push(claim(record));
  return { qa: rows.filter((row) => !isScenarioRow(row)), scenarios };
}
