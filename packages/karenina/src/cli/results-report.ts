import { basename } from "node:path";
import { DEFAULT_PRICES, loadPriceTable, type PriceTable } from "../pipeline/index.js";
import {
  modelComboKey,
  type OutcomeCounts,
  outcomeCounts,
  type PassRate,
  type PriceLookup,
  type ResultSummary,
  type ScenarioResultRecord,
  summarizeResults,
  summarizeScenarios,
  type TraitSummary,
  type VerificationResult,
} from "../results/index.js";
import { type Palette, paletteFor, printable } from "./colour.js";
import { failuresByCategory } from "./failure-reasons.js";
import type { SelectableQuestion } from "./question-selector.js";
import { scenarioLines, scenarioRecordsOf } from "./results-scenarios.js";
import { type Cell, type Column, table, toned } from "./text-table.js";

/** A results file, read: its rows and what kind of file it was. */
export interface LoadedResults {
  file: string;
  format: "jsonl" | "json" | "csv" | "db";
  /** How the file is described in the report header, e.g. `JSONL run log`. */
  kind: string;
  results: VerificationResult[];
  /** What the reader should know about the numbers (what a CSV export does not keep). */
  notes: string[];
  /** Lines of a run log that were not JSON and were skipped (at most one: a line cut short by a crash). */
  skippedLines: number;
  /**
   * The file's scenario records (a JSON export's `scenario_results`, or those of a run log's execution
   * lines); absent or null: rebuilt from the turn rows, if there are any.
   */
  scenarios?: ScenarioResultRecord[] | null;
}

/** The extra breakdown `--by` asks for; model pairs are always shown. */
export type ResultsGrouping = "model" | "question" | "keyword";

/**
 * What "passed", "failed" and "pass rate" mean in every summary the CLI prints (run summary line, progress
 * bar, tables, `--fail-under`, `karenina show`), for help texts.
 */
export const OUTCOME_HELP = `"passed" is a result without a failure whose template verification ran and gave true; "failed" is one
that has a failure (connection, abstention, parsing, ...: its category is shown), or whose verification did
not give true; the pass rate is passed / (passed + failed). Results with neither (no template verification,
no failure, e.g. rubric only) are "not verified" and left out of the rate.`;

export const pct = (value: number) => `${value.toFixed(1)}%`;
export const ratePct = (rate: PassRate) => (rate.total === 0 ? "-" : pct(rate.pass_pct));
const outcomePct = (counts: OutcomeCounts) =>
  counts.passed + counts.failed === 0 ? "-" : pct(counts.pass_pct);
export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const usd = (value: number) => `$${value.toFixed(value === 0 || value >= 0.0001 ? 4 : 6)}`;
const scoreText = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

