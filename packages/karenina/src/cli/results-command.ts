import { access } from "node:fs/promises";
import { extname } from "node:path";
import { type Command, Option } from "commander";
import { jsonPath } from "../checkpoint/index.js";
import { schemaProblems } from "../errors/index.js";
import { readRunLog } from "../pipeline/index.js";
import {
  compareRuns,
  type PassRate,
  parseVerificationResult,
  passRate,
  ResultsFileError,
  type RowChange,
  type RunComparison,
  readResultsCsv,
  readResultsJson,
  type ScenarioExecutionSummary,
  ScenarioExecutionSummarySchema,
  scenarioRecordsFromRows,
  type VerificationResult,
  VerificationResultError,
} from "../results/index.js";
import type { Storage } from "../storage/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { type Palette, paletteFor, printable } from "./colour.js";
import { loadStoredRun, withStorage } from "./db-runs.js";
import {
  GROUP_TITLES,
  groupBy,
  keysFor,
  type LoadedResults,
  OUTCOME_HELP,
  plural,
  type ResultsGrouping,
  ratePct,
  resultsReport,
} from "./results-report.js";
import { shellCommand } from "./shell-words.js";
import { type Column, table, toned } from "./text-table.js";

export type { LoadedResults, ResultsGrouping } from "./results-report.js";
export { type Column, table } from "./text-table.js";

/** Options of `karenina results`, as commander gives them. */
export interface ResultsOptions {
  compare?: string;
  by?: ResultsGrouping;
  json?: boolean;
  prices?: string;
  db?: string;
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
  const results: VerificationResult[] = [];
  const summaries: ScenarioExecutionSummary[] = [];
  values.forEach((value, index) => {
    if (isExecutionLine(value)) summaries.push(executionSummary(value, file, index));
    else results.push(resultOfLine(value, file, index));
  });
  const scenarios = summaries.length === 0 ? null : scenarioRecordsFromRows(results, summaries);
  return { file, format: "jsonl", kind: "JSONL run log", results, notes: [], skippedLines, scenarios };
}

/** A run-log line `{"scenario_execution": ...}` (written after a scenario execution's turn rows). */
const isExecutionLine = (value: unknown): value is { scenario_execution: unknown } =>
  value !== null && typeof value === "object" && Object.hasOwn(value, "scenario_execution");

function executionSummary(
  line: { scenario_execution: unknown },
  file: string,
  index: number,
): ScenarioExecutionSummary {
  const parsed = ScenarioExecutionSummarySchema.safeParse(line.scenario_execution);
  if (parsed.success) return parsed.data;
  const [first] = schemaProblems(parsed.error, line.scenario_execution);
  const where = jsonPath(["scenario_execution", ...(first?.path ?? [])]);
  throw new ResultsFileError(
    file,
    `JSON line ${index + 1}: not a valid scenario execution line: ${where}: ${first?.message}`,
  );
}

function resultOfLine(value: unknown, file: string, index: number): VerificationResult {
  try {
    return parseVerificationResult(value, `JSON line ${index + 1}`);
  } catch (error) {
    if (!(error instanceof VerificationResultError)) throw error;
    throw new ResultsFileError(file, `not a run log of verification results: ${error.message}`, {
      cause: error,
    });
  }
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
    return {
      file,
      format,
      kind,
      results: read.results,
      notes: [],
      skippedLines: 0,
      scenarios: read.scenarioResults,
    };
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
// Comparison

const points = (delta: number) => `${delta >= 0 ? "+" : ""}${delta.toFixed(1)} pp`;
const fraction = (rate: PassRate) => (rate.total === 0 ? "-" : `${rate.passed}/${rate.total}`);

/** Pass rates of each key in two runs: passed/verified and the rate, then the change. */
function sideBySide(
  column: string,
  keys: readonly string[],
  rateOf: (key: string) => { before: PassRate; after: PassRate },
  palette: Palette,
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
      const delta = after.pass_pct - before.pass_pct;
      const change =
        before.total === 0 || after.total === 0
          ? "-"
          : toned(points(delta), delta > 0 ? "pass" : delta < 0 ? "fail" : null);
      return [key, fraction(before), ratePct(before), fraction(after), ratePct(after), change];
    }),
    palette,
  );
}

const replicateText = (replicate: number | null) => (replicate === null ? "-" : String(replicate));

