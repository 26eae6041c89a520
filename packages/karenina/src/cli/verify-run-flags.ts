/**
 * The run flags of `karenina verify` that came from the original (spec 06 §5.1) beside ours: question
 * ranges, `--verbose`, `--interactive`, `--run-root`/`--run-label`, `--replay`, `--progressive-save`; the
 * checks that keep them from contradicting each other, and the refusals that say what to use instead.
 */
import type { Command } from "commander";
import { Option } from "commander";
import type { Benchmark } from "../benchmark/index.js";
import { ReplayStore } from "../llm/index.js";
import { rubricTraitNames } from "../model/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { DEFAULT_GROUP, ORIGINAL_FLAGS_GROUP, WIZARD_MODES } from "./original-flags.js";
import { QUESTION_RANGES_HELP, selectQuestionRanges } from "./question-ranges.js";
import { DEFAULT_RUN_LABEL } from "./run-directory.js";
import type { VerifyOptions } from "./verify-command.js";

/** Adds the original's run flags to `verify`. */
export function addOriginalRunOptions(command: Command): Command {
  command.optionsGroup(ORIGINAL_FLAGS_GROUP);
  command
    .option("--questions <indexes>", `verify only these questions: ${QUESTION_RANGES_HELP}`)
    .option(
      "--question-ids <ids>",
      "verify only these questions: comma-separated ids (before --questions when both are given)",
    )
    .addOption(
      new Option(
        "--verbose",
        "show the progress bar (the default on a terminal) and each failed task's stack",
      ).conflicts("progress"),
    )
    .option(
      "--interactive",
      `choose the questions, models and options in a guided prompt (--mode ${WIZARD_MODES.join("|")}, default basic)`,
    )
    .option(
      "--run-root <dir>",
      "write the run into a new directory <dir>/<label>_<UTC time>/: results.json, run_manifest.json, traces/, workspaces/",
    )
    .option(
      "--run-label <label>",
      `the run directory's label (default ${DEFAULT_RUN_LABEL}), with --run-root`,
    )
    .option(
      "--replay <file>",
      "answer from a replay store (JSON, karenina's replay format): its answers need no answering call",
    )
    .option(
      "--progressive-save",
      "accepted for the original's scripts: --output is always saved as each result finishes",
    );
  return command.optionsGroup(DEFAULT_GROUP);
}

/** A state file named where a checkpoint goes: the original's `--resume STATE` form. */
const looksLikeStateFile = (path: string) => /\.state(\.json)?$/i.test(path);

/**
 * Refuses flags that contradict each other, and the original's forms we do not take, saying what to use.
 * @throws {CliUsageError}
 */
export function checkRunFlags(
  checkpoint: string | undefined,
  extra: readonly string[],
  options: VerifyOptions,
): void {
  const stateFile = [checkpoint, ...extra].find((arg) => arg !== undefined && looksLikeStateFile(arg));
  if (options.resume && stateFile !== undefined)
    throw new CliUsageError(
      `--resume takes no state file here: it continues the run log given with --output. For ${stateFile}: karenina verify CHECKPOINT --output ${stateFile.replace(/\.state(\.json)?$/i, "")} --resume`,
    );
  if (extra.length > 0)
    throw new CliUsageError(
      `verify takes one checkpoint; found also ${extra.map((arg) => JSON.stringify(arg)).join(", ")}`,
    );
  if (options.resume && options.output === undefined)
    throw new CliUsageError("--resume needs --output (the run log to continue)");
  if (options.json && !options.dryRun) throw new CliUsageError("--json needs --dry-run");
  if (options.runRoot !== undefined && options.output !== undefined)
    throw new CliUsageError(
      "--run-root writes results.json in the run directory: give --run-root or --output, not both",
    );
  if (options.runRoot !== undefined && options.resume)
    throw new CliUsageError(
      "--run-root starts a new run directory and cannot resume; continue an interrupted run with --output DIR/results.json --resume",
    );
  if (options.runLabel !== undefined && options.runRoot === undefined)
    throw new CliUsageError("--run-label names the run directory of --run-root: add --run-root DIR");
  if (
    options.progressiveSave &&
    options.output === undefined &&
    options.runRoot === undefined &&
    !options.interactive
  )
    throw new CliUsageError("--progressive-save needs --output FILE (or --run-root DIR)");
  if (
    options.question !== undefined &&
    (options.questions !== undefined || options.questionIds !== undefined)
  )
    throw new CliUsageError(
      "choose questions one way: -q/--question (ids, indexes or text) or --question-ids/--questions (the original's), not both",
    );
}

/**
 * Turns `--question-ids` and `--questions` into question ids (`options.question`), as `-q` gives them.
 * @throws {CliUsageError} for unknown or unfinished ids and bad indexes.
 */
export function resolveQuestionFlags(benchmark: Benchmark, options: VerifyOptions, source: string): void {
  if (options.questions === undefined && options.questionIds === undefined) return;
  options.question = selectQuestionRanges(benchmark, {
    ...(options.questionIds === undefined ? {} : { questionIds: options.questionIds }),
    ...(options.questions === undefined ? {} : { questions: options.questions }),
    includeDrafts: options.includeDrafts === true,
    source,
  });
  if (options.question.length === 0)
    throw new CliUsageError(`--question-ids/--questions select no question of ${source}`);
}

/** Loads `--replay FILE`, or null without it. */
export async function loadReplay(options: VerifyOptions): Promise<ReplayStore | null> {
  return options.replay === undefined ? null : ReplayStore.load(options.replay);
}

/**
 * Runs the wizard of `--interactive` and writes its answers into `options` (questions, models and config,
 * MCP servers, output, progress bar).
 * @throws {CliUsageError} when there is no terminal to ask on.
 */
export async function applyWizard(benchmark: Benchmark, options: VerifyOptions, io: CliIo): Promise<void> {
  const streams = io.prompts;
  if (streams === undefined)
    throw new CliUsageError(
      "--interactive needs a terminal to ask on (standard input is not one): give the models and options as flags or with --preset",
    );
  const { runVerifyWizard } = await import("./verify-wizard.js");
  const all = options.includeDrafts
    ? benchmark.getQuestionIds()
    : benchmark.getFinishedTemplates().map((t) => t.question_id);
  const wanted = options.question === undefined ? null : new Set(options.question);
  const questions = all
    .filter((id) => wanted === null || wanted.has(id))
    .map((id) => ({ id, text: benchmark.getQuestion(id).question }));
  if (questions.length === 0)
    throw new CliUsageError(
      "--interactive: the checkpoint has no finished question to verify (--include-drafts takes the others)",
    );
  const traitNames = rubricTraitNames(benchmark.getGlobalRubric());
  const answers = await runVerifyWizard({
    mode: options.mode === "advanced" ? "advanced" : "basic",
    questions,
    traitNames,
    manualTraces: options.manualTraces !== undefined,
    streams,
  }).catch((error: unknown) => {
    // Ctrl-C in a prompt: nothing was run or written.
    if (error instanceof Error && error.name === "ExitPromptError") {
      io.err("interrupted: nothing was run\n");
      throw new CliExit(EXIT.interrupted);
    }
    throw error;
  });
  options.wizard = answers;
  options.question = answers.questionIds;
  if (answers.mcp.length > 0) options.mcp = [...(options.mcp ?? []), ...answers.mcp];
  if (answers.output !== null && options.runRoot === undefined) options.output = answers.output;
  options.progress = answers.progress;
}
