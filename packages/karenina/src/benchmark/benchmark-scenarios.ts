import { property, removeProperty } from "../checkpoint/index.js";
import { encodeScenario, Scenario, type ScenarioDefinition } from "../scenario/index.js";
import { decodedScenario, IN_MEMORY, rememberScenario } from "./benchmark-core.js";
import { BenchmarkReports } from "./benchmark-reports.js";
import { BenchmarkUsageError, ScenarioNotFoundError } from "./errors.js";

/** The root property that marks a scenario benchmark (spec 08 §2.13). */
const BENCHMARK_TYPE = "benchmark_type";

/**
 * A benchmark's scenarios (spec 08 §2.13): the checkpoint's root `hasPart` is the source of truth, written when a
 * scenario is added; the definitions are read back from it. A benchmark holds questions or scenarios, never both.
 */
export abstract class BenchmarkScenarios extends BenchmarkReports {
  /** True when the benchmark holds at least one scenario. */
  get isScenarioBenchmark(): boolean {
    return this.scenarioCount > 0;
  }

  /** How many scenarios (by name: two entries of one name in a file count once, as in the original). */
  get scenarioCount(): number {
    return this.#definitions().size;
  }

  /**
   * Adds a scenario: a builder (validated first) or a definition (taken as it is).
   * @throws {BenchmarkUsageError} when the benchmark holds standalone questions, or a scenario of that name.
   * @example
   * const bench = Benchmark.create({ name: "Pushback" });
   * bench.addScenario(
   *   new Scenario("one-turn")
   *     .addNode("ask", { question: { question: "Capital of Australia?", raw_answer: "Canberra" } })
   *     .addEdge("ask", END)
   *     .setEntry("ask"),
   * );
   * bench.getScenarios().map((s) => s.name); // ["one-turn"]
   * bench.isScenarioBenchmark; // true
   */
  addScenario(scenario: Scenario | ScenarioDefinition): void {
    if (this.entries.size > 0) {
      throw new BenchmarkUsageError(
        "Scenarios cannot be added to a benchmark holding standalone questions: a benchmark is homogeneous (questions or scenarios)",
      );
    }
    const definition = scenario instanceof Scenario ? scenario.validate() : scenario;
    if (this.#definitions().has(definition.name))
      throw new BenchmarkUsageError(`Scenario '${definition.name}' already exists`);
    const entry = encodeScenario(definition);
    rememberScenario(entry, definition);
    this.doc.hasPart = [...(this.doc.hasPart ?? []), entry as never];
    const properties = this.doc.additionalProperty ?? [];
    if (!properties.some((p) => p.name === BENCHMARK_TYPE))
      this.doc.additionalProperty = [...properties, property(BENCHMARK_TYPE, "scenario")];
  }

  /** The scenarios, in the order they were added or loaded. */
  getScenarios(): ScenarioDefinition[] {
    return [...this.#definitions().values()];
  }

  /** @throws {ScenarioNotFoundError} when there is no scenario of that name. */
  getScenario(name: string): ScenarioDefinition {
    const definition = this.#definitions().get(name);
    if (definition === undefined) throw new ScenarioNotFoundError(name);
    return definition;
  }

  /**
   * Removes every scenario of that name; with the last one gone, `hasPart` and the `benchmark_type` property go.
   * @throws {ScenarioNotFoundError} when there is no scenario of that name.
   */
  removeScenario(name: string): void {
    const kept = (this.doc.hasPart ?? []).filter((entry) => (entry as { name?: unknown }).name !== name);
    if (kept.length === (this.doc.hasPart ?? []).length) throw new ScenarioNotFoundError(name);
    if (kept.length > 0) {
      this.doc.hasPart = kept;
      return;
    }
    delete this.doc.hasPart;
    if (this.doc.additionalProperty) removeProperty(this.doc.additionalProperty, BENCHMARK_TYPE);
  }

  /** The definitions by name, from `hasPart` (a later entry of a name replaces an earlier one). */
  #definitions(): Map<string, ScenarioDefinition> {
    const definitions = new Map<string, ScenarioDefinition>();
    (this.doc.hasPart ?? []).forEach((entry, index) => {
      const definition = decodedScenario(entry, { file: IN_MEMORY, path: `$.hasPart[${index}]` });
      definitions.set(definition.name, definition);
    });
    return definitions;
  }
}
