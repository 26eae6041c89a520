import { access } from "node:fs/promises";
import { basename, extname } from "node:path";
import { type Command, Option } from "commander";
import { DEFAULT_PRICES, loadPriceTable, type PriceTable, readRunLog } from "../pipeline/index.js";
import {
  compareRuns,
  modelComboKey,
  type PassRate,
  type PriceLookup,
  parseVerificationResult,
  passRate,
  type ResultSummary,
  ResultsFileError,
  type RowChange,
  type RunComparison,
  readResultsCsv,
  readResultsJson,
  rowOutcome,
  summarizeResults,
  type TraitSummary,
  type VerificationResult,
  VerificationResultError,
} from "../results/index.js";
import type { Storage } from "../storage/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { loadStoredRun, withStorage } from "./db-runs.js";

/** Options of `karenina results`, as commander gives them. */
export interface ResultsOptions {
  compare?: string;
  by?: ResultsGrouping;
  json?: boolean;
  prices?: string;
  db?: string;
}

/** The extra breakdown `--by` asks for; model pairs are always shown. */
export type ResultsGrouping = "model" | "question" | "keyword";

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
}

const FORMATS: Record<string, LoadedResults["format"]> = {
  ".jsonl": "jsonl",
  ".json": "json",
  ".csv": "csv",
};

