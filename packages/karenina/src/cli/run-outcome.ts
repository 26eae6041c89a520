/**
 * How a run ends, for `verify` and `demo`: its exit code (see {@link EXIT}) and the lines that say why. A run
 * whose tasks failed for a system cause (the endpoint was down, the key was missing) is not a run whose answers
 * were judged wrong, and says so with exit code 1.
 */
import type { RunSummary, VerificationRun } from "../pipeline/index.js";
import { type FailureCategory, passRateOf, type VerificationResult } from "../results/index.js";
import { CliExit, EXIT } from "./cli-io.js";
import { failureDigest } from "./failure-reasons.js";

/** The failure categories that say nothing about the answers: the call or the setup failed. */
export const SYSTEM_FAILURE_CATEGORIES: ReadonlySet<FailureCategory> = new Set([
  "connection",
  "timeout",
  "rate_limit",
  "server_error",
  "unexpected_error",
]);

/** The results of a run that failed for a system cause, counted by category and first reason, as they finish. */
export class SystemFailures {
  readonly #byCause = new Map<string, { category: FailureCategory; reason: string; count: number }>();
  #count = 0;

  /** Counts `result` when its failure has a system cause. */
  add(result: VerificationResult): void {
    const failure = result.metadata.failure;
    if (failure === null || !SYSTEM_FAILURE_CATEGORIES.has(failure.category)) return;
    this.#count++;
    const reason = failureDigest(failure);
    const key = `${failure.category}\n${reason}`;
    const seen = this.#byCause.get(key);
    if (seen === undefined) this.#byCause.set(key, { category: failure.category, reason, count: 1 });
    else seen.count++;
  }

  get count(): number {
    return this.#count;
  }

  /** `4 × connection: <reason>`, the most common causes first. */
  causes(limit = 3): string[] {
    return [...this.#byCause.values()]
      .sort((a, b) => b.count - a.count)
      .slice(0, limit)
      .map(({ count, category, reason }) => `${count} × ${category}: ${reason}`);
  }
}

/** What decides a run's exit code besides the run itself. */
export interface RunOutcomeOptions {
  systemFailures: SystemFailures;
  /** `--fail-under`: the pass rate in % below which the run exits 1. */
  failUnder?: number;
  /** The command that resumes an interrupted run. */
  resumeCommand?: string;
}

/** The pass rate of every summary (`passRateOf` of results/): passed / (passed + failed), in %. */
function passRate(summary: RunSummary): number {
  return 100 * passRateOf(summary.passed, summary.failed);
}

/**
 * The exit code of a finished run and the lines explaining it: 130 interrupted; 1 when a task threw, a result
 * failed for a system cause, or the pass rate is below `failUnder`; else 0, whatever the verdicts.
 */
export function runOutcome(
  run: Pick<VerificationRun, "summary" | "failures">,
  options: RunOutcomeOptions,
): { code: number; lines: string[] } {
  const { summary } = run;
  if (summary.aborted) {
    const resume =
      options.resumeCommand === undefined ? [] : [`interrupted; resume with:\n  ${options.resumeCommand}`];
    return { code: EXIT.interrupted, lines: resume.length > 0 ? resume : ["interrupted"] };
  }
  const lines: string[] = [];
  const { systemFailures } = options;
  if (systemFailures.count > 0) {
    const of = summary.completed;
    lines.push(
      `${systemFailures.count} of ${of} task${of === 1 ? "" : "s"} failed for a system cause, not on the answers (exit code 1):`,
      ...systemFailures.causes().map((cause) => `  ${cause}`),
    );
  }
  const thrown = run.failures.length;
  if (thrown > 0) lines.push(`${thrown} task${thrown === 1 ? "" : "s"} could not run (exit code 1)`);
  const belowTarget = options.failUnder !== undefined && passRate(summary) < options.failUnder;
  if (belowTarget) {
    lines.push(`pass rate ${passRate(summary).toFixed(1)}% is below --fail-under ${options.failUnder}%`);
  }
  const failed = systemFailures.count > 0 || thrown > 0 || belowTarget;
  return { code: failed ? EXIT.checkFailed : EXIT.ok, lines };
}

/**
 * Prints why a run ends as it does and ends the command with its exit code (nothing for exit code 0).
 * @throws {CliExit} for any exit code but 0.
 */
export function endRun(
  err: (text: string) => void,
  run: Pick<VerificationRun, "summary" | "failures">,
  options: RunOutcomeOptions,
): void {
  const { code, lines } = runOutcome(run, options);
  for (const line of lines) err(`${line}\n`);
  if (code !== EXIT.ok) throw new CliExit(code);
}

/** The one-line run summary printed to stderr. */
export function summaryLine(summary: RunSummary, output: string | undefined): string {
  const cost =
    summary.costUsd > 0 || summary.unpricedCalls === 0 ? `$${summary.costUsd.toFixed(4)}` : "cost unknown";
  const parts = [
    `${summary.runName}: ${summary.completed + summary.resumed}/${summary.total} done`,
    `${summary.passed} passed, ${summary.failed} failed${summary.taskErrors > 0 ? `, ${summary.taskErrors} errors` : ""}`,
    `${summary.calls} LLM calls${summary.replayedCalls > 0 ? ` (${summary.replayedCalls} replayed from recordings)` : ""}, ${summary.cacheHits} cache hits`,
    `${summary.inputTokens} in / ${summary.outputTokens} out tokens, ${cost}${summary.unpricedCalls > 0 && summary.costUsd > 0 ? "+ (some models unpriced)" : ""}`,
    `${summary.seconds.toFixed(1)} s`,
  ];
  if (summary.resumed > 0) parts.push(`${summary.resumed} resumed`);
  if (output !== undefined) parts.push(`results: ${output}`);
  return parts.join(" · ");
}
