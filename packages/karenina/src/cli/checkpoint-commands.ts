import { existsSync } from "node:fs";
import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { checkpointPath } from "../checkpoint/index.js";
import { BUNDLED_EXAMPLE, CliExit, type CliIo, CliUsageError, EXIT } from "./cli-io.js";
import { paletteFor } from "./colour.js";
import { registerFinishCommands } from "./finish-command.js";
import { inspectSummary, inspectText, readinessText } from "./inspect-report.js";

/** `karenina checkpoint inspect | validate | convert | finish | unfinish`. */
export function registerCheckpointCommands(program: Command, io: CliIo): void {
  const checkpoint = program
    .command("checkpoint")
    .description("Read, check, convert and finish benchmark checkpoints (.jsonld)");

  checkpoint
    .command("inspect")
    .description("Print a summary of a checkpoint: metadata, rubric traits and questions (or scenarios)")
    .argument("[file]", "checkpoint to inspect (default: the bundled example benchmark)")
    .option("--json", "print a machine-readable JSON summary instead")
    .addHelpText(
      "after",
      '\nJSON shape: {"name","version","description","creator","questionCount","globalRubric":[{"name","kind"}],\n' +
        '  "questions":[{"id","question","rawAnswer","finished","hasTemplate","templateLanguage","keywords","rubric":[{"name","kind"}]}],\n' +
        '  "scenarios":[{"name","description","entryNode","nodeCount","edgeCount","outcomeCriteria":[name],"warnings":[text]}]}\n' +
        "  (scenarios: on a scenario benchmark only; `karenina scenario show FILE NAME` draws one)",
    )
    .action(async (file: string | undefined, options: { json?: boolean }) => {
      const path = file ?? BUNDLED_EXAMPLE;
      if (file === undefined && !options.json)
        io.err(`No file given: inspecting the bundled example ${path}\n\n`);
      const summary = inspectSummary(await Benchmark.load(path));
      io.out(
        options.json
          ? `${JSON.stringify(summary, null, 2)}\n`
          : `${inspectText(summary, path, paletteFor(io.colour))}\n`,
      );
    });

  checkpoint
    .command("validate")
    .description(
      "Check that a checkpoint is ready to verify (every template loads in its sandbox); exit 0 when ready, 1 when not",
    )
    .argument("<file>", "checkpoint to check")
    .action(async (file: string) => {
      const report = await (await Benchmark.load(file)).checkReadiness();
      io.out(`${readinessText(report, file)}\n`);
      if (!report.ready_for_verification) throw new CliExit(EXIT.checkFailed);
    });

  checkpoint
    .command("convert")
    .description("Load a checkpoint and save it again (normalised to the original's format)")
    .argument("<input>", "checkpoint to read")
    .argument("<output>", "where to write (an extension other than .jsonld/.json becomes .jsonld)")
    .option("--keep-deep-judgment", "keep the deep_judgment_* settings of LLM traits (stripped by default)")
    .option("--force", "overwrite the output file when it exists")
    .action(
      async (input: string, output: string, options: { keepDeepJudgment?: boolean; force?: boolean }) => {
        const target = checkpointPath(output);
        if (!options.force && existsSync(target))
          throw new CliUsageError(
            `${target} already exists; nothing was written. Pass --force to overwrite it`,
          );
        const bench = await Benchmark.load(input);
        const written = await bench.save(output, {
          saveDeepJudgmentConfig: options.keepDeepJudgment === true,
        });
        io.out(`Wrote ${written} (${bench.size} question${bench.size === 1 ? "" : "s"})\n`);
      },
    );

  registerFinishCommands(checkpoint, io);
}
