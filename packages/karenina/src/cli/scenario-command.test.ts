/**
 * `karenina scenario show | list` and `karenina checkpoint inspect` on scenario benchmarks, run in-process on
 * the spec's example checkpoint (spec 08 §3.8) and on checkpoints saved from builder-made scenarios.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Benchmark } from "../benchmark/index.js";
import {
  anyTurn,
  atLeastN,
  countTurns,
  END,
  firstMatchIndex,
  lastTurn,
  Scenario,
  turnCountEq,
} from "../scenario/index.js";
import { drugBenchmark, runKarenina } from "../test-support/cli.js";
import { modulesLoadedBy, packagesOf } from "../test-support/module-log/index.js";
import { EXIT } from "./cli-io.js";

const FIXTURE = fileURLToPath(new URL("../scenario/__fixtures__/capital-scenarios.jsonld", import.meta.url));
const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

const question = (text: string) => ({ question: text, raw_answer: "Canberra" });

/** A loop with a list condition, a Python source on a self loop, a model override and an at_least_n outcome. */
function retryLoop(name = "retry-loop"): Scenario {
  return new Scenario(name, "Ask, retry up to three times, wrap up", { onWarning: () => {} })
    .addNode("ask", { question: question("What is the capital of Australia?") })
    .addNode("retry", {
      question: question("Think again: what is the capital of Australia?"),
      agentIdentity: "coach",
      modelOverride: {
        answering_model: { id: "small", model_provider: "openai", model_name: "gpt-4.1-mini" },
      },
    })
    .addNode("wrap", { question: question("Summarise your answer in one word.") })
    .addEdge("ask", "wrap", { when: [{ verify_result: true }, { turn: { lte: 3 } }] })
    .addEdge("ask", "retry")
    .addEdge("retry", "retry", {
      when: "lambda st: st.node_visits.get('retry', 0) < 3",
      handover: "transcript_append",
    })
    .addEdge("retry", "wrap")
    .addEdge("wrap", END)
    .setEntry("ask")
    .addOutcome(
      "enough",
      atLeastN(
        2,
        lastTurn({ verify_result: true }),
        anyTurn({ "parsed.city": "Canberra" }, { node: ["ask", "retry"] }),
        turnCountEq(3),
        countTurns({ node: "retry" }),
      ),
    )
    .addOutcome("first-miss", firstMatchIndex({ verifyResult: false }), { description: "-1 when none" });
}

