/**
 * `verify --record DIR` and `--replay-recordings DIR`: every LLM call and every agent run (turns, tool calls and
 * their results) of a run recorded to files, one per request, and a later run answered from them with no
 * network and no API key (the library's `recording: { dir, mode }`, docs/agentic.md). Agentic benchmarks are
 * tested and demonstrated offline this way.
 */
import { readdir, stat } from "node:fs/promises";
import type { Command } from "commander";
import type { VerificationResult } from "../results/index.js";
import { CliUsageError } from "./cli-io.js";

/** The recording flags, as commander gives them. */
export interface RecordingFlags {
  record?: string;
  replayRecordings?: string;
}

/** What `runVerification` is given: the recordings' directory and whether to write or read them. */
export interface RecordingRun {
  dir: string;
  mode: "record" | "replay";
}

/** Adds `--record` and `--replay-recordings` to `verify`. */
export function addRecordingOptions(command: Command): Command {
  return command
    .option(
      "--record <dir>",
      "record every LLM call and agent run (its turns, tool calls and tool results) into DIR, one file per request (a request recorded before is overwritten), to replay offline with --replay-recordings DIR",
    )
    .option(
      "--replay-recordings <dir>",
      "answer every LLM call and agent run from the recordings in DIR (made with --record): no network, no API key, no tool is run; give the same models and options as the recorded run. A request never recorded fails its question, naming the call",
    );
}

/**
 * Refuses recording flags that contradict each other or the run.
 * @throws {CliUsageError} for both flags, either with `--cache`, or on the bundled example (no models given).
 */
export function checkRecordingFlags(
  options: RecordingFlags & { cache?: string },
  bundledExample: boolean,
): void {
  const flag = options.record !== undefined ? "--record" : "--replay-recordings";
  if (options.record === undefined && options.replayRecordings === undefined) return;
  if (options.record !== undefined && options.replayRecordings !== undefined)
    throw new CliUsageError(
      "--record writes recordings and --replay-recordings reads them: give one (record a live run first, then replay it)",
    );
  if (options.cache !== undefined)
    throw new CliUsageError(
      `${flag} and --cache both answer calls from files, and a cached response is never recorded: drop --cache`,
    );
  if (bundledExample)
    throw new CliUsageError(
      `${flag} needs the models to record or replay: give --answering and --parsing models (the bundled example already replays its own recordings)`,
    );
}

/**
 * The recording of a run, or null without the flags. For `--replay-recordings` the directory must exist and
 * hold recordings.
 * @throws {CliUsageError} when the replay directory is missing, not a directory, or holds no recording.
 */
export async function recordingRun(options: RecordingFlags): Promise<RecordingRun | null> {
  if (options.record !== undefined) return { dir: options.record, mode: "record" };
  const dir = options.replayRecordings;
  if (dir === undefined) return null;
  const kind = await stat(dir).then(
    (found) => (found.isDirectory() ? "directory" : "file"),
    () => "missing",
  );
  if (kind !== "directory")
    throw new CliUsageError(
      `--replay-recordings: ${dir} ${kind === "missing" ? "does not exist" : "is not a directory"}; record the run into it first with --record ${dir} (live models)`,
    );
  const files = await readdir(dir);
  if (!files.some((name) => name.endsWith(".json")))
    throw new CliUsageError(
      `--replay-recordings: ${dir} holds no recording (*.json); record the run into it first with --record ${dir} (live models)`,
    );
  return { dir, mode: "replay" };
}

/** The note of a dry run whose calls would be replayed. */
export const REPLAYED_DRY_RUN_NOTE =
  "--replay-recordings: every call is answered from the recordings, so running it calls no model and costs nothing. The numbers below are for the same config run live.";

const MISS_MARK = "ReplayMissError: ";

/**
 * Collects the results a replay miss failed, to name each question and the call that was not recorded
 * (the failure reason alone sits in the summary tables, without its question).
 */
export class ReplayMisses {
  readonly #misses: string[] = [];

  /** Notes `result` when a request it needed was not in the recordings. */
  add(result: VerificationResult): void {
    const reason = result.metadata.failure?.reason ?? "";
    const at = reason.indexOf(MISS_MARK);
    if (at < 0) return;
    this.#misses.push(`question ${result.metadata.question_id}: ${reason.slice(at + MISS_MARK.length)}`);
  }

  /** The lines to print after the run: one per failed question (the first `limit`), then what to do. */
  lines(dir: string, limit = 5): string[] {
    if (this.#misses.length === 0) return [];
    const more = this.#misses.length - limit;
    return [
      `${this.#misses.length} ${this.#misses.length === 1 ? "result" : "results"} failed on a request not in the recordings ${dir}:`,
      ...this.#misses.slice(0, limit).map((miss) => `  ${miss}`),
      ...(more > 0 ? [`  ... and ${more} more`] : []),
      `Record them with the same command and --record ${dir} instead of --replay-recordings (live models).`,
    ];
  }
}

/** The "Recording" block of `verify --help`. */
export const RECORDING_HELP = `
Recording and replaying runs, agentic ones included (docs/agentic.md):
  karenina verify bench.jsonld -a openai:gpt-4.1 -p openai:gpt-4.1-mini --workspace-root ./ws \\
      --agentic-parsing --record ./recordings            # live: every call and agent run saved to files
  karenina verify bench.jsonld -a openai:gpt-4.1 -p openai:gpt-4.1-mini --workspace-root ./ws \\
      --agentic-parsing --replay-recordings ./recordings  # offline: no key, no network, same verdicts
A replayed run needs the same models (interface and name; the base URL may differ) and options as the
recorded one: a request that differs fails its question with the call it could not find.
The bundled agentic example, replayed this way: karenina demo --agentic`;
