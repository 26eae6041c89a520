/**
 * `karenina repair SOURCE --benchmark PATH --preset PATH`: re-runs only the selected (failed) rows of a results
 * file and splices the new rows in (spec 06 §5.4). Replay mode, the default, answers from the rows' saved
 * traces: no answering call, only the judge runs again.
 */
import { extname } from "node:path";
import type { Command } from "commander";
import type { RepairFiltersInput, RepairOutcome } from "../repair/index.js";
import { isScenarioRow } from "../results/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";

/** Options of `karenina repair`, as commander gives them. */
export interface RepairOptions {
  benchmark: string;
  preset: string;
  mode: string;
  output?: string;
  questionId?: string[];
  answererKey?: string[];
  parserKey?: string[];
  replicate?: string[];
  failureGroup?: string[];
  failureCategory?: string[];
  failureStage?: string[];
  all?: boolean;
  dryRun?: boolean;
  json?: boolean;
  endpointKeyEnv?: string;
}

const repeatable = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function replicateValue(text: string): number | null {
  if (text === "none") return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new CliUsageError(`--replicate: expected an integer >= 1 or "none", found ${JSON.stringify(text)}`);
  return n;
}

/** The filters as the repair takes them; exit 2 when there is none (nor --all). */
function filtersOf(options: RepairOptions): RepairFiltersInput {
  const filters = {
    questionIds: options.questionId ?? [],
    answererKeys: options.answererKey ?? [],
    parserKeys: options.parserKey ?? [],
    replicates: (options.replicate ?? []).map(replicateValue),
    failureGroups: options.failureGroup ?? [],
    failureCategories: options.failureCategory ?? [],
    failureStages: options.failureStage ?? [],
    all: options.all ?? false,
  };
  const given = Object.values(filters).some((value) => (Array.isArray(value) ? value.length > 0 : value));
  if (!given)
    throw new CliUsageError(
      "give at least one filter (--question-id, --answerer-key, --parser-key, --replicate, --failure-group, --failure-category, --failure-stage) or --all",
    );
  return filters as RepairFiltersInput;
}

function outcomeText(outcome: RepairOutcome): string {
  const lines = outcome.dry_run
    ? [`dry run: ${outcome.selected_count} row(s) would be re-run (${outcome.mode} mode); nothing written`]
    : [
        `repaired ${outcome.replaced_count} of ${outcome.selected_count} selected row(s) (${outcome.mode} mode)`,
        `  results:    ${outcome.output_path}`,
        ...(outcome.backup_path === null ? [] : [`  backup:     ${outcome.backup_path}`]),
        `  provenance: ${outcome.provenance_path}`,
      ];
  lines.push(...outcome.selected_keys.map((key) => `  ${key}`));
  return `${lines.join("\n")}\n`;
}

async function sourceRows(source: string, output: string | undefined) {
  const extension = extname(source).toLowerCase();
  if (extension === ".csv")
    throw new CliUsageError(
      `${source}: a CSV export keeps no traces to replay; repair the run's JSON export or run log`,
    );
  if (extension === ".jsonl" && output === undefined)
    throw new CliUsageError(
      `${source}: a run log is not rewritten in place (the repaired results are a JSON export); give --output FILE.json`,
    );
  if (output !== undefined && extname(output).toLowerCase() !== ".json")
    throw new CliUsageError(`--output ${output}: the repaired results are a JSON export (.json)`);
  const { loadResults } = await import("./results-command.js");
  const loaded = await loadResults(source);
  if (loaded.results.some(isScenarioRow))
    throw new CliUsageError(
      `${source}: holds scenario turns; a turn depends on the turns before it, so repair re-runs question rows only (run the scenario again with karenina verify)`,
    );
  return loaded.results;
}

