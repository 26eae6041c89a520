/**
 * `karenina rubric apply RUN --rubric FILE`: scores the answers of a stored run (or a results file) against a
 * new rubric, without asking any question again (spec 08 §10.2).
 */
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { isEmptyRubric, parseRubric, type Rubric, RubricError } from "../model/index.js";
import type { PostHocJudgment, RowSelection } from "../pipeline/index.js";
import { type Emit, type VerificationResult, writeAtomicStream } from "../results/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { paletteFor } from "./colour.js";
import { findRun, withStorage } from "./db-runs.js";
import { integer } from "./option-parsers.js";
import { loadResults } from "./results-command.js";
import { type Column, table } from "./text-table.js";

/** Options of `karenina rubric apply`, as commander gives them. */
export interface RubricApplyOptions {
  rubric: string;
  db?: string;
  results?: string;
  parsingModel: string;
  maxWorkers: number;
  output?: string;
  endpointKeyEnv?: string;
}

const RUBRIC_SHAPE =
  'a JSON rubric {"llm_traits": [...], "regex_traits": [...], "callable_traits": [...], "metric_traits": [...]}';

async function readJsonRubric(file: string): Promise<Rubric> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new CliUsageError(`${file}: cannot read the rubric (${(error as NodeJS.ErrnoException).code})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`${file}: not JSON (${(error as Error).message}); expected ${RUBRIC_SHAPE}`);
  }
  try {
    return parseRubric(value);
  } catch (error) {
    if (!(error instanceof RubricError)) throw error;
    throw new CliUsageError(`${file}: not a valid rubric: ${error.message}`);
  }
}

/**
 * The rubric of `--rubric FILE`: a JSON rubric (the dump `Rubric.model_dump()` writes, the shape TaskEval's
 * `addRubric` takes), or a checkpoint, whose global rubric is used (the rubric `rubric check` runs).
 */
export async function readRubricFile(file: string): Promise<Rubric> {
  const extension = extname(file).toLowerCase();
  let rubric: Rubric | null;
  if (extension === ".jsonld") rubric = (await Benchmark.load(file)).getGlobalRubric();
  else if (extension === ".json") rubric = await readJsonRubric(file);
  else
    throw new CliUsageError(`--rubric ${file}: expected ${RUBRIC_SHAPE} (.json) or a checkpoint (.jsonld)`);
  if (rubric === null || isEmptyRubric(rubric)) {
    const where = extension === ".jsonld" ? "the checkpoint has no global rubric" : "the rubric has no trait";
    throw new CliUsageError(`${file}: ${where}; expected ${RUBRIC_SHAPE} with at least one trait`);
  }
  return rubric;
}

/** The rows to judge: a stored run (by id or name), or a results file, optionally narrowed to one run name. */
async function loadRows(run: string | undefined, options: RubricApplyOptions): Promise<VerificationResult[]> {
  if (options.db !== undefined && options.results !== undefined) {
    throw new CliUsageError("give either --db URL (a stored run) or --results FILE, not both");
  }
  if (options.db !== undefined) {
    if (run === undefined) throw new CliUsageError("give the RUN (id or name) to judge from --db");
    return withStorage(options.db, async (storage) => {
      const found = await findRun(storage, run);
      return storage.loadResults({ runId: found.id });
    });
  }
  if (options.results === undefined) {
    throw new CliUsageError(
      "give --db URL (a run stored by karenina verify --db) or --results FILE (a run log or export)",
    );
  }
  const loaded = await loadResults(options.results);
  if (run === undefined) return loaded.results;
  const rows = loaded.results.filter((row) => row.metadata.run_name === run);
  if (rows.length === 0) {
    const names = [...new Set(loaded.results.map((row) => row.metadata.run_name ?? "(none)"))];
    throw new CliUsageError(
      `${options.results}: no result of run ${JSON.stringify(run)} (run names found: ${names.join(", ")}); leave RUN out to judge every result`,
    );
  }
  return rows;
}

interface TraitTally {
  scored: number;
  numbers: number[];
  trues: number;
  booleans: number;
}

const format = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** Per trait: texts scored, mean of numeric scores, share of true verdicts. */
function summaryTable(judgments: readonly PostHocJudgment[], io: CliIo): string[] {
  const traits = new Map<string, TraitTally>();
  for (const judgment of judgments) {
    for (const [name, score] of Object.entries(judgment.scores)) {
      const tally = traits.get(name) ?? { scored: 0, numbers: [], trues: 0, booleans: 0 };
      traits.set(name, tally);
      if (score === null) continue;
      tally.scored++;
      if (typeof score === "number") tally.numbers.push(score);
      if (typeof score === "boolean") {
        tally.booleans++;
        if (score) tally.trues++;
      }
    }
  }
  const columns: Column[] = [
    { header: "trait" },
    { header: "scored", right: true },
    { header: "mean", right: true },
    { header: "true", right: true },
  ];
  const rows = [...traits].map(([name, tally]) => [
    name,
    String(tally.scored),
    tally.numbers.length === 0
      ? "-"
      : format(tally.numbers.reduce((a, b) => a + b, 0) / tally.numbers.length),
    tally.booleans === 0 ? "-" : `${Math.round((100 * tally.trues) / tally.booleans)}%`,
  ]);
  return table(columns, rows, paletteFor(io.colour));
}

function reportText(judgments: readonly PostHocJudgment[], rows: number, io: CliIo, output?: string): string {
  const errors = judgments.filter((judgment) => judgment.error !== null);
  const lines = [
    `judged ${judgments.length} answers for ${rows} results (${errors.length} with an error)`,
    ...summaryTable(judgments, io),
  ];
  for (const judgment of errors.slice(0, 5))
    lines.push(`  error ${judgment.key.question_id}: ${judgment.error}`);
  if (errors.length > 5) lines.push(`  … and ${errors.length - 5} more errors`);
  if (output !== undefined) lines.push(`judgments written to ${output} (JSON lines)`);
  return `${lines.join("\n")}\n`;
}

/** Progress on stderr: a line rewritten in place on a terminal, else about ten lines in all. */
function progress(io: CliIo, total: number): (done: number) => void {
  const every = Math.max(1, Math.floor(total / 10));
  return (done) => {
    if (io.errIsTerminal) io.err(`\rjudged ${done}/${total}${done === total ? "\n" : ""}`);
    else if (done % every === 0 || done === total) io.err(`judged ${done}/${total}\n`);
  };
}

/** Warnings on stderr: the first five, then how many more there were. */
function warningPrinter(io: CliIo): { warn: (message: string) => void; finish: () => void } {
  let count = 0;
  return {
    warn: (message) => {
      count++;
      if (count <= 5) io.err(`warning: ${message}\n`);
    },
    finish: () => {
      if (count > 5) io.err(`warning: … and ${count - 5} more warnings\n`);
    },
  };
}

async function applyRubric(run: string | undefined, options: RubricApplyOptions, io: CliIo): Promise<void> {
  const rubric = await readRubricFile(options.rubric);
  // The pipeline (model clients) loads when a rubric is applied, not with every `rubric` command.
  const { modelFromSpec } = await import("./verify-config.js");
  const judge = modelFromSpec(options.parsingModel, process.env, options.endpointKeyEnv);
  const rows = await loadRows(run, options);
  if (rows.length === 0) throw new CliUsageError("no results to judge: the run holds no result");
  // The stored question and its expected answer, for traits that show the judge the ground truth.
  const selection: RowSelection = {
    rowContext: (row) => ({ question: row.metadata.question_text, ground_truth: row.metadata.raw_answer }),
  };
  const { evaluateRubricOnResults, itemsFromRows } = await import("../pipeline/index.js");
  const total = itemsFromRows(rows, rubric, selection).length;
  const warnings = warningPrinter(io);
  const judgments = evaluateRubricOnResults(rows, rubric, judge, {
    ...selection,
    maxWorkers: options.maxWorkers,
    onWarning: warnings.warn,
  });
  const done: PostHocJudgment[] = [];
  const tick = progress(io, total);
  // With --output, the judgments go to a temporary file renamed once all are written (none on a failure).
  const judgeAll = async (emit?: Emit) => {
    for await (const judgment of judgments) {
      done.push(judgment);
      await emit?.(`${JSON.stringify(judgment)}\n`);
      tick(done.length);
    }
  };
  if (options.output === undefined) await judgeAll();
  else await writeAtomicStream(options.output, judgeAll);
  warnings.finish();
  io.out(reportText(done, rows.length, io, options.output));
  if (done.some((judgment) => judgment.error !== null)) throw new CliExit(EXIT.checkFailed);
}

/** `karenina rubric apply RUN --rubric FILE (--db URL | --results FILE) --parsing-model SPEC`. */
export function registerRubricApplyCommand(rubric: Command, io: CliIo): void {
  rubric
    .command("apply")
    .description(
      "Score the answers of a stored run (or a results file) against a new rubric, with a judge model only: no answer is generated again",
    )
    .argument("[run]", "the run id or name in --db; with --results, keeps only the results of this run name")
    .requiredOption(
      "--rubric <file>",
      `${RUBRIC_SHAPE} (.json), or a checkpoint whose global rubric to apply`,
    )
    .requiredOption(
      "--parsing-model <spec>",
      "the judge model interface:model[@base_url], e.g. openai_endpoint:judge@http://127.0.0.1:8000/v1",
    )
    .option("--db <url>", "the database holding RUN (a SQLite file such as karenina.db, or postgres://...)")
    .option("--results <file>", "a results file instead: .jsonl run log, .json or .csv export")
    .option("--max-workers <n>", "answers judged at once (1: in input order)", integer("--max-workers", 1), 4)
    .option(
      "--output <file>",
      "write the judgments as JSON lines, one PostHocJudgment per answer, in completion order",
    )
    .option("--endpoint-key-env <name>", "environment variable holding the openai_endpoint API key")
    .addHelpText(
      "after",
      `
Example:
  karenina rubric apply nightly --db karenina.db --rubric clarity.json \\
    --parsing-model openai_endpoint:judge@http://127.0.0.1:8000/v1 --max-workers 8 --output judgments.jsonl

Each generated answer is judged once: results that share it (the same question, answering model and
replicate, parsed by several judges) become one judgment listing them all in sibling_keys and
sibling_result_ids. The judge sees the answer (template.raw_llm_response), and traits that include the
ground truth also see the stored question's expected answer. The stored results are not changed. A judgment line of --output:
  {"key": {"question_id", "answering_key", "parsing_key", "replicate", "run_name", "scenario_id",
   "scenario_node", "scenario_turn"}, "sibling_keys": [...], "scores": {trait: value}, "labels": {trait: class},
   "error": null or why, "representative_result_id", "sibling_result_ids": [...]}
The summary table (per trait: answers scored, mean score, share of true verdicts) goes to stdout, progress
and warnings to stderr. Exit code: 0; 1 when some answer could not be judged; 2 for a bad flag or file.`,
    )
    .action(async (run: string | undefined, options: RubricApplyOptions) => applyRubric(run, options, io));
}
