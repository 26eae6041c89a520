import { readFileSync } from "node:fs";
import { Command, CommanderError, Help } from "commander";
import { KareninaError } from "../errors/index.js";
import { CliExit, type CliIo, CliUsageError, EXIT, EXIT_CODES_HELP, processIo } from "./cli-io.js";
import { COMMANDS, type CommandContext, commandToLoad } from "./command-list.js";
import { commandSession } from "./command-session.js";

/** The package's version, from its package.json (beside `src/` and `dist/`). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return String(manifest.version);
}

/**
 * The program with every top-level command listed, but only the one the arguments run loaded and registered
 * in full: the others are names and descriptions from {@link COMMANDS}, so `--help` loads no command module.
 */
async function buildProgram(context: CommandContext): Promise<Command> {
  const { io, args } = context;
  const terms = new Map(COMMANDS.map((entry) => [entry.name, entry.term]));
  const program = new Command("karenina")
    .description("Build, inspect and run LLM benchmarks stored as JSON-LD checkpoints.")
    .version(packageVersion(), "-V, --version", "print the version")
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .configureHelp({
      // Only the top-level commands: a subcommand of the same name (`fleet status`) has its own term.
      subcommandTerm: (command) =>
        (command.parent?.parent == null ? terms.get(command.name()) : undefined) ??
        new Help().subcommandTerm(command),
    })
    .addHelpText("after", EXIT_CODES_HELP)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride();
  const wanted = commandToLoad(args);
  for (const entry of COMMANDS) {
    if (entry === wanted) await entry.register(program, context);
    else program.command(entry.name).description(entry.description);
  }
  return program;
}

/**
 * Runs the CLI on arguments (without the node and script paths) and resolves to the exit code. `startedAt`
 * (epoch milliseconds) is when the command started: a run reports its wall time from there.
 * @example
 * const code = await runCli(["checkpoint", "inspect", "--json"]);
 */
export async function runCli(
  args: readonly string[],
  io: CliIo = processIo,
  startedAt: number = Date.now(),
): Promise<number> {
  const { session, end } = commandSession(startedAt);
  try {
    const program = await buildProgram({ io, args, session });
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
  } finally {
    await end();
  }
}