const byText = (a: SelectableQuestion, b: SelectableQuestion) => {
  const [x, y] = [a.text.toLowerCase(), b.text.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};

/**
 * The questions of results, sorted by their text (then id): the order, and so the index, of
 * `karenina results RUN --by question` and `karenina show RUN INDEX`. Results finish in any order and
 * exports keep them in another, so the order they appear in is not one a number can rely on.
 */
export function resultQuestions(rows: readonly VerificationResult[]): SelectableQuestion[] {
  const questions = new Map<string, SelectableQuestion>();
  for (const { metadata } of rows) {
    if (!questions.has(metadata.question_id))
      questions.set(metadata.question_id, { id: metadata.question_id, text: metadata.question_text });
  }
  return [...questions.values()].sort(byText);
}

/** `content 2, timeout 1`: failure categories by count, then name. */
function failureCounts(rows: readonly VerificationResult[]): string {
  return failuresByCategory(rows)
    .map(({ category, count }) => `${category} ${count}`)
    .join(", ");
}

export function groupBy(
  rows: readonly VerificationResult[],
  keysOf: (row: VerificationResult) => readonly string[],
): Map<string, VerificationResult[]> {
  const groups = new Map<string, VerificationResult[]>();
  for (const row of rows) {
    for (const key of keysOf(row)) {
      const group = groups.get(key) ?? [];
      group.push(row);
      groups.set(key, group);
    }
  }
  return groups;
}

const NO_KEYWORD = "(no keyword)";

/** The group keys of a breakdown: one model pair, one question, or each of the row's keywords. */
export function keysFor(by: ResultsGrouping): (row: VerificationResult) => readonly string[] {
  if (by === "model") return (row) => [modelComboKey(row)];
  if (by === "question") return (row) => [row.metadata.question_id];
  return (row) => {
    const keywords = [...new Set(row.metadata.keywords ?? [])];
    return keywords.length === 0 ? [NO_KEYWORD] : keywords;
  };
}

export const GROUP_TITLES: Record<ResultsGrouping, [title: string, column: string]> = {
  model: ["By model pair (answering | parsing)", "model pair"],
  question: ["By question", "question id"],
  keyword: ["By keyword (a result counts under each of its keywords)", "keyword"],
};

const count = (value: number, tone: "pass" | "fail" | "warn") =>
  toned(String(value), value > 0 ? tone : null);

/**
 * Pass counts of groups of rows: [#,] key, results, passed, failed, [not verified,] pass rate, failure
 * categories. `indexOf` numbers the keys (the questions of `--by question`).
 */
function outcomeTable(
  groups: Map<string, VerificationResult[]>,
  column: string,
  options: { showNotVerified: boolean; palette: Palette; indexOf?: (key: string) => number },
): string[] {
  const { showNotVerified, indexOf } = options;
  const columns: Column[] = [
    ...(indexOf === undefined ? [] : [{ header: "#", right: true }]),
    { header: column },
    { header: "results", right: true },
    { header: "passed", right: true },
    { header: "failed", right: true },
    ...(showNotVerified ? [{ header: "not verified", right: true }] : []),
    { header: "pass rate", right: true },
    { header: "failures" },
  ];
  const rows = [...groups].map(([key, group]): Cell[] => {
    const counts = outcomeCounts(group);
    return [
      ...(indexOf === undefined ? [] : [String(indexOf(key))]),
      key,
      String(group.length),
      count(counts.passed, "pass"),
      count(counts.failed, "fail"),
      ...(showNotVerified ? [count(counts.not_evaluated, "warn")] : []),
      outcomePct(counts),
      toned(failureCounts(group), "fail"),
    ];
  });
  return table(columns, rows, options.palette);
}

function headline(loaded: LoadedResults, summary: ResultSummary, palette: Palette): string[] {
  const rows = loaded.results;
  const runs = [...new Set(rows.flatMap((row) => row.metadata.run_name ?? []))];
  const run = runs.length === 1 ? `, run ${runs[0]}` : runs.length > 1 ? `, ${runs.length} runs` : "";
  const lines = [printable(`${loaded.file}: ${loaded.kind}${run}`)];
  for (const note of loaded.notes) lines.push(`  note: ${note}`);
  if (rows.length === 0) return [...lines, "  no results"];
  const pairs = Object.keys(summary.completion_by_combo).length;
  const shape = [plural(summary.num_questions, "question"), plural(pairs, "model pair")];
  if (summary.num_replicates > 1) shape.push(plural(summary.num_replicates, "replicate"));
  const { passed, failed, not_evaluated: notEvaluated } = summary.outcomes;
  const failures = failureCounts(rows);
  const judged = passed + failed;
  const rate =
    judged === 0
      ? "- (no result passed or failed)"
      : `${pct(summary.outcomes.pass_pct)}${judged < rows.length ? `  (of the ${judged} passed or failed)` : ""}`;
  const paint = (value: number, tone: "pass" | "fail" | "warn") =>
    value > 0 ? palette.paint(String(value), tone) : String(value);
  const stats: [string, string][] = [
    ["results", `${rows.length}  (${shape.join(", ")})`],
    ["passed", paint(passed, "pass")],
    ["failed", `${paint(failed, "fail")}${failures === "" ? "" : `  (${failures})`}`],
    ["pass rate", rate],
  ];
  if (notEvaluated > 0)
    stats.splice(3, 0, [
      "not verified",
      `${paint(notEvaluated, "warn")}  (no template verification, no failure)`,
    ]);
  const width = Math.max(...stats.map(([label]) => label.length));
  return [...lines, ...stats.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)];
}

type TraitType = "llm" | "regex" | "callable" | "metric" | "agentic";

/** Reasons listed per failure category; the rest are counted. */
const REASONS_PER_CATEGORY = 3;

/**
 * `4 × connection: ECONNREFUSED 127.0.0.1:59999`: the failures by category, each with its most common
 * reasons, and how to see one result in full.
 */
function failureLines(rows: readonly VerificationResult[], palette: Palette, showCommand?: string): string[] {
  const categories = failuresByCategory(rows);
  if (categories.length === 0) return [];
  const lines = ["", palette.paint("Failures by category, most common reasons first", "heading")];
  const width = Math.max(
    ...categories.flatMap((category) => category.reasons.map((r) => String(r.count).length)),
  );
  for (const { category, reasons } of categories) {
    for (const { reason, count } of reasons.slice(0, REASONS_PER_CATEGORY)) {
      const label = palette.paint(`${String(count).padStart(width)} × ${category}`, "fail");
      lines.push(`  ${label}: ${printable(reason)}`);
    }
    const more = reasons.slice(REASONS_PER_CATEGORY);
    if (more.length > 0) {
      const results = more.reduce((sum, reason) => sum + reason.count, 0);
      lines.push(
        `  ${" ".repeat(width)}   ${category}: ${plural(more.length, "other reason")} (${plural(results, "result")})`,
      );
    }
  }
  if (showCommand !== undefined) lines.push(palette.paint(`  One result in full: ${showCommand}`, "dim"));
  return lines;
}

