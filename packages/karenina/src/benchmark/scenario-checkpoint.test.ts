import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { END, Scenario } from "../scenario/index.js";
import { Benchmark, BenchmarkUsageError, ScenarioNotFoundError } from "./index.js";

const FIXTURE = new URL("../scenario/__fixtures__/capital-scenarios.jsonld", import.meta.url);

describe("a scenario benchmark as a Benchmark", () => {
  test("loads and saves the original's scenario checkpoint byte for byte (Python floats included)", async () => {
    const text = await readFile(FIXTURE, "utf8");
    const benchmark = Benchmark.parse(text, { file: "capital-scenarios.jsonld" });
    try {
      expect(benchmark.serialize()).toBe(text);
    } finally {
      await benchmark.close();
    }
  });

  test("a scenario that does not read fails the load, naming the file, the scenario's path and the field", async () => {
    const doc = JSON.parse(await readFile(FIXTURE, "utf8"));
    doc.hasPart[0].edges = 5;
    expect(() => Benchmark.parse(JSON.stringify(doc), { file: "broken.jsonld" })).toThrow(
      /broken\.jsonld: \$\.hasPart\[0\]\.edges: .*expected an array of edges/,
    );
  });
});

const oneTurn = (name: string) =>
  new Scenario(name)
    .addNode("ask", { question: { question: "Capital of Australia?", raw_answer: "Canberra" } })
    .addEdge("ask", END)
    .setEntry("ask");

const benchmarkTypes = (bench: Benchmark) =>
  (bench.toCheckpoint().additionalProperty ?? []).filter((p) => p.name === "benchmark_type");

describe("the scenarios of a benchmark (spec 08 §2.13)", () => {
  test("T-C3: a second scenario of the same name is refused", () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addScenario(oneTurn("x"));
    expect(() => bench.addScenario(oneTurn("x"))).toThrow("Scenario 'x' already exists");
    expect(() => bench.addScenario(oneTurn("x").validate())).toThrow(BenchmarkUsageError);
  });

  test("T-C4: a benchmark holds questions or scenarios, never both", () => {
    const withQuestion = Benchmark.create({ name: "q" });
    withQuestion.addQuestion("What is 2 + 2?", "4");
    expect(() => withQuestion.addScenario(oneTurn("x"))).toThrow(/[Ss]cenario|[Hh]omogeneous/);
    const withScenario = Benchmark.create({ name: "s" });
    withScenario.addScenario(oneTurn("x"));
    expect(() => withScenario.addQuestion("What is 2 + 2?", "4")).toThrow(/^Cannot add standalone questions/);
  });

  test("T-C5: a file with a question and a scenario does not load", () => {
    const withQuestion = Benchmark.create({ name: "q" });
    withQuestion.addQuestion("What is 2 + 2?", "4");
    const scenarios = Benchmark.create({ name: "s" });
    scenarios.addScenario(oneTurn("x"));
    const doc = { ...withQuestion.toCheckpoint(), hasPart: scenarios.toCheckpoint().hasPart };
    expect(() => Benchmark.parse(JSON.stringify(doc), { file: "mixed.jsonld" })).toThrow(
      /mixed\.jsonld.*both questions and scenarios/,
    );
  });

  test("T-C6: benchmark_type is written once; removing the last scenario clears hasPart and the property", () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addScenario(oneTurn("x"));
    bench.addScenario(oneTurn("y"));
    expect(benchmarkTypes(bench)).toEqual([
      { "@type": "PropertyValue", name: "benchmark_type", value: "scenario" },
    ]);
    bench.removeScenario("x");
    expect(bench.getScenarios().map((s) => s.name)).toEqual(["y"]);
    expect(benchmarkTypes(bench)).toHaveLength(1);
    bench.removeScenario("y");
    expect(bench.isScenarioBenchmark).toBe(false);
    expect(benchmarkTypes(bench)).toEqual([]);
    expect(JSON.parse(bench.serialize())).not.toHaveProperty("hasPart");
    expect(() => bench.removeScenario("y")).toThrow(ScenarioNotFoundError);
    expect(() => bench.getScenario("y")).toThrow("Scenario 'y' not found");
  });

  test("T-C7: a benchmark without scenarios saves no hasPart and reloads as a question benchmark", () => {
    const bench = Benchmark.create({ name: "q" });
    bench.addQuestion("What is 2 + 2?", "4");
    const text = bench.serialize();
    expect(JSON.parse(text)).not.toHaveProperty("hasPart");
    expect(Benchmark.parse(text).isScenarioBenchmark).toBe(false);
  });

  test("T-C17: two scenarios of one name in a file load as one, the last", async () => {
    const doc = JSON.parse(await readFile(FIXTURE, "utf8"));
    const first = doc.hasPart[0];
    doc.hasPart = [first, { ...first, description: "the second of the name" }];
    const bench = Benchmark.parse(JSON.stringify(doc), { file: "twice.jsonld" });
    expect(bench.scenarioCount).toBe(1);
    expect(bench.getScenarios().map((s) => s.description)).toEqual(["the second of the name"]);
  });

  test("a scenario added by the builder saves and reloads to the same definition", () => {
    const bench = Benchmark.create({ name: "b" });
    bench.addScenario(oneTurn("x"));
    const again = Benchmark.parse(bench.serialize());
    expect(again.getScenario("x")).toEqual(bench.getScenario("x"));
    expect(again.serialize()).toBe(bench.serialize());
  });
});
