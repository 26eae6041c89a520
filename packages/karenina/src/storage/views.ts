import type { Dialect } from "./dialect.js";

// Read-only views for people and tools querying the database (spec 06 §4.3), in each dialect's SQL. They read
// the indexed columns of verification_results and, for what is only in a result's JSON, the JSON functions
// (SQLite JSON1, PostgreSQL json operators). Values taken out of JSON read the same in both dialects: text
// is unquoted, anything else is its JSON text (`true`, `4`, `{"f1":0.5}`); flags are the integers 1 and 0.

const RESULT = "r.result_json";

/** Results with their run and benchmark (`r`, `runs`, `b`). */
const RESULTS_WITH_RUN = `FROM verification_results r
JOIN verification_runs runs ON runs.id = r.run_id
JOIN benchmarks b ON b.id = runs.benchmark_id`;

/** One row per result that has a template section. */
function templateResultsView(d: Dialect): string {
  return `CREATE VIEW template_results_view AS
SELECT r.result_id, r.run_id, r.timestamp AS verification_date, runs.run_name, b.name AS benchmark_name,
  r.question_id, ${d.jsonText(RESULT, ["metadata", "question_text"])} AS question_text,
  r.verify_result, r.replicate
${RESULTS_WITH_RUN}
WHERE ${d.jsonTypeOf(RESULT, ["template"])} = 'object'`;
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

const GT = ["template", "parsed_gt_response"];
const LLM = ["template", "parsed_llm_response"];

/** One row per (result, ground-truth attribute): the expected value beside the one the judge extracted. */
function templateAttributesView(d: Dialect): string {
  const gtValue = d.entryText(RESULT, "gt");
  const llmValue = d.jsonMemberText(RESULT, LLM, "gt.key");
  return `CREATE VIEW template_attributes_view AS
SELECT r.result_id, substr(r.timestamp, 1, 10) AS verification_date, runs.run_name, b.name AS benchmark_name,
  r.question_id, ${d.jsonText(RESULT, ["metadata", "question_text"])} AS question_text,
  gt.key AS attribute_name, ${gtValue} AS gt_value, ${llmValue} AS llm_value,
  CASE WHEN ${gtValue} = ${llmValue} THEN 1 ELSE 0 END AS attribute_match
${RESULTS_WITH_RUN}
CROSS JOIN ${d.jsonEntries(RESULT, GT, "gt")}`;
}

/** One row per (benchmark, question, ground-truth attribute), with the attribute's Python type name. */
function questionAttributesView(d: Dialect): string {
  return `CREATE VIEW question_attributes_view AS
SELECT DISTINCT b.name AS benchmark_name, r.question_id,
  ${d.jsonText(RESULT, ["metadata", "question_text"])} AS question_text,
  gt.key AS attribute_name, ${d.entryPythonType("gt")} AS attribute_type
${RESULTS_WITH_RUN}
CROSS JOIN ${d.jsonEntries(RESULT, GT, "gt")}`;
}

/** One row per result: what ran, what it cost, how the agent behaved, how it ended. */
function resultsMetadataView(d: Dialect): string {
  const flag = (path: string[], otherwise: number) => `coalesce(${d.jsonFlag(RESULT, path)}, ${otherwise})`;
  return `CREATE VIEW results_metadata_view AS
SELECT r.result_id,
  ${flag(["template", "template_verification_performed"], 0)} AS has_template_results,
  ${flag(["rubric", "rubric_evaluation_performed"], 0)} AS has_rubric_results,
  r.execution_time, r.timestamp, r.input_tokens, r.output_tokens, r.total_tokens,
  ${d.jsonInteger(RESULT, ["template", "agent_metrics", "iterations"])} AS agent_iterations,
  ${d.jsonInteger(RESULT, ["template", "agent_metrics", "tool_calls"])} AS agent_tool_calls,
  CASE WHEN ${d.jsonArrayLength(RESULT, ["template", "answering_mcp_servers"])} > 0 THEN 1 ELSE 0 END AS has_mcp,
  ${flag(["used_full_trace"], 1)} AS used_full_trace,
  CASE WHEN ${d.jsonText(RESULT, ["trace_extraction_error"])} IS NOT NULL THEN 1 ELSE 0 END
    AS has_trace_extraction_error,
  ${d.jsonFlag(RESULT, ["template", "abstention_detected"])} AS abstention_detected,
  ${d.jsonText(RESULT, ["template", "abstention_reasoning"])} AS abstention_reasoning,
  ${flag(["template", "embedding_check_performed"], 0)} AS embedding_check_performed,
  ${flag(["template", "recursion_limit_reached"], 0)} AS recursion_limit_reached,
  r.failure_category AS metadata_failure_category,
  ${d.jsonText(RESULT, ["metadata", "failure", "group"])} AS metadata_failure_group,
  r.failure_stage AS metadata_failure_stage,
  ${d.jsonText(RESULT, ["metadata", "failure", "reason"])} AS metadata_failure_reason,
  ${d.jsonRaw(RESULT, ["metadata", "caveats"])} AS metadata_caveats
FROM verification_results r`;
}

/** One row per result with an answer: its raw response. */
function rawLlmAnswersView(d: Dialect): string {
  const response = d.jsonText(RESULT, ["template", "raw_llm_response"]);
  return `CREATE VIEW raw_llm_answers_view AS
SELECT r.result_id, r.question_id, ${response} AS raw_llm_response
FROM verification_results r
WHERE ${response} IS NOT NULL`;
}

/** The rubric score maps read by `rubric_traits_view`, with the trait type each row gets. */
const RUBRIC_SCORES: ReadonlyArray<readonly [string, string]> = [
  ["llm", "llm_trait_scores"],
  ["regex", "regex_trait_scores"],
  ["callable", "callable_trait_scores"],
  ["metric", "metric_trait_scores"],
  ["agentic", "agentic_trait_scores"],
];

/** One row per (result, trait) of an evaluated rubric, every trait kind; `score` as text. */
function rubricTraitsView(d: Dialect): string {
  const evaluated = `${d.jsonFlag(RESULT, ["rubric", "rubric_evaluation_performed"])} = 1`;
  const parts = RUBRIC_SCORES.map(
    ([type, field]) => `SELECT r.result_id, t.key AS trait_name, '${type}' AS trait_type,
  ${d.entryText(RESULT, "t")} AS score
FROM verification_results r
CROSS JOIN ${d.jsonEntries(RESULT, ["rubric", field], "t")}
WHERE ${evaluated}`,
  );
  return `CREATE VIEW rubric_traits_view AS\n${parts.join("\nUNION ALL\n")}`;
}

/** One row per (result, trait) of a deep-judgment rubric evaluation: its deep-judgment and standard scores. */
function deepJudgmentRubricTraitsView(d: Dialect): string {
  const performed = `${d.jsonFlag(RESULT, ["deep_judgment_rubric", "deep_judgment_rubric_performed"])} = 1`;
  const part = (field: string, isDeepJudgment: number) => `SELECT r.result_id, t.key AS trait_name,
  'llm' AS trait_type, ${d.entryText(RESULT, "t")} AS score, ${isDeepJudgment} AS is_deep_judgment
FROM verification_results r
CROSS JOIN ${d.jsonEntries(RESULT, ["deep_judgment_rubric", field], "t")}
WHERE ${performed}`;
  return `CREATE VIEW deep_judgment_rubric_traits_view AS
${part("deep_judgment_rubric_scores", 1)}
UNION ALL
${part("standard_rubric_scores", 0)}`;
}

/** One row per (result, MCP server attached to its answering model). */
function resultMcpServersView(d: Dialect): string {
  return `CREATE VIEW result_mcp_servers_view AS
SELECT DISTINCT r.result_id, ${d.entryText(RESULT, "s")} AS mcp_server
FROM verification_results r
CROSS JOIN ${d.jsonElements(RESULT, ["template", "answering_mcp_servers"], "s")}`;
}

/** One row per (result, tool its answering agent called). */
function resultToolsUsedView(d: Dialect): string {
  return `CREATE VIEW result_tools_used_view AS
SELECT r.result_id, ${d.entryText(RESULT, "t")} AS tool_name
FROM verification_results r
CROSS JOIN ${d.jsonElements(RESULT, ["template", "agent_metrics", "tools_used"], "t")}`;
}

/** One row per (run, answering model, parsing model): MCP use and how many replicates ran. */
function combinationInfoView(d: Dialect): string {
  return `CREATE VIEW combination_info_view AS
SELECT r.run_id, runs.run_name, r.answering_interface, r.answering_model_name AS answering_model,
  r.parsing_interface, r.parsing_model_name AS parsing_model,
  max(CASE WHEN ${d.jsonArrayLength(RESULT, ["template", "answering_mcp_servers"])} > 0 THEN 1 ELSE 0 END) AS has_mcp,
  CAST(count(DISTINCT coalesce(r.replicate, 0)) AS INTEGER) AS replicate_count
FROM verification_results r
JOIN verification_runs runs ON runs.id = r.run_id
GROUP BY r.run_id, runs.run_name, r.answering_interface, r.answering_model_name, r.parsing_interface,
  r.parsing_model_name`;
}

const VIEWS: ReadonlyArray<readonly [string, (d: Dialect) => string]> = [
  ["template_results_view", templateResultsView],
  ["models_used_view", modelsUsedView],
  ["template_attributes_view", templateAttributesView],
  ["question_attributes_view", questionAttributesView],
  ["results_metadata_view", resultsMetadataView],
  ["raw_llm_answers_view", rawLlmAnswersView],
  ["rubric_traits_view", rubricTraitsView],
  ["deep_judgment_rubric_traits_view", deepJudgmentRubricTraitsView],
  ["result_mcp_servers_view", resultMcpServersView],
  ["result_tools_used_view", resultToolsUsedView],
  ["combination_info_view", combinationInfoView],
];

/** Every view name, in creation order. */
export const VIEW_NAMES: readonly string[] = VIEWS.map(([name]) => name);

/** The views named (default: all), as `[name, CREATE VIEW ...]` pairs, in creation order. */
export function viewDefinitions(
  d: Dialect,
  names: readonly string[] = VIEW_NAMES,
): ReadonlyArray<readonly [string, string]> {
  return VIEWS.filter(([name]) => names.includes(name)).map(([name, build]) => [name, build(d)]);
}
