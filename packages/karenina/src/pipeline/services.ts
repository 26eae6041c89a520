import { setMaxListeners } from "node:events";
import {
  type AgentPort,
  CallScheduler,
  type EmbeddingPort,
  type LlmPort,
  type ParserPort,
  type ReplayStore,
  type ResponseStore,
} from "../llm/index.js";
import type { CallableRegistry } from "../rubrics/index.js";
import type { PythonSandbox } from "../sandbox/index.js";
import { defaultPythonSandbox } from "../templates/index.js";
import { AnswerShare } from "./answer-share.js";
import {
  type AgentRole,
  agentPortFor,
  type Env,
  embeddingPortFor,
  llmPortFor,
  type ModelConfig,
  type PortRoutingOptions,
  parserPortFor,
  type VerificationConfig,
} from "./config/index.js";
import type { CallServices, PortProvider } from "./model-calls.js";
import type { PriceTable } from "./pricing.js";
import { RunStats } from "./run-stats.js";
import { WorkspaceLeases } from "./workspace-leases.js";

/** Everything a run's tasks share: ports, scheduler, cache, answer sharing, replay, counters, cancellation. */
export interface RunServices extends CallServices {
  answers: AnswerShare;
  /** Canned answers (spec 05 §8.2): looked up before any live answering call. */
  replay: ReplayStore | null;
  /** TypeScript functions for callable traits, by trait name; they win over code stored in the checkpoint. */
  callables: CallableRegistry | null;
  /** The benchmark's workspace root (seed 002 §8): where agents' working directories are made; null if none. */
  workspaceRoot: string | null;
  /** Answering tool-loop agents get `run_command` in their workspace (off by default; a container by default). */
  agentCommands: boolean;
  /** Workspaces shared by the tasks of one shared answer: the last task to finish cleans up. */
  workspaces: WorkspaceLeases;
  /** The run's trust domain: where its Python templates and callable traits run. */
  pythonSandbox: PythonSandbox;
  /** Where the run reads `TAVILY_API_KEY` and `KARENINA_TAVILY_BASE_URL` (deep-judgment search). */
  env: Env;
}

const portKeys = new WeakMap<ModelConfig, string>();

/** The settings of a model that change its client: one port is built per distinct value (cached per config). */
function portKey(model: ModelConfig): string {
  let key = portKeys.get(model);
  if (key === undefined) {
    key = computePortKey(model);
    portKeys.set(model, key);
  }
  return key;
}

function computePortKey(model: ModelConfig): string {
  return JSON.stringify([
    model.interface,
    model.model_name,
    model.model_provider,
    model.endpoint_base_url,
    model.anthropic_base_url,
    model.temperature,
    model.max_tokens,
    model.request_timeout,
    model.extra_kwargs,
    model.endpoint_api_key?.reveal() ?? null,
    model.anthropic_api_key?.reveal() ?? null,
  ]);
}

/**
 * A {@link PortProvider} over the adapter routing that builds each distinct model's port once per run and
 * closes them all at the end.
 */
export class CachingPortProvider implements PortProvider {
  readonly #routing: PortRoutingOptions;
  readonly #llms = new Map<string, LlmPort>();
  readonly #parsers = new Map<string, ParserPort>();
  readonly #agents = new Map<string, AgentPort>();
  readonly #embedders = new Map<string, EmbeddingPort>();

  /** @param routing passed to the adapter routing, e.g. `recording` to record calls or replay them offline. */
  constructor(routing: PortRoutingOptions = {}) {
    this.#routing = routing;
  }

