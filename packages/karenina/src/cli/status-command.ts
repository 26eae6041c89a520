import { access, readFile } from "node:fs/promises";
import type { Command } from "commander";
import {
  finishedKeys,
  RunLogError,
  type RunState,
  readRunLog,
  readRunState,
  resultTaskKey,
  runStatePath,
} from "../pipeline/index.js";
import { isVerificationResult, rowOutcome, type VerificationResult } from "../results/index.js";
import type { CliIo } from "./cli-io.js";

/** Where a run stands: `running_or_unknown` when its state says neither finished nor interrupted. */
export type RunStatusKind = "finished" | "interrupted" | "running_or_unknown" | "unknown";

/** What `karenina status` reports about a run log (and its state file, when there is one). */
export interface RunStatus {
  run_log: string;
  /** The state file read, or null when there is none. */
  state_file: string | null;
  run_name: string | null;
  /** Distinct tasks with a result in the log. */
  done: number;
  /** Tasks of the run; null without a state file. */
  total: number | null;
  /** `done / total` in %, or null when the total is unknown. */
  percent: number | null;
  passed: number;
  failed: number;
  /** Failed results by failure category; a wrong verdict without a failure record counts as `incorrect`. */
  failed_by_category: Record<string, number>;
  /** Results carried over from an earlier attempt when the last attempt started; null without a state file. */
  resumed: number | null;
  started_at: string | null;
  updated_at: string | null;
  status: RunStatusKind;
  /** Lines of the log that are not results (e.g. a line cut short by a crash). */
  torn_lines: number;
  /** How to continue an interrupted run, or null. */
  resume_hint: string | null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function statusKind(state: RunState | null): RunStatusKind {
  if (state === null) return "unknown";
  if (state.aborted) return "interrupted";
  return state.finished ? "finished" : "running_or_unknown";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const NOT_ONE_PER_LINE = "a run log holds one verification result as JSON per line";

/** What a whole JSON document is, when a run log was expected. */
function documentKind(file: string, whole: unknown): string {
  if (isObject(whole) && ("format_version" in whole || Array.isArray(whole.results)))
    return `a results export (JSON); summarize it with: karenina results ${file}`;
  if (isObject(whole) && ("dataFeedElement" in whole || "@context" in whole))
    return `a benchmark checkpoint; see it with: karenina checkpoint inspect ${file}`;
  return `a JSON document (${NOT_ONE_PER_LINE})`;
}

/**
 * Why a file read as a run log is not one, or null when it is. Only a file with lines that are not results
 * is looked at again: one JSON document over several lines (an export, a checkpoint), or no result at all
 * without a state file (an empty or unrelated file). A log beside its state file may hold no result yet, or
 * only a line cut short by a crash.
 */
async function notARunLog(
  file: string,
  log: { results: readonly unknown[]; skippedLines: number },
  hasState: boolean,
): Promise<string | null> {
  if (log.skippedLines === 0 && log.results.length > 0) return null;
  const text = await readFile(file, "utf8");
  if (text.trim() === "") return hasState ? null : "the file is empty and has no state file";
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined;
  }
  if (whole !== undefined && !isVerificationResult(whole)) return documentKind(file, whole);
  if (log.results.length > 0 || (hasState && log.skippedLines <= 1)) return null;
  const lines = log.skippedLines;
  return `none of its ${lines} line${lines === 1 ? "" : "s"} is a verification result (${NOT_ONE_PER_LINE})`;
}

/**
 * Reads a run log and its state file (`<runLog>.state.json`) into a {@link RunStatus}. A file with no result
 * is a run log only beside its state file (a run that has just started, or was killed in its first write).
 * @throws {RunLogError} when the run log is missing, unreadable or not a run log; {@link RunStateError} for a
 * bad state file.
 */
export async function runStatus(runLog: string): Promise<RunStatus> {
  if (!(await exists(runLog))) throw new RunLogError(runLog, "no such run log");
  const statePath = runStatePath(runLog);
  const state = (await exists(statePath)) ? await readRunState(statePath) : null;
  const log = await readRunLog<VerificationResult>(runLog, { accept: isVerificationResult });
  const problem = await notARunLog(runLog, log, state !== null);
  if (problem !== null) throw new RunLogError(runLog, `not a run log: ${problem}`);
  const results = finishedKeys(log.results, resultTaskKey).results;
  let passed = 0;
  const failedByCategory: Record<string, number> = {};
  for (const result of results) {
    const outcome = rowOutcome(result);
    if (outcome === "passed") passed++;
    if (outcome !== "failed") continue;
    const category = result.metadata.failure?.category ?? "incorrect";
    failedByCategory[category] = (failedByCategory[category] ?? 0) + 1;
  }
  const total = state?.total_tasks ?? null;
  const status = statusKind(state);
  return {
    run_log: runLog,
    state_file: state === null ? null : statePath,
    run_name: state?.run_name ?? results.find((r) => r.metadata.run_name)?.metadata.run_name ?? null,
    done: results.length,
    total,
    percent: total === null ? null : total === 0 ? 100 : Math.round((1000 * results.length) / total) / 10,
    passed,
    failed: Object.values(failedByCategory).reduce((sum, n) => sum + n, 0),
    failed_by_category: failedByCategory,
    resumed: state?.resumed ?? null,
    started_at: state?.started_at ?? null,
    updated_at: state?.updated_at ?? null,
    status,
    torn_lines: log.skippedLines,
    resume_hint: status === "interrupted" ? `karenina verify ... -o ${runLog} --resume` : null,
  };
}

const STATUS_TEXT: Record<RunStatusKind, string> = {
  finished: "finished",
  interrupted: "interrupted",
  running_or_unknown: "still running, or stopped without recording it (killed?)",
  unknown: "unknown (no state file)",
};

/** The status as text, one field a line. */
export function formatRunStatus(status: RunStatus): string {
  const failures = Object.entries(status.failed_by_category)
    .map(([category, n]) => `${category} ${n}`)
    .join(", ");
  const lines = [
    `run: ${status.run_name ?? "(unnamed)"}`,
    `log: ${status.run_log}${status.torn_lines > 0 ? ` (${status.torn_lines} torn lines skipped)` : ""}`,
    status.total === null
      ? `done: ${status.done} (total unknown: no state file ${runStatePath(status.run_log)})`
      : `done: ${status.done}/${status.total} (${status.percent}%)`,
    `passed: ${status.passed}`,
    `failed: ${status.failed}${failures === "" ? "" : ` (${failures})`}`,
  ];
  if (status.resumed !== null) lines.push(`resumed: ${status.resumed}`);
  if (status.started_at !== null) lines.push(`started: ${status.started_at}`);
  if (status.updated_at !== null) lines.push(`updated: ${status.updated_at}`);
  lines.push(`status: ${STATUS_TEXT[status.status]}`);
  if (status.resume_hint !== null) lines.push(`resume with: ${status.resume_hint}`);
  return `${lines.join("\n")}\n`;
}

/** `karenina status`. */
export function registerStatusCommand(program: Command, io: CliIo): void {
  program
    .command("status")
    .description("Show how far a run got: results in its run log, pass/fail, and whether it finished")
    .argument("<run-log>", "the run log (.jsonl) of `karenina verify -o`")
    .option("--json", "print the status as a JSON object")
    .action(async (runLog: string, options: { json?: boolean }) => {
      const status = await runStatus(runLog);
      io.out(options.json ? `${JSON.stringify(status, null, 2)}\n` : formatRunStatus(status));
    });
}
