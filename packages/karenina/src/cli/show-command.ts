import type { Command } from "commander";
import { displayString, type VerificationResult } from "../results/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { paletteFor, printable } from "./colour.js";
import { loadStoredRun, withStorage } from "./db-runs.js";
import { selectQuestion } from "./question-selector.js";
import { questionText, resultText } from "./result-text.js";
import { loadResults } from "./results-command.js";
import { type LoadedResults, OUTCOME_HELP, resultQuestions } from "./results-report.js";

/** Options of `karenina show`, as commander gives them. */
export interface ShowOptions {
  db?: string;
  json?: boolean;
  model?: string;
  replicate?: number;
}

/** The results of one question of a run, and which question it is. */
export interface ShownQuestion {
  source: string;
  question: { index: number; id: string; text: string; raw_answer: string | null };
  results: VerificationResult[];
}

/** Commander's parser for `--replicate`. */
function replicateNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliUsageError(`--replicate: expected an integer >= 1, found ${JSON.stringify(value)}`);
  return n;
}

/** The results the `--model` and `--replicate` filters keep. */
function filtered(results: readonly VerificationResult[], options: ShowOptions): VerificationResult[] {
  const model = options.model?.toLowerCase();
  return results.filter(({ metadata }) => {
    if (options.replicate !== undefined && metadata.replicate !== options.replicate) return false;
    if (model === undefined) return true;
    return [metadata.answering, metadata.parsing].some((identity) =>
      displayString(identity).toLowerCase().includes(model),
    );
  });
}

/** What the filters could have matched, for the message when they match nothing. */
function available(results: readonly VerificationResult[]): string {
  const pairs = [
    ...new Set(
      results.map((r) => `${displayString(r.metadata.answering)} | ${displayString(r.metadata.parsing)}`),
    ),
  ];
  const replicates = [...new Set(results.map((r) => r.metadata.replicate ?? "none"))];
  return `model pairs: ${pairs.join("; ")}; replicates: ${replicates.join(", ")}`;
}

/**
 * The question of a loaded run that `selector` names (its id, its index among the run's questions, or the
 * start of its text) and its results, narrowed by `--model` and `--replicate`.
 * @throws {QuestionSelectorError} when the selector names no question of the run, or several;
 * {@link CliUsageError} when the filters leave no result.
 */
export function showQuestion(
  loaded: LoadedResults,
  selector: string,
  options: ShowOptions = {},
): ShownQuestion {
  const questions = resultQuestions(loaded.results);
  const index = selectQuestion(questions, selector, loaded.file);
  const question = questions[index] as (typeof questions)[number];
  const all = loaded.results.filter((result) => result.metadata.question_id === question.id);
  const results = filtered(all, options);
  if (results.length === 0) {
    throw new CliUsageError(
      `${loaded.file}: question #${index} has ${all.length} result${all.length === 1 ? "" : "s"}, none of them for --model ${options.model ?? "(any)"} --replicate ${options.replicate ?? "(any)"} (${available(all)})`,
    );
  }
  const rawAnswer = all[0]?.metadata.raw_answer ?? null;
  return {
    source: loaded.file,
    question: { index, id: question.id, text: question.text, raw_answer: rawAnswer },
    results,
  };
}

/** The text `karenina show` prints for a question and its results. */
export function shownText(loaded: LoadedResults, shown: ShownQuestion, colour: boolean | undefined): string {
  const palette = paletteFor(colour);
  const count = resultQuestions(loaded.results).length;
  const [first] = shown.results as [VerificationResult];
  const runs = [...new Set(shown.results.flatMap((result) => result.metadata.run_name ?? []))];
  const lines = [
    printable(`${loaded.file}: ${loaded.kind}${runs.length === 1 ? `, run ${runs[0]}` : ""}`),
    ...questionText(shown.question, shown.question.index, count, first, palette),
  ];
  shown.results.forEach((result, at) => {
    lines.push("", ...resultText(result, at + 1, shown.results.length, palette));
  });
  return `${lines.join("\n")}\n`;
}

/** `karenina show RUN QUESTION [--db URL] [--model TEXT] [--replicate N] [--json]`. */
export function registerShowCommand(program: Command, io: CliIo): void {
  program
    .command("show")
    .description(
      "Print one question's result in full: response, parsed fields vs ground truth, verdict, rubric, failure, tokens",
    )
    .argument(
      "<run>",
      "a .jsonl run log (karenina verify -o run.jsonl), a .json or .csv export; with --db: a stored run's name or id",
    )
    .argument(
      "<question>",
      "the question's id, its # in the run (karenina results RUN --by question lists them) or the start of its text",
    )
    .option(
      "--db <url>",
      "read the run from a database (a SQLite file such as karenina.db, or postgres://...)",
    )
    .option("--model <text>", "only the results whose answering or parsing model contains this text")
    .option("--replicate <n>", "only this replicate (1-based)", replicateNumber)
    .option("--json", "print {source, question, results} as JSON: the results as the run log holds them")
    .addHelpText(
      "after",
      `
Examples:
  karenina results run.jsonl --by question          # the run's questions with their # and id
  karenina show run.jsonl 3                         # question #3 of that list
  karenina show run.jsonl "What is the target"      # the question whose text starts so (case ignored)
  karenina show run.jsonl urn:uuid:question-what-is-the-putative-target-of-venetoclax-1be9d9af
  karenina show run.json 0 --model gpt-4.1 --replicate 2    # one model pair and replicate of a JSON export
  karenina show nightly 0 --db karenina.db          # a stored run, by name or id
  karenina show run.jsonl 0 --json | jq '.results[0].template.parsed_llm_response'

A question with several results (model pairs, replicates) shows each of them. A question's # counts the
run's questions from 0, sorted by their text, as karenina results RUN --by question lists them (the same in
a run log and in its exports; not the # of checkpoint inspect). The start of a question's text (case and
spacing ignored) names it when no other question starts the same way.
${OUTCOME_HELP}
Exit code: 0, or 2 when the run cannot be read or the question names no question of the run, or several
(the candidates are listed).`,
    )
    .action(async (run: string, selector: string, options: ShowOptions) => {
      const print = (loaded: LoadedResults) => {
        const shown = showQuestion(loaded, selector, options);
        io.out(options.json ? `${JSON.stringify(shown, null, 2)}\n` : shownText(loaded, shown, io.colour));
      };
      if (options.db !== undefined) {
        await withStorage(options.db, async (storage) => print(await loadStoredRun(storage, run)));
        return;
      }
      const loaded = await loadResults(run);
      if (loaded.skippedLines > 0)
        io.err(
          `warning: ${loaded.file}: skipped a line that is not JSON (cut short when the run was killed?)\n`,
        );
      print(loaded);
    });
}