  llm(model: ModelConfig): LlmPort {
    return memo(this.#llms, portKey(model), () => llmPortFor(model, this.#routing));
  }

  parser(model: ModelConfig): ParserPort {
    return memo(this.#parsers, portKey(model), () => parserPortFor(model, this.#routing));
  }

  /** With `routing.recording`, agent runs are recorded or replayed like single calls. */
  agent(model: ModelConfig, role: AgentRole = "answering"): AgentPort {
    const key = JSON.stringify([
      role,
      portKey(model),
      model.mcp_urls_dict,
      model.mcp_tool_filter,
      model.mcp_tool_description_overrides,
      model.mcp_http_timeout,
      model.mcp_sse_read_timeout,
      model.agent_middleware,
      model.agent_timeout,
      model.agent_runtime,
    ]);
    const { env, recording } = this.#routing;
    return memo(this.#agents, key, () =>
      agentPortFor(model, {
        role,
        ...(env === undefined ? {} : { env }),
        ...(recording === undefined ? {} : { recording }),
      }),
    );
  }

  embedding(model: ModelConfig, embeddingModel: string): EmbeddingPort {
    return memo(this.#embedders, `${portKey(model)}\u0000${embeddingModel}`, () =>
      embeddingPortFor(
        model,
        embeddingModel,
        this.#routing.env === undefined ? {} : { env: this.#routing.env },
      ),
    );
  }

  async close(): Promise<void> {
    const ports = [
      ...this.#llms.values(),
      ...this.#parsers.values(),
      ...this.#agents.values(),
      ...this.#embedders.values(),
    ];
    this.#llms.clear();
    this.#parsers.clear();
    this.#agents.clear();
    this.#embedders.clear();
    await Promise.allSettled(ports.map((port) => port.close()));
  }
}

function memo<T>(map: Map<string, T>, key: string, build: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = build();
    map.set(key, value);
  }
  return value;
}

/** Options of {@link createCallServices}. */
export interface CallServicesOptions {
  cache?: ResponseStore | null;
  /** `refresh` bypasses cache reads but stores fresh responses. */
  cacheMode?: "use" | "refresh";
  /** Concurrency caps per endpoint (base URL, or interface name for a provider's default endpoint). */
  endpointLimits?: Readonly<Record<string, number>>;
  signal?: AbortSignal;
  prices?: PriceTable;
  /** Default: the adapters of `llmPortFor` / `parserPortFor`, each built once. */
  ports?: PortProvider;
  /** Default: a scheduler with `max_concurrent_requests` (16 when unset) calls in flight. */
  scheduler?: CallScheduler;
  /** The ports replay recordings: single calls are counted as replayed, not as calls made. */
  replaysCalls?: boolean;
}

/** The call services of a run: ports, scheduler sized from the config, cache and counters. */
export function createCallServices(
  config: VerificationConfig,
  options: CallServicesOptions = {},
): CallServices {
  // Each task at work and each call queued or in flight listens to the run's signal, so past ten workers Node
  // would warn of a leak where there is none; the listeners go when their calls settle.
  if (options.signal !== undefined) setMaxListeners(0, options.signal);
  return {
    ports: options.ports ?? new CachingPortProvider(),
    scheduler:
      options.scheduler ??
      new CallScheduler({
        globalLimit: config.max_concurrent_requests ?? 16,
        ...(options.endpointLimits === undefined ? {} : { endpointLimits: options.endpointLimits }),
      }),
    cache: options.cache ?? null,
    cacheMode: options.cacheMode ?? "use",
    stats: new RunStats(options.prices),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.replaysCalls ? { replaysCalls: true } : {}),
  };
}

/** Options of {@link createRunServices}. */
export interface RunServicesOptions extends CallServicesOptions {
  replay?: ReplayStore | null;
  callables?: CallableRegistry | null;
  /** The benchmark's workspace root (seed 002 §8); default none. */
  workspaceRoot?: string | null;
  /** Give answering tool-loop agents `run_command` in their workspace; default false. */
  agentCommands?: boolean;
  /** The trust domain's Python sandbox; default: the process's shared sandbox. */
  pythonSandbox?: PythonSandbox;
  /** Where `TAVILY_API_KEY` and `KARENINA_TAVILY_BASE_URL` are read; default `process.env`. */
  env?: Env;
}

/** The services of a run: {@link createCallServices} plus answer sharing and the replay store. */
export function createRunServices(config: VerificationConfig, options: RunServicesOptions = {}): RunServices {
  return {
    ...createCallServices(config, options),
    answers: new AnswerShare(),
    replay: options.replay ?? null,
    callables: options.callables ?? null,
    workspaceRoot: options.workspaceRoot ?? null,
    agentCommands: options.agentCommands ?? false,
    workspaces: new WorkspaceLeases(),
    pythonSandbox: options.pythonSandbox ?? defaultPythonSandbox(),
    env: options.env ?? process.env,
  };
}