function traitText(trait: TraitSummary): string {
  switch (trait.kind) {
    case "boolean":
      return `true ${trait.true_count} of ${trait.count} (${pct(trait.rate * 100)})`;
    case "score":
      return `mean ${trait.mean.toFixed(2)}, min ${scoreText(trait.min)}, max ${scoreText(trait.max)}`;
    case "literal":
      return Object.entries(trait.labels)
        .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
        .map(([label, count]) => `${label} ${count}`)
        .join(", ");
    default:
      return "mixed values";
  }
}

function rubricLines(summary: ResultSummary, palette: Palette): string[] {
  const scores = summary.rubric_scores;
  const global = summary.rubric_traits?.global_traits;
  const scope = (type: TraitType, name: string) =>
    global?.[type].names.includes(name) ? "global" : "question";
  const rows: string[][] = [];
  for (const type of ["llm", "regex", "callable"] as const) {
    for (const [name, trait] of Object.entries(scores[type]))
      rows.push([name, type, scope(type, name), String(trait.count), traitText(trait)]);
  }
  for (const [name, trait] of Object.entries(scores.agentic)) {
    const nulls = trait.null_count > 0 ? `, no value ${trait.null_count}` : "";
    rows.push([name, "agentic", scope("agentic", name), String(trait.count), `${traitText(trait)}${nulls}`]);
  }
  for (const [name, trait] of Object.entries(scores.metric)) {
    const metrics = Object.entries(trait.metrics).map(
      ([metric, value]) => `${metric} ${value.mean.toFixed(2)}`,
    );
    rows.push([name, "metric", scope("metric", name), String(trait.count), `mean ${metrics.join(", ")}`]);
  }
  if (rows.length === 0) return [];
  const columns = [
    { header: "trait" },
    { header: "type" },
    { header: "scope" },
    { header: "n", right: true },
  ];
  return [
    "",
    palette.paint(`Rubric traits (${summary.num_with_rubric} results with a rubric evaluation)`, "heading"),
    ...table([...columns, { header: "summary" }], rows, palette),
  ];
}

function replicateLines(summary: ResultSummary, palette: Palette): string[] {
  const stats = summary.replicate_stats;
  if (stats === null) return [];
  const { mean, std } = stats.replicate_summary;
  const lines = [
    "",
    palette.paint(
      `Replicates (${summary.num_replicates}): pass rate mean ${pct(mean * 100)}, std ${(std * 100).toFixed(1)} pp`,
      "heading",
    ),
    ...table(
      [
        { header: "replicate" },
        { header: "judged", right: true },
        { header: "passed", right: true },
        { header: "pass rate", right: true },
      ],
      Object.entries(stats.replicate_pass_rates).map(([replicate, rate]) => [
        replicate,
        String(rate.total),
        String(rate.passed),
        ratePct(rate),
      ]),
      palette,
    ),
  ];
  const combos = Object.entries(summary.pass_at_k);
  const ks = [...new Set(combos.flatMap(([, combo]) => Object.keys(combo.pass_at_k)))].sort(
    (a, b) => Number(a) - Number(b),
  );
  if (ks.length === 0) return lines;
  return [
    ...lines,
    "",
    palette.paint(
      "pass@k by model pair (mean over the questions with at least k verified replicates)",
      "heading",
    ),
    ...table(
      [
        { header: "model pair" },
        { header: "questions", right: true },
        ...ks.map((k) => ({ header: `pass@${k}`, right: true })),
      ],
      combos.map(([key, combo]) => [
        key,
        String(combo.num_questions),
        ...ks.map((k) => {
          const value = combo.pass_at_k[k];
          return value === undefined ? "-" : pct(value * 100);
        }),
      ]),
      palette,
    ),
  ];
}

function tokenLines(summary: ResultSummary, pricesLabel: string, palette: Palette): string[] {
  const cost = summary.cost;
  if (summary.tokens.num_results_with_usage === 0 || cost === null) return ["", "Tokens: no usage recorded"];
  const rows: Cell[][] = Object.entries(cost.by_model).map(([model, entry]) => [
    model,
    String(entry.input_tokens),
    String(entry.output_tokens),
    entry.cost_usd === null ? toned("no price", "warn") : usd(entry.cost_usd),
  ]);
  const total = usd(cost.total_usd) + (cost.unpriced_models.length > 0 ? " + unpriced" : "");
  rows.push(["total", String(summary.tokens.total_input), String(summary.tokens.total_output), total]);
  return [
    "",
    palette.paint(
      `Tokens and cost (${summary.tokens.num_results_with_usage} results with usage; ${pricesLabel})`,
      "heading",
    ),
    ...table(
      [
        { header: "model" },
        { header: "input", right: true },
        { header: "output", right: true },
        { header: "cost", right: true },
      ],
      rows,
      palette,
    ),
  ];
}

