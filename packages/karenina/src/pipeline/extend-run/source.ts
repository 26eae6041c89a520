import type { Rubric } from "../../model/index.js";
import type { VerificationConfig } from "../config/index.js";
import type { RunVerificationOptions, VerificationRun } from "../run-verification.js";
import type { PipelineQuestion } from "../task.js";

/**
 * What the extension helpers need of a benchmark (`Benchmark` provides it: see `Benchmark.extendTemplate`):
 * whether it holds scenarios, its global rubric, and its questions as the pipeline runs them.
 */
export interface ExtendSource {
  /** True for a benchmark of scenarios, which cannot be extended yet (spec 08 §9 Q37). */
  readonly isScenarioBenchmark: boolean;
  readonly globalRubric: Rubric | null;
  /** The questions of these ids, ready to run with `config` (an unknown id or unusable template throws). */
  questions(ids: readonly string[], config: VerificationConfig): Promise<readonly PipelineQuestion[]>;
}

/** Options of `extendTemplate` and `extendRubric`: the run's, plus which questions and which run name. */
export interface ExtendOptions extends Omit<RunVerificationOptions, "globalRubric" | "skipKeys" | "runName"> {
  /** The run name stamped on every returned row; default the prior rows' one run name. */
  runName?: string;
  /** The questions of the extended run; default the prior rows' questions (sorted ids). */
  questionIds?: readonly string[];
}

/** An extended run: the merged rows, and what the new run (of the new tuples, or rubric-only) produced. */
export interface ExtendedRun extends VerificationRun {
  /** The run name stamped on every row of `results`. */
  runName: string;
  /** The rows the new run produced (new tuples for `extendTemplate`, rubric-only rows for `extendRubric`). */
  newResults: VerificationRun["results"];
}