/** Changed results: question, model pair, replicate, and `detail` under the header `detailHeader`. */
function changeTable(
  title: string,
  changes: readonly RowChange[],
  detailHeader: string,
  detail: (change: RowChange) => string,
  palette: Palette,
): string[] {
  if (changes.length === 0) return [];
  return [
    "",
    palette.paint(`${title} (${changes.length})`, "heading"),
    ...table(
      [
        { header: "question" },
        { header: "model pair" },
        { header: "replicate", right: true },
        { header: detailHeader },
      ],
      changes.map((change) => [
        change.question_id,
        `${change.answering_model} | ${change.parsing_model}`,
        replicateText(change.replicate),
        detail(change),
      ]),
      palette,
    ),
  ];
}

function comparisonText(
  before: LoadedResults,
  after: LoadedResults,
  comparison: RunComparison,
  by: ResultsGrouping,
  palette: Palette,
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
    palette.paint("Pass rate by model pair (answering | parsing), all results", "heading"),
    ...sideBySide(
      "model pair",
      Object.keys(comparison.by_combo),
      (key) => {
        const combo = comparison.by_combo[key];
        return { before: combo?.before ?? passRate([]), after: combo?.after ?? passRate([]) };
      },
      palette,
    ),
  ];
  if (by !== "model") {
    const keysOf = keysFor(by);
    const was = groupBy(before.results, keysOf);
    const now = groupBy(after.results, keysOf);
    const [title, column] = GROUP_TITLES[by];
    lines.push(
      "",
      palette.paint(`Pass rate ${title.charAt(0).toLowerCase()}${title.slice(1)}`, "heading"),
      ...sideBySide(
        column,
        [...new Set([...was.keys(), ...now.keys()])],
        (key) => ({ before: passRate(was.get(key) ?? []), after: passRate(now.get(key) ?? []) }),
        palette,
      ),
    );
  }
  const category = (state: RowChange["before"]) => state.failure_category ?? "-";
  lines.push(
    ...changeTable(
      "Pass → fail",
      comparison.pass_to_fail,
      "failure",
      (change) => category(change.after),
      palette,
    ),
    ...changeTable(
      "Fail → pass",
      comparison.fail_to_pass,
      "failure before",
      (change) => category(change.before),
      palette,
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
      palette,
    ),
  );
  for (const [title, rows] of [
    ["Only in before", comparison.only_before],
    ["Only in after", comparison.only_after],
  ] as const) {
    if (rows.length === 0) continue;
    const questions = [...new Set(rows.map((row) => row.question_id))];
    const shown = printable(questions.slice(0, 10).join(", "));
    lines.push(
      "",
      `${title} (${plural(rows.length, "result")}): ${shown}${questions.length > 10 ? ", …" : ""}`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// The command

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
      "read runs from an existing database (a SQLite file such as karenina.db, or postgres://...; never created by this command); without a run: list them",
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

${OUTCOME_HELP}
Failures are grouped by category with their most common reasons (4 × connection: ECONNREFUSED ...);
karenina show SOURCE QUESTION prints one result in full. Tables are coloured on a terminal (not when piped,
nor with NO_COLOR set). Results are matched across runs by question, answering and parsing model, and replicate.
Costs use the built-in list prices (or --prices); models without a price are left out of the cost.
Scenario runs: each turn is a result; a Scenarios section adds, per scenario, its executions, statuses and
outcome pass rates, and per execution its path (ask → push → audit), turns and outcomes.
--json prints the summarizeResults object (or the compareRuns object with --compare), with
scenario_summary and scenario_results for scenario runs.
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
          const show = shellCommand(["karenina", "show", source, "QUESTION", "--db", storage.database]);
          io.out(await report(loaded, other, options, { colour: io.colour, showCommand: show }));
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
      const show = shellCommand(["karenina", "show", source, "QUESTION"]);
      io.out(await report(loaded, other, options, { colour: io.colour, showCommand: show }));
    });
}

/** The summary of one run, or the comparison of two. */
async function report(
  loaded: LoadedResults,
  other: LoadedResults | null,
  options: ResultsOptions,
  display: { colour: boolean | undefined; showCommand: string },
): Promise<string> {
  const by = options.by ?? "model";
  if (other === null)
    return resultsReport(loaded, { by, json: options.json ?? false, prices: options.prices, ...display });
  const comparison = compareRuns(loaded.results, other.results);
  return options.json
    ? `${JSON.stringify(comparison, null, 2)}\n`
    : `${comparisonText(loaded, other, comparison, by, paletteFor(display.colour)).join("\n")}\n`;
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
