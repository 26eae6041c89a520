import { Command, CommanderError } from "commander";
import { KareninaError } from "../errors/index.js";
import { registerCheckpointCommands } from "./checkpoint-commands.js";
import { CliExit, type CliIo, CliUsageError, EXIT, processIo } from "./cli-io.js";
import { registerDemoCommand } from "./demo-command.js";
import { registerGenerateTemplatesCommand } from "./generate-templates-command.js";
import { registerImportCommand } from "./import-command.js";
import { registerInitCommand } from "./init-command.js";
import { registerPresetCommand } from "./preset-command.js";
import { registerResultsCommand } from "./results-command.js";
import { registerRubricCommands } from "./rubric-commands.js";
import { registerStatusCommand } from "./status-command.js";
import { registerTemplateCommands } from "./template-commands.js";
import { registerVerifyCommand } from "./verify-command.js";

function buildProgram(io: CliIo, args: readonly string[]): Command {
  const program = new Command("karenina")
    .description("Build, inspect and run LLM benchmarks stored as JSON-LD checkpoints.")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  registerCheckpointCommands(program, io);
  registerTemplateCommands(program, io);
  registerRubricCommands(program, io);
  registerVerifyCommand(program, io, args);
  registerPresetCommand(program, io);
  registerResultsCommand(program, io);
  registerStatusCommand(program, io);
  registerDemoCommand(program, io);
  registerImportCommand(program, io);
  registerInitCommand(program, io);
  registerGenerateTemplatesCommand(program, io);
  return program;
}

/**
 * Runs the CLI on arguments (without the node and script paths) and resolves to the exit code.
 * @example
 * const code = await runCli(["checkpoint", "inspect", "--json"]);
 */
export async function runCli(args: readonly string[], io: CliIo = processIo): Promise<number> {
  const program = buildProgram(io, args);
  try {
    await program.parseAsync([...args], { from: "user" });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliExit) return error.code;
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof CliUsageError || KareninaError.isInstance(error)) {
      io.err(`error: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
}