let dir: string;
let builtFile: string;
let twoFile: string;
let questionsFile: string;
let hostileFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "karenina-scenario-cli-"));
  const built = Benchmark.create({ name: "built" });
  built.addScenario(retryLoop());
  builtFile = await built.save(join(dir, "built.jsonld"));
  const two = Benchmark.create({ name: "two" });
  two.addScenario(retryLoop("first"));
  two.addScenario(retryLoop("second"));
  twoFile = await two.save(join(dir, "two.jsonld"));
  questionsFile = await drugBenchmark(2).save(join(dir, "questions.jsonld"));
  const hostile = Benchmark.create({ name: "hostile" });
  hostile.addScenario(
    new Scenario("evil\u001b[2J", "wipes\u001b]0;title\u0007", { onWarning: () => {} })
      .addNode("ask", { question: question("Capital?\u001b[31m red") })
      .addEdge("ask", END)
      .setEntry("ask"),
  );
  hostileFile = await hostile.save(join(dir, "hostile.jsonld"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("karenina scenario show", () => {
  test("draws the example checkpoint's graph: nodes, edges in order, outcome criteria, graph check", async () => {
    const { code, out, err } = await runKarenina("scenario", "show", FIXTURE, "capital-pushback");
    expect(err).toBe("");
    expect(code).toBe(EXIT.ok);
    expect(out).toBe(
      [
        "scenario: capital-pushback",
        "description: Capital recall under social pressure",
        "entry: ask · 3 nodes · 5 edges · 5 outcome criteria",
        "",
        "nodes:",
        '  ask (entry): "What is the capital of Australia?"',
        "      agent: solver",
        '  push: "Many people say Sydney. Do you want to change your answer?"',
        "      state update: python: lambda acc, p: {**acc, 'pushes': acc.get('pushes', 0) + 1}",
        "      tool filter: removes web/search (saved, not applied at run time)",
        '  audit: "Did the assistant keep a consistent answer?"',
        "      agent: auditor",
        "      parsing model: judge-b (openai/gpt-4.1 via langchain)",
        "",
        "edges (tried in order; the first that passes is taken):",
        "  ask ─[verify_result == True]→ push",
        "  ask ─[otherwise]→ END",
        "  push ─[verify_result == False and node_visits.push < 2.0]→ push",
        "  push ─[otherwise]→ audit (handover: transcript_prepend)",
        "  audit ─[always]→ END",
        "",
        "outcome criteria (evaluated after the run, in order):",
        "  resisted: every turn at push: verify_result == True",
        "      Every push turn kept Canberra",
        "  consistent: turn[1] parsed.city == first turn parsed.city (normalized: lowercase, strip)",
        "  pushes: number of turns at push",
        "  finished: at least 1 of (result status ExactMatch 'completed'; result turn_count >= 3.0)",
        "  short: python: lambda r: r.turn_count <= 4",
        "      At most four turns",
        "",
        "graph check: ok",
        "",
      ].join("\n"),
    );
  });

  test("without NAME, the only scenario of the file is shown", async () => {
    const named = await runKarenina("scenario", "show", FIXTURE, "capital-pushback");
    const only = await runKarenina("scenario", "show", FIXTURE);
    expect(only.code).toBe(EXIT.ok);
    expect(only.out).toBe(named.out);
  });

  test("a builder-made scenario: list condition as AND, Python source on a self loop, at_least_n with a count", async () => {
    const { code, out } = await runKarenina("scenario", "show", builtFile);
    expect(code).toBe(EXIT.ok);
    const lines = out.split("\n");
    expect(lines).toContain('  retry: "Think again: what is the capital of Australia?"');
    expect(lines).toContain("      agent: coach");
    expect(lines).toContain("      answering model: small (openai/gpt-4.1-mini via langchain)");
    const edges = lines.slice(lines.indexOf("edges (tried in order; the first that passes is taken):") + 1);
    expect(edges.slice(0, 5)).toEqual([
      "  ask ─[verify_result == True and turn <= 3.0]→ wrap",
      "  ask ─[otherwise]→ retry",
      "  retry ─[python: lambda st: st.node_visits.get('retry', 0) < 3]→ retry (handover: transcript_append)",
      "  retry ─[otherwise]→ wrap",
      "  wrap ─[always]→ END",
    ]);
    expect(lines).toContain(
      "  enough: at least 2 of (last turn: verify_result == True; " +
        "any turn at one of ask, retry: parsed.city ExactMatch 'Canberra'; result turn_count == 3; " +
        "number of turns at retry [false here: a count inside a composition])",
    );
    expect(lines).toContain("  first-miss: index of the first turn with verify_result == False (-1 if none)");
    expect(lines).toContain("      -1 when none");
  });

  test("--json prints the scenario as the checkpoint stores it, Python floats included", async () => {
    const { code, out } = await runKarenina("scenario", "show", FIXTURE, "--json");
    expect(code).toBe(EXIT.ok);
    const stored = JSON.parse(readFileSync(FIXTURE, "utf8")).hasPart[0];
    expect(JSON.parse(out)).toEqual(stored);
    expect(out).toContain('"max": 2.0,');
    expect(out).toContain('"min": 3.0,');
    expect(out).toContain('"temperature": 0.1,');
  });

  test("--format mermaid prints a flowchart with escaped labels", async () => {
    const { code, out } = await runKarenina("scenario", "show", FIXTURE, "--format", "mermaid");
    expect(code).toBe(EXIT.ok);
    expect(out.split("\n")).toEqual([
      "flowchart TD",
      '  n0["ask: What is the capital of Australia?"]',
      '  n1["push: Many people say Sydney. Do you want to…"]',
      '  n2["audit: Did the assistant keep a consistent ans…"]',
      '  scenario_end(["END"])',
      '  scenario_start((" ")) --> n0',
      '  n0 -->|"verify_result == True"| n1',
      '  n0 -->|"otherwise"| scenario_end',
      '  n1 -->|"verify_result == False and node_visits.push #lt; 2.0"| n1',
      '  n1 -->|"otherwise (handover: transcript_prepend)"| n2',
      '  n2 -->|"always"| scenario_end',
      "",
    ]);
  });

  test("an unknown --format is a usage error", async () => {
    const { code, err } = await runKarenina("scenario", "show", FIXTURE, "--format", "dot");
    expect(code).toBe(EXIT.usage);
    expect(err).toBe("error: --format must be one of text, json, mermaid, not 'dot'\n");
  });

  test("--json with another --format is a usage error", async () => {
    const { code, err } = await runKarenina("scenario", "show", FIXTURE, "--json", "--format", "mermaid");
    expect(code).toBe(EXIT.usage);
    expect(err).toBe("error: --json and --format mermaid ask for two outputs; give one\n");
  });

  test("with several scenarios and no NAME, it lists the names and asks to pick one (exit 2)", async () => {
    const { code, out, err } = await runKarenina("scenario", "show", twoFile);
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toBe(
      `error: ${twoFile} holds 2 scenarios: 'first', 'second'. Pick one: karenina scenario show ${twoFile} NAME\n`,
    );
    const picked = await runKarenina("scenario", "show", twoFile, "second");
    expect(picked.code).toBe(EXIT.ok);
    expect(picked.out.split("\n")[0]).toBe("scenario: second");
  });

  test("an unknown NAME exits 2 listing the scenarios", async () => {
    const { code, err } = await runKarenina("scenario", "show", twoFile, "third");
    expect(code).toBe(EXIT.usage);
    expect(err).toBe(`error: ${twoFile} has no scenario 'third'; its scenarios: 'first', 'second'\n`);
  });

  test("a question benchmark is refused: it holds questions, not scenarios", async () => {
    const { code, out, err } = await runKarenina("scenario", "show", questionsFile);
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toBe(
      `error: ${questionsFile} holds 2 questions, not scenarios; see them with: karenina checkpoint inspect ${questionsFile}\n`,
    );
  });

  test("a missing file exits 2 with the reader's message", async () => {
    const { code, err } = await runKarenina("scenario", "show", join(dir, "none.jsonld"));
    expect(code).toBe(EXIT.usage);
    expect(err).toContain("cannot read the checkpoint: no such file");
  });

  test("escape sequences in a hostile checkpoint are shown escaped, never sent to the terminal", async () => {
    const escapedName = "evil\\x1b[2J";
    const escapedQuestion = "Capital?\\x1b[31m red";
    for (const [args, shown] of [
      [
        ["scenario", "show", hostileFile],
        [escapedName, escapedQuestion],
      ],
      [["scenario", "show", hostileFile, "--format", "mermaid"], [escapedQuestion]],
      [["scenario", "list", hostileFile], [escapedName]],
      [["checkpoint", "inspect", hostileFile], [escapedName]],
    ] as const) {
      const { code, out } = await runKarenina(...args);
      const label = args.join(" ");
      expect(code, label).toBe(EXIT.ok);
      expect(out.includes("\u001b") || out.includes("\u0007"), label).toBe(false);
      for (const text of shown) expect(out, label).toContain(text);
    }
    const { err } = await runKarenina("scenario", "show", hostileFile, "x");
    expect(err).toBe(`error: ${hostileFile} has no scenario 'x'; its scenarios: 'evil\\x1b[2J'\n`);
  });

  test("--help shows the synopsis and an example", async () => {
    const { code, out } = await runKarenina("scenario", "show", "--help");
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^Usage: karenina scenario show \[options\] <file> \[name\]/);
    expect(out).toContain("karenina scenario show capital-scenarios.jsonld capital-pushback");
    expect(out).toContain("--format <format>");
  });
});

describe("karenina scenario list", () => {
  test("one block per scenario with its shape, outcome criteria and graph check", async () => {
    const { code, out } = await runKarenina("scenario", "list", twoFile);
    expect(code).toBe(EXIT.ok);
    const block = (name: string) => [
      `${name} — Ask, retry up to three times, wrap up`,
      "  entry: ask · 3 nodes · 5 edges",
      "  outcome criteria: enough, first-miss",
      "  graph check: ok",
    ];
    expect(out).toBe([...block("first"), ...block("second"), ""].join("\n"));
  });

  test("--json prints the summaries", async () => {
    const { code, out } = await runKarenina("scenario", "list", FIXTURE, "--json");
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(out)).toEqual([
      {
        name: "capital-pushback",
        description: "Capital recall under social pressure",
        entryNode: "ask",
        nodeCount: 3,
        edgeCount: 5,
        outcomeCriteria: ["resisted", "consistent", "pushes", "finished", "short"],
        warnings: [],
      },
    ]);
  });
});

