import { readFile } from "node:fs/promises";
import { z } from "zod";
import { writeFileAtomic } from "../checkpoint/index.js";
import { dottedPath, KareninaError, schemaProblems } from "../errors/index.js";

/** The `format` tag of a run state file. */
export const RUN_STATE_FORMAT = "karenina-run-state/1";

/**
 * The small file written beside a run log (`<output>.state.json`) at the start and at the end of a run, so
 * `karenina status` can tell a finished run from an interrupted or a still running one.
 */
export const RunStateSchema = z.strictObject({
  format: z.literal(RUN_STATE_FORMAT),
  run_name: z.string(),
  /** Tasks of the run, including those carried over from an earlier attempt. */
  total_tasks: z.number().int().nonnegative(),
  /** Results carried over from the run log when the run started. */
  resumed: z.number().int().nonnegative(),
  started_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** Every task finished. */
  finished: z.boolean(),
  /** The run was cancelled before every task finished. */
  aborted: z.boolean(),
  /** The run's config as {@link dumpVerificationConfig} gives it: API keys masked. */
  config: z.record(z.string(), z.unknown()),
});
export type RunState = z.infer<typeof RunStateSchema>;

/** A run state file that cannot be written, read or does not have the expected shape. */
export class RunStateError extends KareninaError {
  override readonly name: string = "RunStateError";

  constructor(
    readonly path: string,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${reason}`, options);
  }
}

/**
 * The state file of a run log.
 * @example
 * runStatePath("run.jsonl"); // "run.jsonl.state.json"
 */
export function runStatePath(runLog: string): string {
  return `${runLog}.state.json`;
}

const reasonOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Writes a run state file atomically (a reader sees the old or the new file, never half of one).
 * @throws {RunStateError} when the state is invalid or the file cannot be written.
 */
export async function writeRunState(path: string, state: RunState): Promise<void> {
  const parsed = RunStateSchema.safeParse(state);
  if (!parsed.success) throw invalid(path, parsed.error, state);
  try {
    await writeFileAtomic(path, `${JSON.stringify(parsed.data, null, 2)}\n`);
  } catch (error) {
    throw new RunStateError(
      path,
      `cannot write the run state (${reasonOf((error as Error).cause ?? error)})`,
      {
        cause: error,
      },
    );
  }
}

/**
 * Reads a run state file written by {@link writeRunState}.
 * @throws {RunStateError} naming the file and, for a bad file, every invalid field.
 */
export async function readRunState(path: string): Promise<RunState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new RunStateError(path, `cannot read the run state (${reasonOf(error)})`, { cause: error });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RunStateError(path, `not a run state file: not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const parsed = RunStateSchema.safeParse(raw);
  if (!parsed.success) throw invalid(path, parsed.error, raw);
  return parsed.data;
}

function invalid(path: string, error: z.ZodError, input: unknown): RunStateError {
  const problems = schemaProblems(error, input)
    .map((p) => `  ${dottedPath(p.path) || "(top level)"}: ${p.message}`)
    .join("\n");
  return new RunStateError(path, `invalid run state (${RUN_STATE_FORMAT}):\n${problems}`);
}
