import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { type Rubric, type RubricTrait, rubricTraits } from "../model/rubric/index.js";
import { evaluateLocalTraits, type LocalTraitResults } from "../rubrics/index.js";
import { JavaScriptSandbox, PythonSandbox } from "../sandbox/index.js";
import type { CliIo } from "./cli-io.js";
import { QUESTION_SELECTOR_HELP, selectBenchmarkQuestion } from "./question-selector.js";
import { registerRubricApplyCommand } from "./rubric-apply-command.js";

/** What `karenina rubric check --json` prints. */
export interface RubricCheckReport {
  /** Every regex and callable trait that applies to the question → its value, or null when it failed. */
  traits: Record<string, boolean | number | null>;
  /** Trait name → why it has no value. */
  errors: Record<string, string>;
}

const LOCAL_TYPES: ReadonlySet<RubricTrait["type"]> = new Set(["regex", "callable"]);

/** Regex and callable traits run locally; callable code runs in sandboxes closed afterwards. */
async function evaluate(rubric: Rubric | null, response: string): Promise<LocalTraitResults> {
  if (rubric === null) return { scores: {}, errors: {} };
  const pythonSandbox = PythonSandbox.create();
  const javascriptSandbox = await JavaScriptSandbox.create();
  try {
    return await evaluateLocalTraits(rubric, response, { pythonSandbox, javascriptSandbox });
  } finally {
    javascriptSandbox.close();
    await pythonSandbox.close();
  }
}

/** `Clarity (llm), coverage (metric)` — the traits that need a judge model, or null when there are none. */
function skippedNote(rubric: Rubric | null): string | null {
  const skipped = rubricTraits(rubric).filter((trait) => !LOCAL_TYPES.has(trait.type));
  if (skipped.length === 0) return null;
  const names = skipped.map((trait) => `${trait.name} (${trait.type})`).join(", ");
  return `skipped, needing an LLM judge (metric traits too: a judge lists their TP/FN/FP/TN items): ${names}`;
}

function reportText(report: RubricCheckReport, rubric: Rubric | null, id: string): string {
  const lines = [`question ${id}`];
  for (const trait of rubricTraits(rubric).filter((t) => LOCAL_TYPES.has(t.type))) {
    const error = report.errors[trait.name];
    const value = error === undefined ? String(report.traits[trait.name]) : `null (${error})`;
    lines.push(`${trait.type} ${trait.name}: ${value}`);
  }
  if (lines.length === 1) lines.push("no regex or callable trait applies to this question");
  return lines.join("\n");
}

/** `karenina rubric check` and `karenina rubric apply`. */
export function registerRubricCommands(program: Command, io: CliIo): void {
  const rubric = program.command("rubric").description("Work with rubric traits");

  rubric
    .command("check")
    .description(
      "Evaluate the rubric traits that need no LLM (regex and callable) of a question on a response; LLM, metric and agentic traits are listed as skipped",
    )
    .argument("<file>", "checkpoint holding the question")
    .requiredOption(
      "-q, --question <question>",
      `the question whose rubric (global + question traits) to run: ${QUESTION_SELECTOR_HELP}`,
    )
    .requiredOption("--response <text>", "the response to evaluate")
    .option("--json", 'print {"traits": {name: value or null}, "errors": {name: message}} as JSON')
    .action(async (file: string, options: { question: string; response: string; json?: boolean }) => {
      const bench = await Benchmark.load(file);
      const id = selectBenchmarkQuestion(bench, options.question, file);
      const merged = bench.getMergedRubricForQuestion(id);
      for (const warning of merged.warnings) io.err(`warning: ${warning}\n`);
      const results = await evaluate(merged.rubric, options.response);
      const report: RubricCheckReport = { traits: results.scores, errors: results.errors };
      const note = skippedNote(merged.rubric);
      if (options.json) {
        io.out(`${JSON.stringify(report, null, 2)}\n`);
        if (note !== null) io.err(`${note}\n`);
        return;
      }
      io.out(`${reportText(report, merged.rubric, id)}${note === null ? "" : `\n${note}`}\n`);
    });

  registerRubricApplyCommand(rubric, io);
}