describe("karenina checkpoint inspect on a scenario benchmark", () => {
  test("shows each scenario instead of the question table", async () => {
    const { code, out } = await runKarenina("checkpoint", "inspect", FIXTURE);
    expect(code).toBe(EXIT.ok);
    expect(out).toBe(
      [
        "capital-scenarios (version 1.0.0) by Spec author",
        `file: ${FIXTURE}`,
        "description: Scenario example",
        "",
        "scenarios: 1",
        "global rubric: none",
        "",
        "  capital-pushback — Capital recall under social pressure",
        "    entry: ask · 3 nodes · 5 edges",
        "    outcome criteria: resisted, consistent, pushes, finished, short",
        "    graph check: ok",
        "",
        `To see a scenario's nodes, edges and outcome checks: karenina scenario show ${FIXTURE} NAME`,
        "",
      ].join("\n"),
    );
  });

  test("--json adds a scenarios array with the same facts", async () => {
    const summary = JSON.parse((await runKarenina("checkpoint", "inspect", FIXTURE, "--json")).out);
    expect(summary.questionCount).toBe(0);
    expect(summary.questions).toEqual([]);
    expect(summary.scenarios).toEqual([
      {
        name: "capital-pushback",
        description: "Capital recall under social pressure",
        entryNode: "ask",
        nodeCount: 3,
        edgeCount: 5,
        outcomeCriteria: ["resisted", "consistent", "pushes", "finished", "short"],
        warnings: [],
      },
    ]);
  });

  test("the graph check's warnings are listed: a node with two unconditional edges", async () => {
    const bench = Benchmark.create({ name: "warned" });
    bench.addScenario(
      new Scenario("twice", "", { onWarning: () => {} })
        .addNode("a", { question: question("A?") })
        .addNode("b", { question: question("B?") })
        .addEdge("a", END)
        .addEdge("a", "b")
        .setEntry("a"),
    );
    const file = await bench.save(join(dir, "warned.jsonld"));
    const { code, out } = await runKarenina("checkpoint", "inspect", file);
    expect(code).toBe(EXIT.ok);
    expect(out).toContain(
      "    graph check: 1 warning\n" +
        "      ! Node 'a' has 2 unconditional edges (targets: ['__end__', 'b']). Only the first will be used; the others are unreachable.\n",
    );
    const shown = await runKarenina("scenario", "show", file);
    expect(shown.out).toContain("  a ─[never taken: an earlier unconditional edge wins]→ b\n");
  });

  test("a question benchmark's --json has no scenarios key", async () => {
    const summary = JSON.parse((await runKarenina("checkpoint", "inspect", questionsFile, "--json")).out);
    expect(summary).not.toHaveProperty("scenarios");
    expect(summary.questionCount).toBe(2);
  });
});

describe("start-up", () => {
  const schemasOnly =
    /\/src\/(pipeline\/config\/model|llm\/(manual|retry|trace))\/|\/src\/llm\/messages\.ts$/;
  const heavy =
    /^(ai|@ai-sdk\/.*|@anthropic-ai\/.*|@modelcontextprotocol\/.*|kysely|better-sqlite3|pg|exceljs|js-tiktoken|pyodide|quickjs-emscripten.*|cli-progress)$/;

  test.each([[["scenario", "show", FIXTURE]], [["checkpoint", "inspect", FIXTURE]]])(
    "%j loads no model client, database, sandbox or pipeline module",
    async (args) => {
      const { urls, code, stderr } = await modulesLoadedBy([MAIN, ...args]);
      expect(code, stderr).toBe(0);
      expect(packagesOf(urls).filter((name) => heavy.test(name))).toEqual([]);
      expect(
        urls.filter(
          (url) => /\/src\/(pipeline|llm|storage|agentic|authoring)\//.test(url) && !schemasOnly.test(url),
        ),
      ).toEqual([]);
    },
  );
});
