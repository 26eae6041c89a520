import { KareninaError } from "../errors/index.js";

/** Where a scenario error happened: the scenario, and for a checkpoint its file and JSON path. */
export interface ScenarioErrorLocation {
  /** The scenario's name, when known. */
  scenario?: string | undefined;
  /** The checkpoint file, for errors while reading one. */
  file?: string | undefined;
  /** The JSON path inside the checkpoint (`$.hasPart[0].nodes.ask.questionData`). */
  jsonPath?: string | undefined;
}

/**
 * A scenario is malformed: a builder call the original refuses (the message is the original's text, e.g.
 * `Node 'q1' already exists`), a graph that fails validation, or a checkpoint scenario object that cannot be
 * read. Checkpoint errors name the file, the JSON path and the scenario:
 * `bench.jsonld: $.hasPart[0].edges[1].condition.verify_with: scenario 'pushback': Unknown primitive type: 'Nope'`.
 */
export class ScenarioError extends KareninaError {
  override readonly name: string = "ScenarioError";
  readonly scenario: string | undefined;
  readonly file: string | undefined;
  readonly jsonPath: string | undefined;

  constructor(
    readonly problem: string,
    location: ScenarioErrorLocation = {},
    options?: { cause?: unknown },
  ) {
    super(ScenarioError.render(problem, location), options);
    this.scenario = location.scenario;
    this.file = location.file;
    this.jsonPath = location.jsonPath;
  }

  private static render(problem: string, at: ScenarioErrorLocation): string {
    if (at.file === undefined && at.jsonPath === undefined) return problem;
    const where = [at.file, at.jsonPath].filter((part) => part !== undefined).join(": ");
    const scenario = at.scenario === undefined ? "" : `scenario '${at.scenario}': `;
    return `${where}: ${scenario}${problem}`;
  }
}