async function repair(source: string, options: RepairOptions, io: CliIo): Promise<void> {
  if (options.mode !== "replay" && options.mode !== "live")
    throw new CliUsageError(`--mode: expected replay or live, found ${JSON.stringify(options.mode)}`);
  const filters = filtersOf(options);
  // Past the usage checks of spec 06 §5.4, any failure ends the command with exit 1.
  try {
    const rows = await sourceRows(source, options.output);
    const [{ Benchmark }, { buildConfig }, { repairResults }] = await Promise.all([
      import("../benchmark/index.js"),
      import("./verify-config.js"),
      import("../repair/index.js"),
    ]);
    const benchmark = await Benchmark.load(options.benchmark);
    const config = await buildConfig(
      {
        preset: options.preset,
        ...(options.endpointKeyEnv === undefined ? {} : { endpointKeyEnv: options.endpointKeyEnv }),
      },
      process.env,
      false,
    );
    const outcome = await repairResults({
      source,
      rows,
      benchmark,
      config,
      mode: options.mode,
      filters,
      ...(options.output === undefined ? {} : { output: options.output }),
      dryRun: options.dryRun ?? false,
    });
    for (const warning of outcome.warnings) io.err(`warning: ${warning}\n`);
    io.out(options.json ? `${JSON.stringify(outcome, null, 2)}\n` : outcomeText(outcome));
  } catch (error) {
    if (error instanceof CliExit) throw error;
    io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    throw new CliExit(EXIT.checkFailed);
  }
}

/** `karenina repair SOURCE --benchmark PATH --preset PATH [filters] [--mode replay|live] [--dry-run]`. */
export function registerRepairCommand(program: Command, io: CliIo): void {
  program
    .command("repair")
    .description(
      "Re-run only the failed (selected) rows of a results file from their saved answers, and splice them in",
    )
    .argument(
      "<source>",
      "the results file: a .json export (repaired in place unless --output) or a .jsonl run log",
    )
    .requiredOption("--benchmark <path>", "the checkpoint the run verified (.jsonld)")
    .requiredOption(
      "--preset <path>",
      "the run config (a preset name or file): it must hold the rows' models",
    )
    .option("--mode <mode>", "replay (answers from the saved traces) or live (asked again)", "replay")
    .option("--output <path>", "write the repaired export here (.json) instead of replacing the source")
    .option("--question-id <id>", "select rows of this question (repeatable)", repeatable)
    .option(
      "--answerer-key <key>",
      "select rows of this answering model, by canonical key interface:model[:id]:tools, e.g. openai_endpoint:answerer: (repeatable)",
      repeatable,
    )
    .option(
      "--parser-key <key>",
      "select rows of this parsing model, by canonical key (repeatable)",
      repeatable,
    )
    .option("--replicate <n>", 'select rows of this replicate, or "none" (repeatable)', repeatable)
    .option(
      "--failure-group <group>",
      "select failed rows of this group: content, autofail, retry, abstained, system (repeatable)",
      repeatable,
    )
    .option(
      "--failure-category <category>",
      "select failed rows of this category, e.g. parsing, server_error (repeatable)",
      repeatable,
    )
    .option(
      "--failure-stage <stage>",
      "select failed rows that failed at this stage (repeatable)",
      repeatable,
    )
    .option("--all", "select every row")
    .option("--dry-run", "list the rows that would be re-run; write nothing, call no model")
    .option("--json", "print the outcome as JSON")
    .option("--endpoint-key-env <name>", "environment variable holding the preset's openai_endpoint API key")
    .addHelpText(
      "after",
      `
Filters combine with AND across kinds and OR within one: --failure-category parsing --failure-category
server_error --question-id q3 selects q3's rows that failed with either category.

Example:
  karenina repair run.json --benchmark bench.jsonld --preset nightly --failure-group system

In replay mode each selected row's saved answer (raw response and trace) is replayed from a strict replay
store: no answering model is called, the judge parses and verifies the answer again. A row whose failure
came before any answer was kept has nothing to replay: repair it with --mode live. The rerun must give one
row per selected row; other rows are written back unchanged. In place, the source is first copied to
<source>.backup_<UTC stamp>; a provenance file <output>.repair_<UTC stamp>.json (schema_version, mode,
paths, the source's SHA-256, counts, selected keys) is always written.
Row keys: question_id|answering key|parsing key|replicate or none|run name.
Exit codes: 0 done; 1 the repair failed (nothing selected, several runs, a model missing from the preset,
a rerun without one row per selected row, an unreadable file); 2 bad usage (no filter, bad --mode).`,
    )
    .action(async (source: string, options: RepairOptions) => repair(source, options, io));
}