async function mustExist(file: string): Promise<void> {
  try {
    await access(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such file" : (code ?? String(error));
    throw new ResultsFileError(file, `cannot read the results file (${reason})`, { cause: error });
  }
}

async function loadRunLog(file: string): Promise<LoadedResults> {
  const { results: values, skippedLines } = await readRunLog(file);
  if (values.length === 0 && skippedLines > 0) {
    throw new ResultsFileError(file, `not a JSONL run log: none of its ${skippedLines} lines is JSON`);
  }
  // A crash can cut short the last line only; more lines that are not JSON mean another kind of file.
  if (skippedLines > 1) {
    throw new ResultsFileError(
      file,
      `not a JSONL run log: ${skippedLines} lines are not JSON (one result per line expected)`,
    );
  }
  const results = values.map((value, index) => {
    try {
      return parseVerificationResult(value, `JSON line ${index + 1}`);
    } catch (error) {
      if (!(error instanceof VerificationResultError)) throw error;
      throw new ResultsFileError(file, `not a run log of verification results: ${error.message}`, {
        cause: error,
      });
    }
  });
  return { file, format: "jsonl", kind: "JSONL run log", results, notes: [], skippedLines };
}

/**
 * Reads a results file by its extension: `.jsonl` (the run log of `karenina verify -o run.jsonl`), `.json` (a
 * format 2.2 export, or a legacy array or map) or `.csv` (a CSV export).
 * @throws {ResultsFileError} naming the file when it is missing, unreadable or not a results file of its kind;
 * {@link CliUsageError} for another extension. For example `loadResults("run.jsonl")` reads the run log of a
 * `karenina verify -o run.jsonl` run.
 */
export async function loadResults(file: string): Promise<LoadedResults> {
  const extension = extname(file).toLowerCase();
  const format = FORMATS[extension];
  if (format === undefined) {
    const hint =
      extension === ".jsonld" ? " (a .jsonld file is a checkpoint: see karenina checkpoint inspect)" : "";
    throw new CliUsageError(
      `${file}: not a results file: expected .jsonl (run log), .json (export) or .csv (export)${hint}`,
    );
  }
  await mustExist(file);
  if (format === "jsonl") return loadRunLog(file);
  if (format === "json") {
    const read = await readResultsJson(file);
    const job = read.format === "v2.2" ? `, job ${read.metadata.job_id}` : "";
    const kind =
      read.format === "v2.2" ? `JSON export (format 2.2${job})` : `JSON results (legacy ${read.format})`;
    return { file, format, kind, results: read.results, notes: [], skippedLines: 0 };
  }
  const read = await readResultsCsv(file);
  return {
    file,
    format,
    kind: "CSV export",
    results: read.results,
    notes: ["CSV keeps no failure categories (read as unexpected_error) nor trait types (read as llm)"],
    skippedLines: 0,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Text layout

/** A column of {@link table}. */
export interface Column {
  header: string;
  right?: boolean;
}

/** An aligned table, indented by two spaces; the last column is left ragged when it is left-aligned. */
export function table(columns: readonly Column[], rows: readonly string[][]): string[] {
  const widths = columns.map((column, at) =>
    Math.max(column.header.length, ...rows.map((row) => (row[at] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    `  ${cells
      .map((cell, at) => (columns[at]?.right ? cell.padStart(widths[at] ?? 0) : cell.padEnd(widths[at] ?? 0)))
      .join("  ")}`.trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)];
}

const pct = (value: number) => `${value.toFixed(1)}%`;
const ratePct = (rate: PassRate) => (rate.total === 0 ? "-" : pct(rate.pass_pct));
const points = (delta: number) => `${delta >= 0 ? "+" : ""}${delta.toFixed(1)} pp`;
const usd = (value: number) => `$${value.toFixed(value === 0 || value >= 0.0001 ? 4 : 6)}`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const scoreText = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** Long ids keep their start and their end (where ids carry their hash). */
function clip(text: string, max = 48): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (max - 1 - head))}`;
}

/** `content 2, timeout 1`: failure categories by count, then name. */
function failureCounts(rows: readonly VerificationResult[]): string {
  const counts = new Map<string, number>();
  for (const { metadata } of rows) {
    const category = metadata.failure?.category;
    if (category !== undefined) counts.set(category, (counts.get(category) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
    .map(([category, count]) => `${category} ${count}`)
    .join(", ");
}

function groupBy(
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
function keysFor(by: ResultsGrouping): (row: VerificationResult) => readonly string[] {
  if (by === "model") return (row) => [modelComboKey(row)];
  if (by === "question") return (row) => [row.metadata.question_id];
  return (row) => {
    const keywords = [...new Set(row.metadata.keywords ?? [])];
    return keywords.length === 0 ? [NO_KEYWORD] : keywords;
  };
}

const GROUP_TITLES: Record<ResultsGrouping, [title: string, column: string]> = {
  model: ["By model pair (answering | parsing)", "model pair"],
  question: ["By question", "question"],
  keyword: ["By keyword (a result counts under each of its keywords)", "keyword"],
};

const verified = (row: VerificationResult) => row.template?.template_verification_performed === true;

/** Pass counts of groups of rows: results, [verified,] passed, failed, pass rate, failure categories. */
function outcomeTable(
  groups: Map<string, VerificationResult[]>,
  column: string,
  showVerified: boolean,
): string[] {
  const columns: Column[] = [
    { header: column },
    { header: "results", right: true },
    ...(showVerified ? [{ header: "verified", right: true }] : []),
    { header: "passed", right: true },
    { header: "failed", right: true },
    { header: "pass rate", right: true },
    { header: "failures" },
  ];
  const rows = [...groups].map(([key, group]) => {
    const rate = passRate(group);
    return [
      column === "model pair" ? key : clip(key),
      String(group.length),
      ...(showVerified ? [String(rate.total)] : []),
      String(rate.passed),
      String(group.filter((row) => rowOutcome(row) === "failed").length),
      ratePct(rate),
      failureCounts(group),
    ];
  });
  return table(columns, rows);
}

function headline(loaded: LoadedResults, summary: ResultSummary): string[] {
  const rows = loaded.results;
  const runs = [...new Set(rows.flatMap((row) => row.metadata.run_name ?? []))];
  const run = runs.length === 1 ? `, run ${runs[0]}` : runs.length > 1 ? `, ${runs.length} runs` : "";
  const lines = [`${loaded.file}: ${loaded.kind}${run}`];
  for (const note of loaded.notes) lines.push(`  note: ${note}`);
  if (rows.length === 0) return [...lines, "  no results"];
  const pairs = Object.keys(summary.completion_by_combo).length;
  const shape = [plural(summary.num_questions, "question"), plural(pairs, "model pair")];
  if (summary.num_replicates > 1) shape.push(plural(summary.num_replicates, "replicate"));
  const overall = summary.template_pass_overall;
  const failed = rows.filter((row) => rowOutcome(row) === "failed").length;
  const failures = failureCounts(rows);
  const rate =
    overall.total === 0
      ? "- (no result had template verification)"
      : `${pct(overall.pass_pct)}${overall.total < rows.length ? `  (of the ${overall.total} verified)` : ""}`;
  const stats: [string, string][] = [
    ["results", `${rows.length}  (${shape.join(", ")})`],
    ["passed", String(overall.passed)],
    ["failed", `${failed}${failures === "" ? "" : `  (${failures})`}`],
    ["pass rate", rate],
  ];
  const notEvaluated = rows.filter((row) => rowOutcome(row) === "not_evaluated").length;
  if (notEvaluated > 0)
    stats.splice(3, 0, ["not verified", `${notEvaluated}  (no template verification, no failure)`]);
  const width = Math.max(...stats.map(([label]) => label.length));
  return [...lines, ...stats.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)];
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

function rubricLines(summary: ResultSummary): string[] {
  const scores = summary.rubric_scores;
  const global = summary.rubric_traits.global_traits;
  const scope = (type: keyof typeof global, name: string) =>
    global[type].names.includes(name.split(".", 1)[0] ?? name) ? "global" : "question";
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
    `Rubric traits (${summary.num_with_rubric} results with a rubric evaluation)`,
    ...table([...columns, { header: "summary" }], rows),
  ];
}

function replicateLines(summary: ResultSummary): string[] {
  const stats = summary.replicate_stats;
  if (stats === null) return [];
  const { mean, std } = stats.replicate_summary;
  const lines = [
    "",
    `Replicates (${summary.num_replicates}): pass rate mean ${pct(mean * 100)}, std ${(std * 100).toFixed(1)} pp`,
    ...table(
      [
        { header: "replicate" },
        { header: "verified", right: true },
        { header: "passed", right: true },
        { header: "pass rate", right: true },
      ],
      Object.entries(stats.replicate_pass_rates).map(([replicate, rate]) => [
        replicate,
        String(rate.total),
        String(rate.passed),
        ratePct(rate),
      ]),
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
    "pass@k by model pair (mean over the questions with at least k verified replicates)",
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
    ),
  ];
}

function tokenLines(summary: ResultSummary, pricesLabel: string): string[] {
  const cost = summary.cost;
  if (summary.tokens.num_results_with_usage === 0 || cost === null) return ["", "Tokens: no usage recorded"];
  const rows = Object.entries(cost.by_model).map(([model, entry]) => [
    model,
    String(entry.input_tokens),
    String(entry.output_tokens),
    entry.cost_usd === null ? "no price" : usd(entry.cost_usd),
  ]);
  const total = usd(cost.total_usd) + (cost.unpriced_models.length > 0 ? " + unpriced" : "");
  rows.push(["total", String(summary.tokens.total_input), String(summary.tokens.total_output), total]);
  return [
    "",
    `Tokens and cost (${summary.tokens.num_results_with_usage} results with usage; ${pricesLabel})`,
    ...table(
      [
        { header: "model" },
        { header: "input", right: true },
        { header: "output", right: true },
        { header: "cost", right: true },
      ],
      rows,
    ),
  ];
}

/** The text report of one results file. */
function summaryText(
  loaded: LoadedResults,
  summary: ResultSummary,
  by: ResultsGrouping,
  pricesLabel: string,
) {
  const lines = headline(loaded, summary);
  const rows = loaded.results;
  if (rows.length === 0) return lines;
  const showVerified = rows.some((row) => !verified(row));
  for (const grouping of by === "model" ? (["model"] as const) : (["model", by] as const)) {
    const [title, column] = GROUP_TITLES[grouping];
    lines.push("", title, ...outcomeTable(groupBy(rows, keysFor(grouping)), column, showVerified));
  }
  return [...lines, ...rubricLines(summary), ...replicateLines(summary), ...tokenLines(summary, pricesLabel)];
}

// ---------------------------------------------------------------------------------------------------------
// Comparison

const fraction = (rate: PassRate) => (rate.total === 0 ? "-" : `${rate.passed}/${rate.total}`);

/** Pass rates of each key in two runs: passed/verified and the rate, then the change. */
function sideBySide(
  column: string,
  keys: readonly string[],
  rateOf: (key: string) => { before: PassRate; after: PassRate },
): string[] {
  return table(
    [
      { header: column },
      { header: "before", right: true },
      { header: "pass rate", right: true },
      { header: "after", right: true },
      { header: "pass rate", right: true },
      { header: "change", right: true },
    ],
    keys.map((key) => {
      const { before, after } = rateOf(key);
      const change = before.total === 0 || after.total === 0 ? "-" : points(after.pass_pct - before.pass_pct);
      const name = column === "model pair" ? key : clip(key);
      return [name, fraction(before), ratePct(before), fraction(after), ratePct(after), change];
    }),
  );
}

const replicateText = (replicate: number | null) => (replicate === null ? "-" : String(replicate));

/** Changed results: question, model pair, replicate, and `detail` under the header `detailHeader`. */
function changeTable(
  title: string,
  changes: readonly RowChange[],
  detailHeader: string,
  detail: (change: RowChange) => string,
): string[] {
  if (changes.length === 0) return [];
  return [
    "",
    `${title} (${changes.length})`,
    ...table(
      [
        { header: "question" },
        { header: "model pair" },
        { header: "replicate", right: true },
        { header: detailHeader },
      ],
      changes.map((change) => [
        clip(change.question_id),
        `${change.answering_model} | ${change.parsing_model}`,
        replicateText(change.replicate),
        detail(change),
      ]),
    ),
  ];
}

function comparisonText(
  before: LoadedResults,
  after: LoadedResults,
  comparison: RunComparison,
  by: ResultsGrouping,
): string[] {
  const { summary } = comparison;
  const lines = [
    `before: ${before.file}: ${before.kind}, ${plural(before.results.length, "result")}`,
    `after:  ${after.file}: ${after.kind}, ${plural(after.results.length, "result")}`,
    ...[...before.notes, ...after.notes].map((note) => `  note: ${note}`),
    `  matched    ${summary.matched} results (only before ${summary.only_before}, only after ${summary.only_after})`,
    `  pass rate  ${fraction(comparison.matched_before)} ${ratePct(comparison.matched_before)} → ${fraction(comparison.matched_after)} ${ratePct(comparison.matched_after)}  (${points(summary.pass_pct_delta)}, matched results)`,
    `  verdicts   ${summary.pass_to_fail} pass → fail, ${summary.fail_to_pass} fail → pass, ${summary.unchanged} unchanged`,
    "",
    "Pass rate by model pair (answering | parsing), all results",
    ...sideBySide("model pair", Object.keys(comparison.by_combo), (key) => {
      const combo = comparison.by_combo[key];
      return { before: combo?.before ?? passRate([]), after: combo?.after ?? passRate([]) };
    }),
  ];
  if (by !== "model") {
    const keysOf = keysFor(by);
    const was = groupBy(before.results, keysOf);
    const now = groupBy(after.results, keysOf);
    const [title, column] = GROUP_TITLES[by];
    lines.push(
      "",
      `Pass rate ${title.charAt(0).toLowerCase()}${title.slice(1)}`,
      ...sideBySide(column, [...new Set([...was.keys(), ...now.keys()])], (key) => ({
        before: passRate(was.get(key) ?? []),
        after: passRate(now.get(key) ?? []),
      })),
    );
  }
  const category = (state: RowChange["before"]) => state.failure_category ?? "-";
  lines.push(
    ...changeTable("Pass → fail", comparison.pass_to_fail, "failure", (change) => category(change.after)),
    ...changeTable("Fail → pass", comparison.fail_to_pass, "failure before", (change) =>
      category(change.before),
    ),
  );
  const rowId = (change: RowChange) =>
    JSON.stringify([change.question_id, change.answering_model, change.parsing_model, change.replicate]);
  const listed = new Set([...comparison.pass_to_fail, ...comparison.fail_to_pass].map(rowId));
  const otherChanges = [
    ...comparison.newly_failing,
    ...comparison.no_longer_failing,
    ...comparison.failure_changed,
  ].filter((change) => !listed.has(rowId(change)));
  lines.push(
    ...changeTable(
      "Failure changed, same verdict",
      otherChanges,
      "failure before → after",
      (change) => `${category(change.before)} → ${category(change.after)}`,
    ),
  );
  for (const [title, rows] of [
    ["Only in before", comparison.only_before],
    ["Only in after", comparison.only_after],
  ] as const) {
    if (rows.length === 0) continue;
    const questions = [...new Set(rows.map((row) => row.question_id))];
    const shown = questions
      .slice(0, 10)
      .map((id) => clip(id))
      .join(", ");
    lines.push(
      "",
      `${title} (${plural(rows.length, "result")}): ${shown}${questions.length > 10 ? ", …" : ""}`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// The command

async function pricesFor(file: string | undefined): Promise<{ lookup: PriceLookup; label: string }> {
  const table: Readonly<PriceTable> = file === undefined ? DEFAULT_PRICES : await loadPriceTable(file);
  const label =
    file === undefined ? "built-in list prices" : `prices from ${basename(file)} over the built-in ones`;
  return { lookup: (model) => table[model], label };
}

/** `karenina results FILE [--compare OTHER] [--by model|question|keyword] [--json] [--prices FILE]`. */
export function registerResultsCommand(program: Command, io: CliIo): void {
  program
    .command("results")
    .description(
      "Summarize a results file (run log, JSON or CSV export) or a stored run, or compare two runs",
    )
    .argument(
      "[source]",
      "a .jsonl run log (karenina verify -o run.jsonl), a .json or .csv export; with --db: a run name or id",
    )
    .option(
      "--db <url>",
      "read runs from a database (a SQLite file such as karenina.db, or postgres://...); without a run: list them",
    )
    .option("--compare <other>", "compare with another results file (or run, with --db): SOURCE is before")
    .addOption(
      new Option("--by <grouping>", "also break the pass rates down by question or keyword")
        .choices(["model", "question", "keyword"])
        .default("model"),
    )
    .option("--json", "print the summary (or the comparison) as JSON instead")
    .option(
      "--prices <file>",
      "JSON price table overriding the built-in one: {model: {input_per_million, output_per_million}}",
    )
    .addHelpText(
      "after",
      `
Examples:
  karenina results run.jsonl                        # the run log of: karenina verify bench.jsonld ... -o run.jsonl
  karenina results run.json --by question           # a format 2.2 export, with pass rates per question too
  karenina results run.csv --by keyword             # a CSV export, with pass rates per question keyword
  karenina results before.jsonl --compare after.jsonl      # pass rates side by side, and what changed
  karenina results run.jsonl --json | jq .template_pass_by_combo
  karenina results --db karenina.db                 # the runs stored in a database (karenina verify --db)
  karenina results nightly --db karenina.db --compare nightly-2    # stored runs, by name or id

"passed" is a result whose template verification ran and gave true; the pass rate is over the results with
template verification ("verified"). "failed" is a result that did not pass or has a failure (its category is
shown). Results are matched across runs by question, answering and parsing model, and replicate.
Costs use the built-in list prices (or --prices); models without a price are left out of the cost.
--json prints the summarizeResults object (or the compareRuns object with --compare).
Exit code: 0, or 2 when a file is missing or is not a results file, or a database or run cannot be read.`,
    )
    .action(async (source: string | undefined, options: ResultsOptions) => {
      if (options.db !== undefined) {
        await withStorage(options.db, async (storage) => {
          if (source === undefined) {
            io.out(await runListReport(storage, options.json === true));
            return;
          }
          const loaded = await loadStoredRun(storage, source);
          const other = options.compare === undefined ? null : await loadStoredRun(storage, options.compare);
          io.out(await report(loaded, other, options));
        });
        return;
      }
      if (source === undefined)
        throw new CliUsageError("give a results file, or --db URL to read stored runs");
      const loaded = await loadResults(source);
      const other = options.compare === undefined ? null : await loadResults(options.compare);
      for (const run of other === null ? [loaded] : [loaded, other]) {
        if (run.skippedLines > 0)
          io.err(
            `warning: ${run.file}: skipped a line that is not JSON (cut short when the run was killed?)\n`,
          );
      }
      io.out(await report(loaded, other, options));
    });
}

/** The summary of one run, or the comparison of two. */
async function report(
  loaded: LoadedResults,
  other: LoadedResults | null,
  options: ResultsOptions,
): Promise<string> {
  const by = options.by ?? "model";
  if (other === null)
    return resultsReport(loaded, { by, json: options.json ?? false, prices: options.prices });
  const comparison = compareRuns(loaded.results, other.results);
  return options.json
    ? `${JSON.stringify(comparison, null, 2)}\n`
    : `${comparisonText(loaded, other, comparison, by).join("\n")}\n`;
}

/** The stored runs, newest first, as a table (or JSON). */
async function runListReport(storage: Storage, json: boolean): Promise<string> {
  const runs = await storage.listRuns({ limit: 200 });
  if (json) return `${JSON.stringify(runs, null, 2)}\n`;
  if (runs.length === 0)
    return `${storage.database}: no runs stored yet (karenina verify ... --db ${storage.database})\n`;
  const rows = runs.map((run) => [
    run.runName,
    run.benchmarkName,
    run.status,
    String(run.processedCount),
    String(run.successfulCount),
    String(run.failedCount),
    run.startTime,
  ]);
  const columns: Column[] = [
    { header: "run" },
    { header: "benchmark" },
    { header: "status" },
    { header: "results", right: true },
    { header: "no failure", right: true },
    { header: "failed", right: true },
    { header: "started" },
  ];
  return `Runs in ${storage.database} (newest first):\n${table(columns, rows).join("\n")}\n`;
}

/**
 * What `karenina results FILE` prints for results already read (`karenina demo` prints it for its run too):
 * the summary tables, or with `json` the `summarizeResults` object; costs at the built-in list prices, or
 * those of the `prices` file over them.
 */
export async function resultsReport(
  loaded: LoadedResults,
  options: { by?: ResultsGrouping; json?: boolean; prices?: string | undefined } = {},
): Promise<string> {
  const prices = await pricesFor(options.prices);
  const summary = summarizeResults(loaded.results, { prices: prices.lookup });
  return options.json
    ? `${JSON.stringify(summary, null, 2)}\n`
    : `${summaryText(loaded, summary, options.by ?? "model", prices.label).join("\n")}\n`;
}
