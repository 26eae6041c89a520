import { resolve } from "node:path";
import type { Benchmark } from "../benchmark/index.js";
import { DEFAULT_QUEUE, startFleetRun } from "../distributed/index.js";
import {
  defaultRunName,
  loadPriceTable,
  type PipelineQuestion,
  type VerificationConfig,
} from "../pipeline/index.js";
import type { CliIo } from "./cli-io.js";
import { type DistributedFlags, endpointLimitsOf } from "./distributed-flags.js";
import { withFleet } from "./fleet-command.js";
import { followAndReport } from "./fleet-follow.js";
import type { VerifyOptions } from "./verify-config.js";

/** A workspace root as every worker finds it on a shared file system: absolute. */
function absolute(root: string | null): string | null {
  return root === null ? null : resolve(root);
}

/**
 * `verify --distributed`: plans the run, stores it and enqueues its answer groups, then (unless `--detach`)
 * follows it to the end as a local run is shown.
 */
export async function runDistributed(
  benchmark: Benchmark,
  config: VerificationConfig,
  questions: readonly PipelineQuestion[],
  options: VerifyOptions & DistributedFlags,
  io: CliIo,
  startedAt: number,
): Promise<void> {
  const url = options.db as string;
  const prices = options.prices === undefined ? null : await loadPriceTable(options.prices);
  await withFleet(url, async (fleet, storage) => {
    const enqueued = await startFleetRun(fleet, storage, {
      benchmark,
      config,
      questions,
      ...(options.queue === undefined ? {} : { queue: options.queue }),
      settings: {
        runName: defaultRunName(),
        includeDrafts: options.includeDrafts === true,
        isolation: options.isolation ?? "checkpoint",
        workspaceRoot: absolute(options.workspaceRoot ?? benchmark.workspaceRoot),
        agentCommands: options.allowCommands === true,
        endpointKeyEnv: options.endpointKeyEnv ?? null,
        endpointLimits: endpointLimitsOf(options.endpointLimit ?? []),
        prices,
        sharedCache: options.sharedCache === true,
        cacheMode: options.refreshCache ? "refresh" : "use",
      },
    });
    io.err(
      `${enqueued.runId}: ${enqueued.tasks} tasks enqueued in ${enqueued.jobs} jobs on queue ${enqueued.queue} of ${fleet.database}\n` +
        `workers take them: karenina worker --db ${fleet.database}${enqueued.queue === DEFAULT_QUEUE ? "" : ` --queue ${enqueued.queue}`}\n`,
    );
    if (options.detach) {
      io.err(`follow it with: karenina fleet follow ${enqueued.runId} --db ${fleet.database}\n`);
      return;
    }
    await followAndReport(fleet, storage, enqueued.runId, io, {
      progress: options.progress !== false,
      startedAt,
      ...(options.failUnder === undefined ? {} : { failUnder: options.failUnder }),
    });
  });
}
