/**
 * `karenina checkpoint finish | unfinish`: marks questions finished (verified by `verify`) or back to drafts,
 * in place, atomically, and says what changed.
 */
import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import type { CliIo } from "./cli-io.js";
import { QUESTION_SELECTOR_HELP, selectQuestionIds } from "./question-selector.js";
import { shellWord } from "./shell-words.js";

const SHOWN = 10;

function idList(ids: readonly string[]): string {
  const shown = ids.slice(0, SHOWN).join(", ");
  return ids.length > SHOWN ? `${shown} and ${ids.length - SHOWN} more` : shown;
}

const questions = (n: number) => `${n} question${n === 1 ? "" : "s"}`;

/** The ids `--questions` names: `all` (or no flag), else comma-separated ids, indexes or starts of the text. */
function chosenIds(bench: Benchmark, flag: string | undefined, file: string): string[] {
  const ids = bench.getQuestionIds();
  if (flag === undefined || flag.trim() === "all") return ids;
  const selectable = ids.map((id) => ({ id, text: bench.getQuestion(id).question }));
  const selectors = flag
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  return selectQuestionIds(selectable, selectors, file);
}

/** Marks the chosen questions finished (or not), saves when something changed, and returns the report lines. */
async function setFinished(file: string, flag: string | undefined, finished: boolean): Promise<string[]> {
  const bench = await Benchmark.load(file);
  const chosen = chosenIds(bench, flag, file);
  const changed = chosen.filter((id) => bench.isFinished(id) !== finished);
  const state = finished ? "finished" : "drafts (not finished)";
  if (changed.length === 0) {
    return [
      `Nothing changed: ${chosen.length === 1 ? "the question was" : `the ${questions(chosen.length)} were`} already ${state}; ${file} was not written.`,
    ];
  }
  bench[finished ? "markFinishedBatch" : "markUnfinishedBatch"](changed);
  // Deep-judgment settings are kept: this command changes the flags and nothing else.
  const written = await bench.save(file, { saveDeepJudgmentConfig: true });
  const already = chosen.length - changed.length;
  const lines = [
    `Marked ${questions(changed.length)} ${state} in ${written}${already > 0 ? ` (${already} already ${already === 1 ? "was" : "were"})` : ""}: ${idList(changed)}`,
    `  now ${bench.finishedCount} of ${questions(bench.size)} finished`,
  ];
  const untemplated = finished ? changed.filter((id) => !bench.hasTemplate(id)) : [];
  if (untemplated.length > 0) {
    lines.push(
      `  ${untemplated.length === 1 ? "1 of them has" : `${untemplated.length} of them have`} no template (or only the default placeholder), so verify leaves ${untemplated.length === 1 ? "it" : "them"} out until written: ${idList(untemplated)}`,
      `    karenina generate-templates ${shellWord(written)} -m SPEC --questions ${shellWord(untemplated.join(","))}`,
    );
  }
  return lines;
}

/** `karenina checkpoint finish` and `karenina checkpoint unfinish`, under the `checkpoint` command. */
export function registerFinishCommands(checkpoint: Command, io: CliIo): void {
  const questionsHelp = `the questions, comma-separated: "all" (the default), or each ${QUESTION_SELECTOR_HELP}`;
  checkpoint
    .command("finish")
    .description("Mark questions finished, so that verify runs them; the checkpoint is rewritten in place")
    .argument("<file>", "checkpoint to change")
    .option("--questions <ids>", questionsHelp)
    .addHelpText(
      "after",
      `
Imported questions are drafts until finished (import --finished marks them at once); verify leaves drafts
out and says so. The file is replaced atomically, and only when a flag changes.

Examples:
  karenina checkpoint finish bench.jsonld                       # every question
  karenina checkpoint finish bench.jsonld --questions q1,q7     # by id (or index, or the start of the text)
  karenina checkpoint unfinish bench.jsonld --questions q7      # back to a draft`,
    )
    .action(async (file: string, options: { questions?: string }) => {
      for (const line of await setFinished(file, options.questions, true)) io.out(`${line}\n`);
    });

  checkpoint
    .command("unfinish")
    .description("Mark questions as drafts (not finished), so that verify leaves them out")
    .argument("<file>", "checkpoint to change")
    .option("--questions <ids>", questionsHelp)
    .action(async (file: string, options: { questions?: string }) => {
      for (const line of await setFinished(file, options.questions, false)) io.out(`${line}\n`);
    });
}
