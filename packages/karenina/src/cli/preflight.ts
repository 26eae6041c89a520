/**
 * The check `karenina verify` makes before its first LLM call: every answering and parsing model has its API key
 * and its endpoint answers. A run against a dead endpoint or without a key would otherwise fail every task,
 * one retry budget at a time, and say why only inside the run log.
 */
import {
  ANTHROPIC_BASE_URL,
  azureConnection,
  azureModelsUrl,
  finalizeBaseUrl,
  GOOGLE_BASE_URL,
  HOSTED_CHAT_APIS,
  OLLAMA_HOST,
  OPENAI_BASE_URL,
  OPENROUTER_BASE_URL,
  ollamaApiUrl,
  type ProviderEnv,
} from "../llm/index.js";
import {
  azureOptionsFor,
  type CallAdapter,
  callAdapterFor,
  languageModelFor,
  type ModelConfig,
  openAiEndpointOptions,
  type VerificationConfig,
} from "../pipeline/index.js";
import { CliUsageError } from "./cli-io.js";

/** How long one endpoint may take to answer the preflight request. */
export const PREFLIGHT_TIMEOUT_MS = 5_000;

/** A model that cannot work, and why. */
export interface PreflightProblem {
  /** `answering`, `parsing`, or both. */
  roles: string[];
  /** The model as the user named it, `interface:model_name`. */
  model: string;
  cause: string;
}

/** Where keys and base URLs are read from, and how long an endpoint may take. */
export interface PreflightOptions {
  env?: ProviderEnv;
  timeoutMs?: number;
}

/** One or more models failed the preflight: nothing was called. Exit code 2. */
export class PreflightError extends CliUsageError {
  constructor(readonly problems: readonly PreflightProblem[]) {
    const lines = problems.map((p) => `  ${p.roles.join(" and ")} model ${p.model}: ${p.cause}`);
    super(
      [
        `preflight: ${problems.length === 1 ? "a model" : `${problems.length} models`} cannot be used; no LLM call was made:`,
        ...lines,
        "Fix the key or the endpoint and run again, or skip this check with --no-preflight.",
      ].join("\n"),
    );
  }
}

/** The request that shows an endpoint answers and takes the key: the API's model list. */
interface EndpointProbe {
  url: string;
  headers: Record<string, string>;
  key: string;
}

const trimSlashes = (url: string) => url.replace(/\/+$/, "");

function extraString(model: ModelConfig, key: string): string | null {
  const value = model.extra_kwargs?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** The URL listing an adapter's models (see the adapters in `llm/providers`). */
function modelsUrlOf(
  model: ModelConfig,
  adapter: Exclude<CallAdapter, "bedrock" | "vertex" | "vertex_anthropic">,
  env: ProviderEnv,
): string {
  if (adapter === "azure") return azureModelsUrl(azureConnection(azureOptionsFor(model, env)));
  if (adapter === "ollama") {
    const host = model.endpoint_base_url ?? extraString(model, "base_url") ?? env.OLLAMA_HOST;
    return `${ollamaApiUrl(host || OLLAMA_HOST)}/tags`;
  }
  return `${baseUrlOf(model, adapter, env)}/models`;
}

/** The base URL each OpenAI-style adapter's client uses (see the adapters in `llm/providers`). */
function baseUrlOf(
  model: ModelConfig,
  adapter: Exclude<CallAdapter, "azure" | "ollama" | "bedrock" | "vertex" | "vertex_anthropic">,
  env: ProviderEnv,
): string {
  const given = (fallback?: string) =>
    model.endpoint_base_url ??
    extraString(model, "base_url") ??
    (fallback === undefined ? null : env[fallback]);
  switch (adapter) {
    case "openai_endpoint": {
      const { baseURL, baseUrlMode } = openAiEndpointOptions(model);
      return finalizeBaseUrl(baseURL, baseUrlMode);
    }
    case "openai":
      return trimSlashes(given("OPENAI_BASE_URL") || OPENAI_BASE_URL);
    case "anthropic": {
      const url = model.anthropic_base_url ?? extraString(model, "base_url") ?? env.ANTHROPIC_BASE_URL;
      return url ? finalizeBaseUrl(url, "auto_v1") : ANTHROPIC_BASE_URL;
    }
    case "google":
      return trimSlashes(given() || GOOGLE_BASE_URL);
    case "openrouter":
      return trimSlashes(given() || OPENROUTER_BASE_URL);
    default: {
      const api = HOSTED_CHAT_APIS[adapter];
      const url = given(api.baseUrlVariable);
      return url ? (api.finalizeBaseUrl ?? trimSlashes)(url) : api.baseURL;
    }
  }
}

function authHeaders(adapter: CallAdapter, key: string): Record<string, string> {
  if (adapter === "ollama" && key === "") return {};
  if (adapter === "azure") return { "api-key": key };
  if (adapter === "anthropic") return { "x-api-key": key, "anthropic-version": "2023-06-01" };
  if (adapter === "google") return { "x-goog-api-key": key };
  return { authorization: `Bearer ${key}` };
}

/**
 * The probe of a model's endpoint, or null for a model that calls no endpoint of ours (manual traces, TaskEval,
 * Claude Code as an answering agent, which signs in by itself).
 * @throws {AdapterUnavailableError} naming the variable to set when the key is missing, or the adapter.
 */
function probeOf(model: ModelConfig, role: "answering" | "parsing", env: ProviderEnv): EndpointProbe | null {
  if (model.interface === "manual" || model.interface === "taskeval") return null;
  if (role === "answering" && model.interface === "claude_agent_sdk") return null;
  const target = languageModelFor(model, { env });
  const adapter = callAdapterFor(model);
  // Bedrock's model list is on another, SigV4-signed service, and Vertex's needs an OAuth token of Google's:
  // their credentials and region (project) were checked above.
  if (adapter === "bedrock" || adapter === "vertex" || adapter === "vertex_anthropic") return null;
  const key = target.secrets?.[0] ?? "";
  return { url: modelsUrlOf(model, adapter, env), headers: authHeaders(adapter, key), key };
}

function networkCause(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.message) return cause.message.replace(/^connect /, "");
  return error instanceof Error ? error.message : String(error);
}

