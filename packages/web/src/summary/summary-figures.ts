import type { ComparedModel, ResultSummary } from "../library-types/index.js";

/** What a metric card filters the results table to (spec 07 §1.6 "Clicking a metric card"). */
export type SummaryFilter = "completed" | "errors" | "passed" | "failed" | "abstained";

/** One metric card: its label, its figure as shown, and the filter it applies when there is one. */
export interface MetricCard {
  readonly label: string;
  readonly value: string;
  readonly filter?: SummaryFilter;
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/** A count with thousands separators ("12,345"). */
export const formatCount = (n: number) => integer.format(n);

/** A percentage with one decimal at most ("66.7 %"). */
export const formatPct = (pct: number) => `${decimal.format(pct)} %`;

/** Seconds as people read durations ("42.5 s", "3 min 5 s", "1 h 2 min"). */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${decimal.format(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** US dollars with cents, more digits under a cent ("$0.0042"). */
export function formatUsd(usd: number): string {
  return usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

/** The Overview cards: totals, models, replicates, time and tokens. */
export function overviewCards(summary: ResultSummary): MetricCard[] {
  return [
    { label: "Total results", value: formatCount(summary.num_results) },
    { label: "Questions", value: formatCount(summary.num_questions) },
    { label: "Models", value: `${summary.num_models} answering × ${summary.num_parsing_models} parsing` },
    { label: "Replicates", value: formatCount(Math.max(summary.num_replicates, 1)) },
    { label: "Total execution time", value: formatSeconds(summary.total_execution_time) },
    { label: "Tokens", value: formatCount(summary.tokens.total_tokens) },
  ];
}

/** Abstentions: rows whose failure category is `abstention`. */
export const abstainedOf = (summary: ResultSummary) => summary.failures_by_category.abstention ?? 0;

/** The Completion Status cards, each filtering the table. */
export function completionCards(summary: ResultSummary): MetricCard[] {
  return [
    { label: "Completed", value: formatCount(summary.num_completed), filter: "completed" },
    { label: "Errors", value: formatCount(summary.num_results - summary.num_completed), filter: "errors" },
    { label: "Passed", value: formatCount(summary.outcomes.passed), filter: "passed" },
    { label: "Failed", value: formatCount(summary.outcomes.failed), filter: "failed" },
    { label: "Abstained", value: formatCount(abstainedOf(summary)), filter: "abstained" },
    { label: "Pass rate", value: formatPct(summary.outcomes.pass_pct) },
  ];
}

/** The Evaluation Types cards: how many rows each kind of evaluation ran on. */
export function evaluationCards(summary: ResultSummary): MetricCard[] {
  return [
    { label: "Template verification", value: formatCount(summary.num_with_template) },
    { label: "Rubric evaluation", value: formatCount(summary.num_with_rubric) },
    { label: "Deep judgment", value: formatCount(summary.num_with_judgment) },
  ];
}

/** An answering model of the results as the comparison names it, with its display string. */
export interface ModelOption {
  /** `interface:model_name`, then ` +[servers]`: the comparison's key for the model. */
  readonly key: string;
  readonly model: Required<ComparedModel>;
}

/**
 * The answering side of a model-combination key (`"<answering> | <parsing>[ | s1, s2]"`, see the library's
 * `modelComboKey`) as a compared model: the answering display string `interface:model_name[ (config)][ +[tools]]`
 * and the MCP servers. Undefined when the key is not of that form.
 * @example comparedModelOfCombo("openai:gpt-4.1 | openai:judge | files") // {answering_model: "gpt-4.1", interface: "openai", mcp_config: '["files"]'}
 */
export function comparedModelOfCombo(combo: string): Required<ComparedModel> | undefined {
  const [answering, , servers] = combo.split(" | ");
  if (answering === undefined) return undefined;
  const colon = answering.indexOf(":");
  if (colon <= 0) return undefined;
  const name = answering
    .slice(colon + 1)
    .replace(/ \+\[[^\]]*\]$/, "")
    .replace(/ \([^)]*\)$/, "");
  if (name === "") return undefined;
  const mcp = servers === undefined || servers === "" ? [] : servers.split(", ");
  return { answering_model: name, interface: answering.slice(0, colon), mcp_config: JSON.stringify(mcp) };
}

/** The comparison's display string of a model (the library's `comparedModelDisplay`). */
export function modelKeyOf(model: Required<ComparedModel>): string {
  const servers = (JSON.parse(model.mcp_config) as string[]).slice().sort();
  const tools = servers.length === 0 ? "" : ` +[${servers.join(", ")}]`;
  return `${model.interface}:${model.answering_model}${tools}`;
}

/** The distinct answering models (with their MCP sets) of the summary's combinations, in order first seen. */
export function modelOptionsOf(summary: ResultSummary): ModelOption[] {
  const options = new Map<string, ModelOption>();
  for (const combo of Object.keys(summary.completion_by_combo)) {
    const model = comparedModelOfCombo(combo);
    if (model === undefined) continue;
    const key = modelKeyOf(model);
    if (!options.has(key)) options.set(key, { key, model });
  }
  return [...options.values()];
}

/** The distinct parsing models (display strings) of the summary's combinations, in order first seen. */
export function parsingModelsOf(summary: ResultSummary): string[] {
  const seen = new Set<string>();
  for (const combo of Object.keys(summary.completion_by_combo)) {
    const parsing = combo.split(" | ")[1];
    if (parsing !== undefined) seen.add(parsing);
  }
  return [...seen];
}
