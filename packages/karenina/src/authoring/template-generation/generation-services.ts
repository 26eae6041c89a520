import { CallScheduler } from "../../llm/index.js";
import { CachingPortProvider, type CallRecorder, type CallServices, RunStats } from "../../pipeline/index.js";

/** Call services for a generation job, and how to release what the job built itself. */
export interface GenerationServices {
  services: CallServices;
  /** Closes the ports when they were built here; leaves given services open. */
  close(): Promise<void>;
}

/**
 * The given call services (ports, scheduler, cache, counters), or fresh ones with the adapter routing's
 * ports, a default scheduler, no cache and new counters; `signal` is added to theirs.
 */
export function generationServices(given?: CallServices, signal?: AbortSignal): GenerationServices {
  const base: CallServices = given ?? {
    ports: new CachingPortProvider(),
    scheduler: new CallScheduler(),
    cache: null,
    stats: new RunStats(),
  };
  const signals = [base.signal, signal].filter((s): s is AbortSignal => s !== undefined);
  const combined = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  return {
    services: { ...base, ...(combined === undefined ? {} : { signal: combined }) },
    close: given === undefined ? () => base.ports.close() : async () => {},
  };
}

/** A recorder that counts the usage of fresh (uncached) calls in the services' counters. */
export function statsRecorder(services: CallServices): CallRecorder {
  return {
    recordUsage: (_stage, usage, cached) => {
      if (!cached) services.stats.addUsage(usage);
    },
    recordRetry: () => {},
    replicate: null,
  };
}
