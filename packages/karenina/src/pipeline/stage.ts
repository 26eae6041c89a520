import { KareninaError } from "../errors/index.js";
import type { ArtifactKey, VerificationContext } from "./context.js";

/**
 * One step of the verification pipeline (spec 04 §4): declared inputs (`needs`) and outputs (`gives`), a
 * runtime condition and the work itself. A stage reads and writes only the context; it never reaches into
 * another stage.
 */
export interface Stage {
  /** The original's stage name (`ParseTemplate`, ...): it appears in results as `failed_stage` and error stages. */
  readonly name: string;
  readonly needs: readonly ArtifactKey[];
  readonly gives: readonly ArtifactKey[];
  /** Whether to run for this task. Default: the context has no error. */
  shouldRun?(ctx: VerificationContext): boolean;
  run(ctx: VerificationContext): Promise<void>;
}

/** A stage list whose declared inputs are not given by earlier stages, or whose names repeat. */
export class StageDependencyError extends KareninaError {
  override readonly name: string = "StageDependencyError";
}

/**
 * Checks a stage list before it runs (spec 04 §4): unique names, and every key a stage needs is given by an
 * earlier stage.
 * @throws {StageDependencyError} naming the stage and the missing keys.
 */
export function checkStageDependencies(stages: readonly Stage[]): void {
  if (checked.has(stages)) return;
  const given = new Set<ArtifactKey>();
  const names = new Set<string>();
  for (const stage of stages) {
    if (names.has(stage.name)) throw new StageDependencyError(`stage ${stage.name} appears twice`);
    names.add(stage.name);
    const missing = stage.needs.filter((key) => !given.has(key));
    if (missing.length > 0) {
      throw new StageDependencyError(
        `stage ${stage.name} needs ${missing.join(", ")}, which no earlier stage gives`,
      );
    }
    for (const key of stage.gives) given.add(key);
  }
  checked.add(stages);
}

/** Stage lists already found consistent (lists are shared between the tasks of a run, see `stagesFor`). */
const checked = new WeakSet<readonly Stage[]>();

/** The default runtime condition: run unless an earlier stage recorded an error. */
export function shouldRunStage(stage: Stage, ctx: VerificationContext): boolean {
  return stage.shouldRun ? stage.shouldRun(ctx) : ctx.error === null;
}