async function rejection(response: Response, key: string): Promise<string> {
  const text = (await response.text().catch(() => "")).slice(0, 2_000);
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message);
    if (typeof inner === "string") message = inner;
  } catch {
    // Not JSON: the text as it came.
  }
  const shown = (key === "" ? message : message.split(key).join("[redacted]")).trim().slice(0, 200);
  return `HTTP ${response.status}${shown === "" ? "" : `: ${shown}`}`;
}

/** Why the probe failed, or null when the endpoint answered and took the key. */
async function probeProblem(probe: EndpointProbe, timeoutMs: number): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(probe.url, { headers: probe.headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return `cannot reach ${probe.url} (${networkCause(error, timeoutMs)})`;
  }
  if (response.status === 401 || response.status === 403) {
    return `${probe.url} refused the API key (${await rejection(response, probe.key)})`;
  }
  // Any other answer, 404 included (many local servers list no models), shows the endpoint is there.
  await response.body?.cancel().catch(() => undefined);
  return null;
}

/** The models of a run, each once, with the roles it plays. */
function modelsOf(config: VerificationConfig) {
  const models = new Map<string, { model: ModelConfig; roles: ("answering" | "parsing")[] }>();
  const add = (model: ModelConfig, role: "answering" | "parsing") => {
    const key = JSON.stringify([
      model.interface,
      model.model_name,
      model.model_provider,
      model.endpoint_base_url,
      model.anthropic_base_url,
    ]);
    const seen = models.get(key);
    if (seen === undefined) models.set(key, { model, roles: [role] });
    else if (!seen.roles.includes(role)) seen.roles.push(role);
  };
  for (const model of config.answering_models) add(model, "answering");
  for (const model of config.parsing_models) add(model, "parsing");
  return [...models.values()];
}

/**
 * Checks every answering and parsing model of a run before its first call: its key is there (as the adapter
 * would look for it) and its endpoint answers `GET {base}/models` within `timeoutMs` without refusing the
 * key (401/403). Endpoints are probed at once, each once. A cause reads e.g. `cannot reach
 * http://127.0.0.1:59999/v1/models (ECONNREFUSED 127.0.0.1:59999)`.
 */
export async function preflightModels(
  config: VerificationConfig,
  options: PreflightOptions = {},
): Promise<PreflightProblem[]> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? PREFLIGHT_TIMEOUT_MS;
  const probes = new Map<string, Promise<string | null>>();
  const probed = (probe: EndpointProbe) => {
    const id = JSON.stringify([probe.url, probe.headers]);
    let problem = probes.get(id);
    if (problem === undefined) {
      problem = probeProblem(probe, timeoutMs);
      probes.set(id, problem);
    }
    return problem;
  };
  const checks = modelsOf(config).map(async ({ model, roles }) => {
    let cause: string | null;
    try {
      const probe = roles.map((role) => probeOf(model, role, env)).find((p) => p !== null);
      cause = probe === undefined ? null : await probed(probe);
    } catch (error) {
      cause = error instanceof Error ? error.message : String(error);
    }
    return cause === null ? null : { roles, model: `${model.interface}:${model.model_name ?? "?"}`, cause };
  });
  return (await Promise.all(checks)).filter((problem) => problem !== null);
}

/**
 * `verify`'s preflight: resolves when every model can work.
 * @throws {PreflightError} listing each model that cannot, with the cause.
 */
export async function assertModelsReachable(
  config: VerificationConfig,
  options: PreflightOptions = {},
): Promise<void> {
  const problems = await preflightModels(config, options);
  if (problems.length > 0) throw new PreflightError(problems);
}
