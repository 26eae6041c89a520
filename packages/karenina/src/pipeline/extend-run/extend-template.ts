import type { VerificationResult } from "../../results/index.js";
import type { VerificationConfig } from "../config/index.js";
import { RunLogWriter } from "../run-log/index.js";
import { runVerification } from "../run-verification.js";
import { ExtendRunError } from "./errors.js";
import {
  checkAnswerersKept,
  checkCommon,
  observedFanOut,
  priorAnswers,
  priorQuestionIds,
  priorTaskKey,
  resolveRunName,
} from "./prior-run.js";
import type { ExtendedRun, ExtendOptions, ExtendSource } from "./source.js";

/** Copies of the prior rows carrying the extended run's name (the caller's rows are left alone: Q47). */
export function stampedCopies(prior: readonly VerificationResult[], runName: string): VerificationResult[] {
  return prior.map((row) => {
    const copy = structuredClone(row);
    copy.metadata.run_name = runName;
    return copy;
  });
}

/**
 * Extends a prior run with new judges, answering models or replicates (spec 04 §17, 08 §10.1), reusing its
 * answers. `config` states the whole extended run: every prior answering model (new ones may be added), the
 * parsing models (the prior judges need not be listed), and a `replicate_count` no lower than the prior run's.
 * The prior tuples are not run again: their rows pass through (copied, with the run name stamped); every new
 * tuple replays the prior answer of its question, answering model and replicate when there is one (a new
 * answering model or replicate is answered live) and is judged live, in the config's `evaluation_mode`.
 * With `output`, the prior rows are written to the run log first, so it holds the whole extended run; with
 * `resume`, that log is continued instead.
 * @returns the prior rows, then the new ones.
 * @throws {ExtendRunError} before any call, when a check of spec 08 §10.1 fails (message says which).
 */
export async function extendTemplate(
  source: ExtendSource,
  prior: readonly VerificationResult[],
  config: VerificationConfig,
  options: ExtendOptions = {},
): Promise<ExtendedRun> {
  const kind = "extendTemplate";
  checkCommon(kind, prior, config, options.replay, source.isScenarioBenchmark);
  checkAnswerersKept(kind, prior, config);
  const fanOut = observedFanOut(prior);
  if (config.replicate_count < fanOut)
    throw new ExtendRunError(
      `${kind}: replicate_count (${config.replicate_count}) is lower than the replicate fan-out observed in the prior results (=${fanOut}); reducing replicates is not supported: set replicate_count to at least ${fanOut}`,
    );
  const runName = resolveRunName(kind, prior, options.runName);
  const { questionIds, ...runOptions } = options;
  const questions = await source.questions(questionIds ?? priorQuestionIds(prior), config);
  const copies = stampedCopies(prior, runName);
  const resuming = options.resume === true && options.output !== undefined;
  if (options.output !== undefined && !resuming) {
    const writer = await RunLogWriter.open(options.output);
    try {
      for (const row of copies) await writer.append(row);
    } finally {
      await writer.close();
    }
  }
  const run = await runVerification(questions, config, {
    ...runOptions,
    globalRubric: source.globalRubric,
    runName,
    replay: priorAnswers(prior, config.replicate_count),
    skipKeys: new Set(prior.map((row) => priorTaskKey(row, config.replicate_count))),
  });
  // A resumed run returns the log's rows (the prior ones seeded there first) before its own.
  const newResults = resuming ? run.results.slice(run.summary.resumed) : run.results;
  const results = resuming ? run.results : [...copies, ...run.results];
  return { ...run, results, newResults, runName };
}
