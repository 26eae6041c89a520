import { KareninaError } from "../errors/index.js";

/**
 * A scenario execution cannot go on: an unknown node or handover strategy, a callable that cannot run. The
 * turn loop records it as the execution's terminal failure (quirk Q7, fixed: the rows already made are kept).
 */
export class ScenarioRuntimeError extends KareninaError {
  override readonly name: string = "ScenarioRuntimeError";

  constructor(
    message: string,
    readonly scenario: string | null = null,
    readonly node: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
