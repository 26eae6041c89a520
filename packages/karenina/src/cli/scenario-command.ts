import { randomBytes } from "node:crypto";
import type { Command } from "commander";
import { Benchmark } from "../benchmark/index.js";
import { encodeScenario, type ScenarioDefinition } from "../scenario/index.js";
import { floatRepr } from "../templates/index.js";
import { type CliIo, CliUsageError } from "./cli-io.js";
import { paletteFor, printable } from "./colour.js";
import { scenarioMermaid } from "./scenario-mermaid.js";
import { scenarioBlocks, scenarioSummary, scenarioText } from "./scenario-text.js";

const SHOW_FORMATS = ["text", "json", "mermaid"] as const;
type ShowFormat = (typeof SHOW_FORMATS)[number];

const quoted = (names: readonly string[]) => names.map((name) => `'${printable(name)}'`).join(", ");

/**
 * The scenarios of a checkpoint, or a usage error when it holds none: a question benchmark is pointed to
 * `checkpoint inspect`.
 */
async function scenariosOf(file: string): Promise<ScenarioDefinition[]> {
  const bench = await Benchmark.load(file);
  if (bench.isScenarioBenchmark) return bench.getScenarios();
  if (bench.questionCount > 0)
    throw new CliUsageError(
      `${file} holds ${bench.questionCount} question${bench.questionCount === 1 ? "" : "s"}, not scenarios; see them with: karenina checkpoint inspect ${file}`,
    );
  throw new CliUsageError(`${file} holds no scenarios (and no questions)`);
}

/** The scenario NAME names, or the only one; a usage error listing the names otherwise. */
function pick(file: string, scenarios: ScenarioDefinition[], name: string | undefined): ScenarioDefinition {
  const names = scenarios.map((scenario) => scenario.name);
  if (name === undefined) {
    if (scenarios.length === 1) return scenarios[0] as ScenarioDefinition;
    throw new CliUsageError(
      `${file} holds ${scenarios.length} scenarios: ${quoted(names)}. Pick one: karenina scenario show ${file} NAME`,
    );
  }
  const found = scenarios.find((scenario) => scenario.name === name);
  if (found === undefined)
    throw new CliUsageError(`${file} has no scenario '${printable(name)}'; its scenarios: ${quoted(names)}`);
  return found;
}

/**
 * JSON with two-space indentation and Python floats written as the checkpoint writes them (`2.0`). The mark
 * is random per call, so no string of the scenario can pass for a float.
 */
function checkpointJson(definition: ScenarioDefinition): string {
  const tag = `\u0000float-${randomBytes(8).toString("hex")}\u0000`;
  const encoded = encodeScenario(definition, {
    float: (value) => (Number.isFinite(value) ? `${tag}${floatRepr(value)}` : value),
  });
  const escapedTag = JSON.stringify(tag)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  return JSON.stringify(encoded, null, 2).replace(new RegExp(`"${escapedTag}([^"]*)"`, "g"), "$1");
}

/** `karenina scenario show | list`. */
export function registerScenarioCommands(program: Command, io: CliIo): void {
  const scenario = program
    .command("scenario")
    .description("Look at the scenarios of a scenario benchmark (multi-turn graphs of questions)");

  scenario
    .command("show")
    .description("Draw a scenario's graph as text: nodes, edges with their conditions, outcome criteria")
    .argument("<file>", "a checkpoint holding scenarios")
    .argument("[name]", "the scenario to show (needed when the file holds several)")
    .option("--json", "print the scenario as the checkpoint stores it (one entry of the root hasPart)")
    .option("--format <format>", `text, json or mermaid (a flowchart for Markdown)`, "text")
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  karenina scenario show capital-scenarios.jsonld capital-pushback\n" +
        "  karenina scenario show capital-scenarios.jsonld --format mermaid > graph.mmd\n\n" +
        "Edges read `source ─[condition]→ target (handover: strategy)`, in the order they are tried:\n" +
        "a list of checks is an AND, `python: …` is a saved Python source, `<callable>` a TypeScript\n" +
        "function (never saved), `otherwise` the fallback of a node with conditional edges.",
    )
    .action(async (file: string, name: string | undefined, options: { json?: boolean; format: string }) => {
      if (options.json && options.format !== "text" && options.format !== "json")
        throw new CliUsageError(`--json and --format ${options.format} ask for two outputs; give one`);
      const format = (options.json ? "json" : options.format) as ShowFormat;
      if (!SHOW_FORMATS.includes(format))
        throw new CliUsageError(
          `--format must be one of ${SHOW_FORMATS.join(", ")}, not '${options.format}'`,
        );
      const definition = pick(file, await scenariosOf(file), name);
      if (format === "json") io.out(`${checkpointJson(definition)}\n`);
      else if (format === "mermaid") io.out(`${scenarioMermaid(definition)}\n`);
      else io.out(`${scenarioText(definition, paletteFor(io.colour))}\n`);
    });

  scenario
    .command("list")
    .description("List the scenarios of a checkpoint: entry node, node and edge counts, outcome criteria")
    .argument("<file>", "a checkpoint holding scenarios")
    .option("--json", "print the list as JSON")
    .addHelpText(
      "after",
      '\nJSON shape: [{"name","description","entryNode","nodeCount","edgeCount","outcomeCriteria":[name],"warnings":[text]}]\n\n' +
        "Example:\n  karenina scenario list capital-scenarios.jsonld",
    )
    .action(async (file: string, options: { json?: boolean }) => {
      const summaries = (await scenariosOf(file)).map(scenarioSummary);
      if (options.json) {
        io.out(`${JSON.stringify(summaries, null, 2)}\n`);
        return;
      }
      io.out(`${scenarioBlocks(summaries, paletteFor(io.colour)).join("\n")}\n`);
    });
}
