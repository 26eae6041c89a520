/**
 * `karenina analyze-errors --results PATH --checkpoint PATH --out-dir DIR`: prepares a directory for an error
 * analyst — one markdown case per result or scenario execution, by failure category, with the benchmark, an
 * index and the analyst prompt — and runs a launcher expected to write REPORT.md (spec 06 §5.5, 08 §10.4).
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { CliExit, type CliIo } from "./cli-io.js";
import { integer } from "./option-parsers.js";

/** Options of `karenina analyze-errors`, as commander gives them. */
export interface AnalyzeErrorsOptions {
  results: string;
  checkpoint: string;
  outDir: string;
  prompt?: string;
  launcher: string;
  maxTraceChars?: number;
  timeout: number;
  force?: boolean;
}

/** Exit codes of this command (spec 06 §5.5). */
export const ANALYZE_EXIT = { materialization: 1, launcher: 2, noReport: 3 } as const;

async function analyze(options: AnalyzeErrorsOptions, io: CliIo): Promise<void> {
  const [{ loadResults }, { Benchmark }, analysis] = await Promise.all([
    import("./results-command.js"),
    import("../benchmark/index.js"),
    import("../error-analysis/index.js"),
  ]);
  try {
    const loaded = await loadResults(options.results);
    const benchmark = await Benchmark.load(options.checkpoint);
    const report = await analysis.analyzeErrors({
      rows: loaded.results,
      scenarioResults: loaded.scenarios ?? null,
      benchmark,
      outDir: options.outDir,
      launcher: options.launcher,
      timeoutSeconds: options.timeout,
      force: options.force ?? false,
      ...(options.prompt === undefined ? {} : { promptPath: options.prompt }),
      ...(options.maxTraceChars === undefined ? {} : { maxTraceChars: options.maxTraceChars }),
    });
    io.out(`${report}\n`);
  } catch (error) {
    if (error instanceof analysis.ReportMissingError) {
      io.out(`analysis directory prepared: ${resolve(options.outDir)}\n`);
      io.err(`${error.message}\n`);
      throw new CliExit(ANALYZE_EXIT.noReport);
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    throw new CliExit(
      error instanceof analysis.LauncherError ? ANALYZE_EXIT.launcher : ANALYZE_EXIT.materialization,
    );
  }
}

/** `karenina analyze-errors --results PATH --checkpoint PATH --out-dir DIR [--launcher NAME] ...`. */
export function registerAnalyzeErrorsCommand(program: Command, io: CliIo): void {
  program
    .command("analyze-errors")
    .description(
      "Prepare a directory for an error analyst: one markdown case per result, sorted by failure category, with the benchmark, an index and the analyst prompt",
    )
    .requiredOption(
      "--results <path>",
      "the results: a .json export (scenario results included) or a .jsonl run log",
    )
    .requiredOption("--checkpoint <path>", "the benchmark the run verified (.jsonld)")
    .requiredOption("--out-dir <dir>", "the analysis directory (created; must be empty unless --force)")
    .option(
      "--prompt <path>",
      "a custom analyst prompt; $BENCHMARK_NAME $ANSWERING_MODEL $TOTAL $PASSED $FAILED $FAILURE_CATEGORIES $RUN_TIMESTAMP are substituted",
    )
    .option(
      "--launcher <name>",
      "prepare-only (write the directory, run nothing) or claude-code (run the claude CLI there)",
      "prepare-only",
    )
    .option(
      "--max-trace-chars <n>",
      "trace chunks longer than this go to case_assets/ (default: KARENINA_TRACE_TRUNCATION_THRESHOLD, else 2000)",
      integer("--max-trace-chars", 1),
    )
    .option("--timeout <seconds>", "the launcher's time limit", integer("--timeout", 1), 1800)
    .option(
      "--force",
      "reuse a non-empty directory: REPORT.md is kept as REPORT.previous.md, the rest replaced",
    )
    .addHelpText(
      "after",
      `
The directory: INDEX.md (totals, failure breakdown, cases by category), PROMPT.md (the analyst's
instructions), RUBRIC_GUIDE.md, benchmark/ (metadata.md, questions.jsonl, rubric.json, templates/),
failures/<category>/ and passes/ (one markdown case per question result, one per scenario execution filed
under the category of its first failing turn: frontmatter, question, template, trace, parsed answer, field
results, failure), case_assets/<case>/traces/artifacts/ (long trace chunks). The analyst writes REPORT.md.

Example:
  karenina analyze-errors --results run.json --checkpoint bench.jsonld --out-dir analysis
  cd analysis && claude -p @PROMPT.md --permission-mode acceptEdits

Exit codes: 0 REPORT.md written (its path is printed); 1 the directory could not be prepared (not empty
without --force, unreadable files); 2 the launcher is unknown, unavailable (claude not on PATH) or failed;
3 no REPORT.md (the normal end of prepare-only: the directory is ready).`,
    )
    .action(async (options: AnalyzeErrorsOptions) => analyze(options, io));
}
