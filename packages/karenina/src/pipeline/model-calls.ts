import {
  type AgentPort,
  type AgentResult,
  type AgentRunOptions,
  type CallScheduler,
  cacheKey,
  type EmbeddingPort,
  type LlmPort,
  type LlmResponse,
  type Message,
  type ParseResult,
  type ParserPort,
  type ResponseStore,
  type RetryableCategory,
  type StructuredSchema,
  type UsageMetadata,
} from "../llm/index.js";
import type { AgentRole, ModelConfig } from "./config/index.js";
import type { RunStats } from "./run-stats.js";

/** Where ports come from; built once per run so each model's client is made once. */
export interface PortProvider {
  llm(model: ModelConfig): LlmPort;
  parser(model: ModelConfig): ParserPort;
  /**
   * The model's agent (tool loop or deep agent, see `agentPortFor`) for `role`: an answering tool loop runs
   * with the model's `agent_middleware`, a judging one without (as in the original, where only the answering
   * agent has middleware). Default `answering`.
   */
  agent(model: ModelConfig, role?: AgentRole): AgentPort;
  embedding(model: ModelConfig, embeddingModel: string): EmbeddingPort;
  /** Closes every port handed out. */
  close(): Promise<void>;
}

/** The run-wide services every task's calls go through. */
export interface CallServices {
  ports: PortProvider;
  scheduler: CallScheduler;
  /** The on-disk response cache, or null when caching is off. */
  cache: ResponseStore | null;
  /** `refresh`: never read the cache, but store fresh responses (the cache bypass). Default `use`. */
  cacheMode?: "use" | "refresh";
  stats: RunStats;
  signal?: AbortSignal;
  /** Calls and agent runs are answered from recordings (nothing goes over the wire). */
  replaysCalls?: boolean;
}

/** Where a task's calls report their usage and retries (the task's context). */
export interface CallRecorder {
  /** `cached`: the response came from the cache, so no tokens were spent on it now. */
  recordUsage(stage: string, usage: UsageMetadata, cached: boolean): void;
  recordRetry(category: RetryableCategory): void;
  readonly replicate: number | null;
}

/** One call of a task: which model, what for (the usage stage) and the messages. */
export interface CallRequest {
  /** The usage bucket of spec 05 §2 (`answer_generation`, `parsing`, `abstention_check`, ...). */
  stage: string;
  model: ModelConfig;
  messages: readonly Message[];
}

/** The concurrency bucket of a model: its endpoint (base URL), else its interface. */
export function endpointKey(model: ModelConfig): string {
  return model.endpoint_base_url ?? model.anthropic_base_url ?? model.interface;
}

function modelIdentityKey(model: ModelConfig): string {
  return `${model.interface}:${model.model_name ?? ""}@${endpointKey(model)}`;
}

/**
 * The LLM calls of one task. Every call goes through the run's scheduler (global and per-endpoint
 * concurrency, adaptive 429 handling), with the model's retry policy and per-call timeout, through the
 * response cache when there is one; its usage and retries are reported to the task.
 */
export class ModelCalls {
  constructor(
    private readonly services: CallServices,
    private readonly recorder: CallRecorder,
  ) {}

  /**
   * A plain call: messages in, text out. With `stream` the call is streamed when the port can stream (spec 04
   * §5.2 step 8), so a timeout returns the text received so far (`isPartial`). Partial responses are never
   * cached; streamed and plain calls share cache entries (same messages, same answer).
   */
  async invoke(request: CallRequest & { stream?: boolean }): Promise<LlmResponse> {
    const { model, messages } = request;
    const port = this.services.ports.llm(model);
    const streamed = request.stream === true && port.streamInvoke !== undefined;
    const { value: response, cached } = await this.cached(
      request,
      { kind: "invoke" },
      (value): value is LlmResponse => typeof (value as LlmResponse)?.content === "string",
      (signal, timeoutMs) =>
        (streamed ? port.streamInvoke?.(messages, { signal, timeoutMs }) : undefined) ??
        port.invoke(messages, { signal, timeoutMs }),
      (value) => !value.isPartial,
    );
    this.recorder.recordUsage(request.stage, response.usage, cached);
    return response;
  }

