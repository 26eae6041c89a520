import { Command, Help } from "commander";
import { describe, expect, test } from "vitest";
import { COMMANDS, commandToLoad } from "./command-list.js";
import { commandSession } from "./command-session.js";

const io = { out: () => {}, err: () => {} };

describe("the list of commands", () => {
  test.each(COMMANDS.map((entry) => [entry.name, entry] as const))(
    "%s: --help lists it as its module registers it",
    async (_name, entry) => {
      const program = new Command("karenina");
      await entry.register(program, { io, args: [entry.name], session: commandSession().session });
      const registered = program.commands.map((command) => command.name());
      expect(registered, "one top-level command per module").toEqual([entry.name]);
      const command = program.commands[0] as Command;
      // When this fails, copy the command's term and description from its module into COMMANDS.
      const inModule = { term: new Help().subcommandTerm(command), description: command.description() };
      expect({ term: entry.term, description: entry.description }, "COMMANDS entry").toEqual(inModule);
    },
  );

  test("names are unique", () => {
    expect(new Set(COMMANDS.map((entry) => entry.name)).size).toBe(COMMANDS.length);
  });
});

describe("commandToLoad", () => {
  test.each([
    [["verify", "bench.jsonld", "-o", "run.jsonl"], "verify"],
    [["checkpoint", "inspect", "--json"], "checkpoint"],
    [["--help", "status"], "status"],
    [["help", "results"], "results"],
    [["generate-templates", "--help"], "generate-templates"],
  ])("%j loads %s", (args, name) => {
    expect(commandToLoad(args)?.name).toBe(name);
  });

  test.each([[[]], [["--help"]], [["--version"]], [["help"]], [["frobnicate"]]])(
    "%j loads no command",
    (args) => {
      expect(commandToLoad(args)).toBeUndefined();
    },
  );
});
