import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { KareninaError } from "../errors/index.js";
import { inspectSummary, inspectText, readinessText } from "./inspect-report.js";

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/** The example checkpoint shipped with the package, used when `inspect` is given no file. */
export const BUNDLED_EXAMPLE = fileURLToPath(new URL("../../examples/drug-targets.jsonld", import.meta.url));

/** Exit codes: 0 success, 1 a check failed (`validate`), 2 bad usage or a file that cannot be used. */
export const EXIT = { ok: 0, checkFailed: 1, usage: 2 } as const;

class ExitWith extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function buildProgram(io: CliIo): Command {
  const program = new Command("karenina")
    .description("Build, inspect and run LLM benchmarks stored as JSON-LD checkpoints.")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  const checkpoint = program
    .command("checkpoint")
    .description("Read, check and convert benchmark checkpoints (.jsonld)")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();

  checkpoint
    .command("inspect")
    .description("Print a summary of a checkpoint: metadata, rubric traits and questions")
    .argument("[file]", "checkpoint to inspect (default: the bundled example benchmark)")
    .option("--json", "print a machine-readable JSON summary instead")
    .addHelpText(
      "after",
      '\nJSON shape: {"name","version","description","creator","questionCount","globalRubric":[{"name","kind"}],\n' +
        '  "questions":[{"id","question","rawAnswer","finished","hasTemplate","templateLanguage","keywords","rubric":[{"name","kind"}]}]}',
    )
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .action(async (file: string | undefined, options: { json?: boolean }) => {
      const path = file ?? BUNDLED_EXAMPLE;
      if (file === undefined && !options.json)
        io.err(`No file given: inspecting the bundled example ${path}\n\n`);
      const summary = inspectSummary(await Benchmark.load(path));
      io.out(options.json ? `${JSON.stringify(summary, null, 2)}\n` : `${inspectText(summary, path)}\n`);
    });

  checkpoint
    .command("validate")
    .description("Check that a checkpoint is ready to verify; exits 0 when ready, 1 when not")
    .argument("<file>", "checkpoint to check")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .action(async (file: string) => {
      const report = await (await Benchmark.load(file)).checkReadiness();
      io.out(`${readinessText(report, file)}\n`);
      if (!report.ready_for_verification) throw new ExitWith(EXIT.checkFailed);
    });

  checkpoint
    .command("convert")
    .description("Load a checkpoint and save it again (normalised to the original's format)")
    .argument("<input>", "checkpoint to read")
    .argument("<output>", "where to write (an extension other than .jsonld/.json becomes .jsonld)")
    .option("--keep-deep-judgment", "keep the deep_judgment_* settings of LLM traits (stripped by default)")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride()
    .action(async (input: string, output: string, options: { keepDeepJudgment?: boolean }) => {
      const bench = await Benchmark.load(input);
      const written = await bench.save(output, { saveDeepJudgmentConfig: options.keepDeepJudgment === true });
      io.out(`Wrote ${written} (${bench.size} question${bench.size === 1 ? "" : "s"})\n`);
    });

  return program;
}

/**
 * Runs the CLI on arguments (without the node and script paths) and resolves to the exit code.
 * @example
 * const code = await runCli(["checkpoint", "inspect", "--json"]);
 */
export async function runCli(args: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...args], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ExitWith) return error.code;
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (KareninaError.isInstance(error)) {
      io.err(`error: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