/**
 * The pass counts by model pair, question or keyword; questions are numbered and sorted as
 * {@link resultQuestions} does, the numbers `karenina show` takes.
 */
function breakdown(
  rows: readonly VerificationResult[],
  grouping: ResultsGrouping,
  options: { showNotVerified: boolean; palette: Palette },
): string[] {
  const [title, column] = GROUP_TITLES[grouping];
  const groups = groupBy(rows, keysFor(grouping));
  if (grouping !== "question")
    return ["", options.palette.paint(title, "heading"), ...outcomeTable(groups, column, options)];
  const index = new Map(resultQuestions(rows).map((question, at) => [question.id, at]));
  const indexOf = (id: string) => index.get(id) ?? -1;
  const sorted = new Map([...groups].sort(([a], [b]) => indexOf(a) - indexOf(b)));
  return [
    "",
    options.palette.paint(`${title} (karenina show RUN # takes these numbers, or the ids)`, "heading"),
    ...outcomeTable(sorted, column, { ...options, indexOf }),
  ];
}

/** How {@link summaryText} lays a report out. */
interface SummaryLayout {
  by: ResultsGrouping;
  pricesLabel: string;
  palette: Palette;
  /** The command that shows one result of these results in full, suggested under the failures. */
  showCommand?: string | undefined;
}

/** The text report of one results file. */
function summaryText(loaded: LoadedResults, summary: ResultSummary, layout: SummaryLayout): string[] {
  const { palette } = layout;
  const lines = headline(loaded, summary, palette);
  const rows = loaded.results;
  if (rows.length === 0) return lines;
  const showNotVerified = summary.outcomes.not_evaluated > 0;
  for (const grouping of layout.by === "model" ? (["model"] as const) : (["model", layout.by] as const))
    lines.push(...breakdown(rows, grouping, { showNotVerified, palette }));
  return [
    ...lines,
    ...scenarioLines(scenarioRecordsOf(rows, loaded.scenarios), rows, palette),
    ...failureLines(rows, palette, layout.showCommand),
    ...rubricLines(summary, palette),
    ...replicateLines(summary, palette),
    ...tokenLines(summary, layout.pricesLabel, palette),
  ];
}

/** The price lookup of a `--prices` file over the built-in list prices, and how to name it. */
export async function pricesFor(file: string | undefined): Promise<{ lookup: PriceLookup; label: string }> {
  const table: Readonly<PriceTable> = file === undefined ? DEFAULT_PRICES : await loadPriceTable(file);
  const label =
    file === undefined ? "built-in list prices" : `prices from ${basename(file)} over the built-in ones`;
  return { lookup: (model) => table[model], label };
}

/** How {@link resultsReport} reports. */
export interface ResultsReportOptions {
  /** The extra breakdown besides model pairs. */
  by?: ResultsGrouping;
  /** The `summarizeResults` object as JSON instead of tables. */
  json?: boolean;
  /** A `--prices` file over the built-in list prices. */
  prices?: string | undefined;
  /** ANSI colours in the tables (for a terminal). */
  colour?: boolean | undefined;
  /** The command that shows one of these results in full (`karenina show run.jsonl QUESTION`). */
  showCommand?: string | undefined;
}

/**
 * What `karenina results FILE` prints for results already read (`verify` and `demo` print it at the end of
 * their run too): the summary tables, or with `json` the `summarizeResults` object (plus, for scenario
 * results, `scenario_summary` and `scenario_results`); costs at the built-in list prices, or those of the
 * `prices` file over them.
 */
export async function resultsReport(
  loaded: LoadedResults,
  options: ResultsReportOptions = {},
): Promise<string> {
  const prices = await pricesFor(options.prices);
  const summary = summarizeResults(loaded.results, { prices: prices.lookup });
  if (options.json) {
    const records = scenarioRecordsOf(loaded.results, loaded.scenarios);
    const scenarios =
      records.length === 0
        ? {}
        : { scenario_summary: summarizeScenarios(records), scenario_results: records };
    return `${JSON.stringify({ ...summary, ...scenarios }, null, 2)}\n`;
  }
  const lines = summaryText(loaded, summary, {
    by: options.by ?? "model",
    pricesLabel: prices.label,
    palette: paletteFor(options.colour),
    showCommand: options.showCommand,
  });
  return `${lines.join("\n")}\n`;
}