  /** A structured call through the judge's parser port; the cached object is validated again on a hit. */
  async parse<T>(request: CallRequest & { schema: StructuredSchema<T> }): Promise<ParseResult<T>> {
    const { model, messages, schema } = request;
    const port = this.services.ports.parser(model);
    const { value: result, cached } = await this.cached(
      request,
      { kind: "parse", schema: schema.jsonSchema },
      (value): value is ParseResult<T> =>
        value !== null &&
        typeof value === "object" &&
        schema.validate((value as ParseResult<T>).parsed).success,
      (signal, timeoutMs) => port.parse(messages, schema, { signal, timeoutMs }),
      () => true,
    );
    this.recorder.recordUsage(request.stage, result.usage, cached);
    return result;
  }

  /**
   * One agent run (answering agent or agentic judge), usage under `request.stage`. The run holds one slot of
   * the model's endpoint in the run's scheduler for its whole length, so global and per-endpoint limits count
   * it. It is neither retried as a whole (its tools may have changed files; the agent retries its own model
   * calls) nor cached.
   */
  async runAgent(request: CallRequest & { options?: Omit<AgentRunOptions, "signal"> }): Promise<AgentResult> {
    const { model, messages, options } = request;
    const { scheduler, signal, stats } = this.services;
    const port = this.services.ports.agent(
      model,
      request.stage === "answer_generation" ? "answering" : "judge",
    );
    const result = await scheduler.run(
      endpointKey(model),
      (callSignal) => port.run(messages, { ...options, ...(callSignal ? { signal: callSignal } : {}) }),
      { signal },
    );
    if (this.services.replaysCalls) stats.replayedCalls += Math.max(1, result.turns);
    else stats.calls += Math.max(1, result.turns);
    this.recorder.recordUsage(request.stage, result.usage, false);
    return result;
  }

  /** Embeddings of `values` with `embeddingModel`, served by the endpoint of `model`; usage under `stage`. */
  async embed(
    model: ModelConfig,
    embeddingModel: string,
    values: string[],
    stage = "embedding_check",
  ): Promise<number[][]> {
    const port = this.services.ports.embedding(model, embeddingModel);
    const result = await this.scheduled(model, (signal, timeoutMs) =>
      port.embed(values, { signal, timeoutMs }),
    );
    this.recorder.recordUsage(stage, { ...result.usage, model: embeddingModel }, false);
    return result.embeddings;
  }

  private scheduled<T>(
    model: ModelConfig,
    call: (signal: AbortSignal | undefined, timeoutMs: number | undefined) => Promise<T>,
  ): Promise<T> {
    const { scheduler, signal, stats } = this.services;
    const timeoutMs = model.request_timeout === null ? undefined : model.request_timeout * 1000;
    const policy = model.retry_policy;
    const attempt = (callSignal?: AbortSignal) => {
      if (this.services.replaysCalls) stats.replayedCalls++;
      else stats.calls++;
      return call(callSignal, timeoutMs);
    };
    if (policy === null) return scheduler.run(endpointKey(model), attempt, { signal });
    return scheduler.runWithRetries(endpointKey(model), attempt, {
      policy,
      signal,
      onRetry: (event) => this.recorder.recordRetry(event.category),
    });
  }

  private async cached<T>(
    request: CallRequest,
    parameters: Record<string, unknown>,
    isValid: (value: unknown) => value is T,
    call: (signal: AbortSignal | undefined, timeoutMs: number | undefined) => Promise<T>,
    storable: (value: T) => boolean,
  ): Promise<{ value: T; cached: boolean }> {
    const { cache, stats } = this.services;
    if (cache === null) return { value: await this.scheduled(request.model, call), cached: false };
    const { model, messages } = request;
    const key = cacheKey({
      modelIdentity: modelIdentityKey(model),
      messages,
      parameters: { ...parameters, temperature: model.temperature, max_tokens: model.max_tokens },
      replicate: this.recorder.replicate ?? 0,
    });
    const hit = this.services.cacheMode === "refresh" ? undefined : await cache.get<unknown>(key);
    if (hit !== undefined && isValid(hit)) {
      stats.cacheHits++;
      return { value: hit, cached: true };
    }
    const value = await this.scheduled(model, call);
    if (storable(value)) await cache.put(key, value).catch(() => undefined);
    return { value, cached: false };
  }
}
