import type { Dialect } from "./dialect.js";

// Read-only views for people and tools querying the database (spec 06 §4.3), in each dialect's SQL. They read
// the indexed columns of verification_results and, for what is only in a result's JSON, the JSON functions
// (SQLite JSON1, PostgreSQL json operators).

/** One row per result that has a template section. */
function templateResultsView(d: Dialect): string {
  return `CREATE VIEW template_results_view AS
SELECT r.result_id, r.run_id, r.timestamp AS verification_date, runs.run_name, b.name AS benchmark_name,
  r.question_id, ${d.jsonText("r.result_json", ["metadata", "question_text"])} AS question_text,
  r.verify_result, r.replicate
FROM verification_results r
JOIN verification_runs runs ON runs.id = r.run_id
JOIN benchmarks b ON b.id = runs.benchmark_id
WHERE ${d.jsonTypeOf("r.result_json", ["template"])} = 'object'`;
}

/** One row per (interface, model name) seen in results, with what it was used for. */
function modelsUsedView(d: Dialect): string {
  return `CREATE VIEW models_used_view AS
SELECT uses.interface, uses.model_name, ${d.anyTrue("uses.answering")} AS used_for_answering,
  ${d.anyTrue("uses.parsing")} AS used_for_parsing
FROM (
  SELECT answering_interface AS interface, answering_model_name AS model_name, TRUE AS answering, FALSE AS parsing
  FROM verification_results
  UNION ALL
  SELECT parsing_interface, parsing_model_name, FALSE, TRUE FROM verification_results
) uses
GROUP BY uses.interface, uses.model_name`;
}

/** The views, as `[name, CREATE VIEW ...]` pairs, in creation order. */
export function viewDefinitions(d: Dialect): ReadonlyArray<readonly [string, string]> {
  return [
    ["template_results_view", templateResultsView(d)],
    ["models_used_view", modelsUsedView(d)],
  ];
}
