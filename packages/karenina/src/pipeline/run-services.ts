import { type CallScheduler, type ReplayStore, ResponseCache } from "../llm/index.js";
import type { CallableRegistry } from "../rubrics/index.js";
import type { PythonSandbox } from "../sandbox/index.js";
import { createTemplateSandbox, type TemplateIsolation } from "../templates/index.js";
import type { VerificationConfig } from "./config/index.js";
import type { PortProvider } from "./model-calls.js";
import type { PriceTable } from "./pricing.js";
import {
  CachingPortProvider,
  createRunServices,
  type RunServices,
  type RunServicesOptions,
} from "./services.js";

/** What a run (of questions or of scenarios) is given to call models with. */
export interface RunServiceOptions {
  /** Cancels the run: tasks in flight are dropped (they rerun on resume), finished results are kept. */
  signal?: AbortSignal;
  /** A directory for the on-disk response cache; none by default. */
  cacheDir?: string | null;
  /** `refresh`: do not read the cache (call live) but store the fresh responses. Default `use`. */
  cacheMode?: "use" | "refresh";
  /** Concurrency caps per endpoint (base URL, or interface name for a provider's default endpoint). */
  endpointLimits?: Readonly<Record<string, number>>;
  prices?: PriceTable;
  replay?: ReplayStore | null;
  /** TypeScript functions for callable traits, by trait name (spec 03 §4.2). */
  callables?: CallableRegistry | null;
  /** Record every LLM call to files, or answer them from such recordings offline (no key, no network). */
  recording?: { dir: string; mode: "record" | "replay" };
  ports?: PortProvider;
  scheduler?: CallScheduler;
  /**
   * The benchmark's workspace root (seed 002 §8): agents work in directories resolved under it (a question's
   * `workspace_path` relative to it). Needed by agentic parsing; `Benchmark.runVerification` passes its own.
   */
  workspaceRoot?: string | null;
  /** Give answering tool-loop agents `run_command` in their workspace (off by default; where it runs: the model's `agent_runtime`, a bubblewrap container by default). */
  agentCommands?: boolean;
  /**
   * The Python sandbox of the questions' trust domain (`Benchmark.runVerification` passes its benchmark's).
   * Default: a sandbox of the run's own, with `isolation`, stopped when the run ends.
   */
  pythonSandbox?: PythonSandbox;
  /** The isolation of the run's own sandbox when none is given (see `TemplateIsolation`); default `"checkpoint"`. */
  isolation?: TemplateIsolation;
  /** Where the run reads `TAVILY_API_KEY` and `KARENINA_TAVILY_BASE_URL` (deep-judgment search); default `process.env`. */
  env?: RunServicesOptions["env"];
}

/** A run's services and how to release what the run opened for itself (ports, its own sandbox). */
export interface OpenedRunServices {
  services: RunServices;
  close(): Promise<void>;
}

/** Opens the services of one run: the response cache, the ports, the scheduler, the run's own sandbox if needed. */
export async function openRunServices(
  config: VerificationConfig,
  options: RunServiceOptions,
): Promise<OpenedRunServices> {
  const cache = options.cacheDir ? await ResponseCache.open(options.cacheDir) : null;
  // A sandbox made here is the run's own, started at its first Python call and stopped with the run.
  const ownSandbox = options.pythonSandbox === undefined ? createTemplateSandbox(options.isolation) : null;
  const services = createRunServices(config, {
    pythonSandbox: options.pythonSandbox ?? ownSandbox ?? undefined,
    cache,
    ...(options.cacheMode === undefined ? {} : { cacheMode: options.cacheMode }),
    ...(options.endpointLimits === undefined ? {} : { endpointLimits: options.endpointLimits }),
    replay: options.replay ?? null,
    callables: options.callables ?? null,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ports:
      options.ports ?? new CachingPortProvider(options.recording ? { recording: options.recording } : {}),
    ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
    ...(options.recording?.mode === "replay" ? { replaysCalls: true } : {}),
    workspaceRoot: options.workspaceRoot ?? null,
    agentCommands: options.agentCommands ?? false,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  return {
    services,
    async close() {
      await services.ports.close();
      await ownSandbox?.close();
    },
  };
}
