import type { Command } from "commander";
import { CliUsageError } from "./cli-io.js";
import type { VerifyOptions } from "./verify-config.js";

/** The flags of `verify` that run a benchmark on a fleet of workers. */
export interface DistributedFlags {
  distributed?: boolean;
  queue?: string;
  detach?: boolean;
  sharedCache?: boolean;
}

/** Adds `--distributed` and its options to `verify`. */
export function addDistributedOptions(command: Command): Command {
  return command
    .option(
      "--distributed",
      "enqueue the run's tasks for `karenina worker` processes (any number of machines) instead of running them here; needs --db postgres://…",
    )
    .option("--queue <name>", "with --distributed: the queue the workers take jobs from (default: karenina)")
    .option("--detach", "with --distributed: enqueue and exit; follow later with karenina fleet follow RUN")
    .option("--shared-cache", "with --distributed: workers share LLM responses in a table of the database");
}

/** The `verify --help` block on distributed runs. */
export const DISTRIBUTED_HELP = `
Distributed runs (docs/distributed.md): the same run, spread over karenina worker processes on many machines.
  karenina worker --db postgres://karenina:secret@db.lab/karenina          # on each machine, once or more
  karenina verify bench.jsonld -a openai:gpt-4.1-mini -p openai:gpt-4.1-mini --replicates 5 \\
      --distributed --db postgres://karenina:secret@db.lab/karenina --endpoint-limit openai=8
The command plans the run, enqueues one job per answer (question × answering model × replicate, judged by
every parsing model), follows it with the same progress bar and summary, and exits when every task has a
result. Ctrl-C cancels the run (karenina fleet resume RUN continues it). --endpoint-limit and the config's
max_concurrent_requests hold across all workers together; a 429 slows every worker down.`;

/** Refuses flags a distributed run cannot honour, saying what to do instead. */
export function checkDistributedFlags(options: VerifyOptions & DistributedFlags, recorded: boolean): void {
  const given = (flag: string) => new CliUsageError(`--distributed: ${flag}`);
  if (!options.distributed) {
    for (const [flag, set] of [
      ["--queue", options.queue !== undefined],
      ["--detach", options.detach],
      ["--shared-cache", options.sharedCache],
    ] as const)
      if (set) throw new CliUsageError(`${flag} goes with --distributed`);
    return;
  }
  if (options.db === undefined || !/^postgres(ql)?:\/\//.test(options.db))
    throw given("needs --db postgres://user:pass@host:5432/db, the database every worker reaches");
  if (recorded)
    throw given(
      "the bundled example's recorded responses stay on this machine; give live --answering and --parsing models",
    );
  const refused: [string, unknown][] = [
    [
      "--output (results are stored in the database: karenina results --db URL RUN exports them)",
      options.output,
    ],
    ["--resume (resume a distributed run with karenina fleet resume RUN --db URL)", options.resume],
    ["--run-root", options.runRoot],
    ["--record / --replay-recordings", options.record ?? options.replayRecordings],
    ["--replay", options.replay],
    ["--cache DIR (each worker's disk; use --shared-cache)", options.cache],
    ["--manual-traces (answers on this machine)", options.manualTraces],
    ["--interactive", options.interactive],
  ];
  for (const [flag, value] of refused)
    if (value !== undefined && value !== false) throw given(`${flag} does not go with --distributed`);
}

/** `--endpoint-limit url=n` values as a map. */
export function endpointLimitsOf(values: readonly string[]): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const value of values) {
    const at = value.lastIndexOf("=");
    const limit = Number(value.slice(at + 1));
    if (at <= 0 || !Number.isInteger(limit) || limit < 1) {
      throw new CliUsageError(`--endpoint-limit: expected URL=N with N >= 1, found ${JSON.stringify(value)}`);
    }
    limits[value.slice(0, at)] = limit;
  }
  return limits;
}
