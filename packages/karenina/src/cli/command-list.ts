import type { Command } from "commander";
import type { CliIo } from "./cli-io.js";
import type { CommandSession } from "./command-session.js";

/** What a command's registration gets from the invocation. */
export interface CommandContext {
  readonly io: CliIo;
  /** The arguments the CLI was given (without the node and script paths). */
  readonly args: readonly string[];
  readonly session: CommandSession;
}

/**
 * A top-level command as `karenina --help` lists it, and how to load it. Only the command being run has its
 * module loaded (and so the library parts it needs): listing every command costs nothing but this table.
 * `command-list.test.ts` checks each entry against the command its module registers.
 */
export interface CommandEntry {
  readonly name: string;
  /** The term `--help` lists: the name, then `[options]` when it has some, then its arguments. */
  readonly term: string;
  readonly description: string;
  /** Loads the command's module and registers the command (its options and subcommands) on `program`. */
  readonly register: (program: Command, context: CommandContext) => Promise<void>;
}

/** Every top-level command, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "checkpoint",
    term: "checkpoint",
    description: "Read, check, convert and finish benchmark checkpoints (.jsonld)",
    register: async (program, { io }) =>
      (await import("./checkpoint-commands.js")).registerCheckpointCommands(program, io),
  },
  {
    name: "scenario",
    term: "scenario",
    description: "Look at the scenarios of a scenario benchmark (multi-turn graphs of questions)",
    register: async (program, { io }) =>
      (await import("./scenario-command.js")).registerScenarioCommands(program, io),
  },
  {
    name: "template",
    term: "template",
    description: "Work with answer templates",
    register: async (program, { io }) =>
      (await import("./template-commands.js")).registerTemplateCommands(program, io),
  },
  {
    name: "rubric",
    term: "rubric",
    description: "Work with rubric traits",
    register: async (program, { io }) =>
      (await import("./rubric-commands.js")).registerRubricCommands(program, io),
  },
  {
    name: "verify",
    term: "verify [options] [checkpoint]",
    description:
      "Run a benchmark: every finished question against each answering model, judged by each parsing model",
    register: async (program, { io, args, session }) =>
      (await import("./verify-command.js")).registerVerifyCommand(program, io, args, process.env, session),
  },
  {
    name: "preset",
    term: "preset",
    description:
      "Save, list, show and delete verification presets (reusable run configs for `verify --preset`)",
    register: async (program, { io }) =>
      (await import("./preset-command.js")).registerPresetCommand(program, io),
  },
  {
    name: "results",
    term: "results [options] [source]",
    description:
      "Summarize a results file (run log, JSON or CSV export) or a stored run, or compare two runs",
    register: async (program, { io }) =>
      (await import("./results-command.js")).registerResultsCommand(program, io),
  },
  {
    name: "repair",
    term: "repair [options] <source>",
    description:
      "Re-run only the failed (selected) rows of a results file from their saved answers, and splice them in",
    register: async (program, { io }) =>
      (await import("./repair-command.js")).registerRepairCommand(program, io),
  },
  {
    name: "analyze-errors",
    term: "analyze-errors [options]",
    description:
      "Prepare a directory for an error analyst: one markdown case per result, sorted by failure category, with the benchmark, an index and the analyst prompt",
    register: async (program, { io }) =>
      (await import("./analyze-errors-command.js")).registerAnalyzeErrorsCommand(program, io),
  },
  {
    name: "show",
    term: "show [options] <run> <question>",
    description:
      "Print one question's result in full: response, parsed fields vs ground truth, verdict, rubric, failure, tokens",
    register: async (program, { io }) => (await import("./show-command.js")).registerShowCommand(program, io),
  },
  {
    name: "status",
    term: "status [options] <run-log>",
    description: "Show how far a run got: results in its run log, pass/fail, and whether it finished",
    register: async (program, { io }) =>
      (await import("./status-command.js")).registerStatusCommand(program, io),
  },
  {
    name: "demo",
    term: "demo [options]",
    description:
      "Run the bundled demo benchmark end to end: offline from hand-written example responses, or live",
    register: async (program, { io, session }) =>
      (await import("./demo-command.js")).registerDemoCommand(program, io, process.env, session),
  },
  {
    name: "import",
    term: "import [options] <file>",
    description: "Import questions from a spreadsheet (.xlsx, .csv, .tsv/.txt) into a checkpoint",
    register: async (program, { io }) =>
      (await import("./import-command.js")).registerImportCommand(program, io),
  },
  {
    name: "init",
    term: "init [options] [dir]",
    description:
      "Set up a karenina project: defaults.json, .env, folders, an example benchmark and a sample spreadsheet",
    register: async (program, { io }) => (await import("./init-command.js")).registerInitCommand(program, io),
  },
  {
    name: "generate-templates",
    term: "generate-templates [options] <checkpoint>",
    description:
      "Write answer templates with an LLM from each question's reference answer (declarative VerifiedField templates, for review)",
    register: async (program, { io }) =>
      (await import("./generate-templates-command.js")).registerGenerateTemplatesCommand(program, io),
  },
  {
    name: "worker",
    term: "worker [options]",
    description: "Take tasks of distributed runs from a queue in PostgreSQL and store their results",
    register: async (program, { io }) =>
      (await import("./worker-command.js")).registerWorkerCommand(program, io),
  },
  {
    name: "fleet",
    term: "fleet",
    description: "Watch, cancel and resume distributed runs (verify --distributed; karenina worker)",
    register: async (program, { io }) =>
      (await import("./fleet-command.js")).registerFleetCommands(program, io),
  },
  {
    name: "serve",
    term: "serve [options]",
    description: "Serve the web app and its REST + live-progress API (127.0.0.1:8080 by default)",
    register: async (program, { io }) =>
      (await import("./serve-command.js")).registerServeCommand(program, io, process.env),
  },
  {
    name: "view",
    term: "view [options] [source]",
    description: "Open a results file or a stored run in the web app (starts the server, opens the browser)",
    register: async (program, { io }) =>
      (await import("./view-command.js")).registerViewCommand(program, io, process.env),
  },
];

/**
 * The top-level command the arguments run (or ask help for: `help verify`), or undefined for the program
 * itself (`--help`, `--version`, no arguments, an unknown command). The program's own options take no value,
 * so the first argument that is not an option names the command.
 */
export function commandToLoad(args: readonly string[]): CommandEntry | undefined {
  const operands = args.filter((arg) => !arg.startsWith("-"));
  const name = operands[0] === "help" ? operands[1] : operands[0];
  return COMMANDS.find((entry) => entry.name === name);
}
