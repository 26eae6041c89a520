import { z } from "zod";
import { ManualTraces } from "../../../llm/manual/index.js";
import { RetryPolicySchema } from "../../../llm/retry/index.js";
import { AgentMiddlewareConfigSchema } from "./agent-middleware.js";
import { INTERFACES, isKnownInterface } from "./interfaces.js";
import { SecretSchema } from "./secret.js";

/**
 * Backend and sandbox settings of agents (spec 04 §3, spec 05 §5.4–5.5). For a tool-loop agent's `run_command`:
 * `backend` `local_shell` (or `host`) runs commands on the host, unconfined; `container` runs them in
 * `container_runtime`; `docker` is `container` with Docker; any other backend (the default) runs them in
 * bubblewrap. `container_network` `none` (our default; the original's is `bridge`) gives commands no network.
 * The `container_*` limits bound each command.
 */
export const AgentRuntimeConfigSchema = z.strictObject({
  backend: z
    .enum(["native", "filesystem", "container", "docker", "local_shell", "host"])
    .nullable()
    .default(null),
  access_mode: z.enum(["read_write", "read_only"]).default("read_write"),
  sandbox_enabled: z.boolean().default(true),
  container_runtime: z.enum(["docker", "podman", "bubblewrap", "singularity", "apptainer"]).default("docker"),
  container_image: z.string().nullable().default(null),
  container_network: z.enum(["bridge", "none"]).default("none"),
  container_add_hosts: z.array(z.string()).default([]),
  /** CPU seconds each command may use. */
  container_cpu_seconds: z.int().positive().default(60),
  /** Memory (address space) of each command, in MB. */
  container_memory_mb: z.int().positive().default(2048),
  /** Processes each command may run at once, itself included. */
  container_max_processes: z.int().positive().default(256),
  read_max_bytes: z.int().positive().nullable().default(null),
});

/** A model's agent runtime settings. */
export type AgentRuntimeConfig = z.infer<typeof AgentRuntimeConfigSchema>;

const nullableRecord = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).nullable().default(null);

/** Interfaces that may carry `anthropic_base_url` / `anthropic_api_key`. */
const ANTHROPIC_SETTINGS_INTERFACES = new Set([
  "anthropic",
  "claude_agent_sdk",
  "claude_tool",
  "langchain",
  "langchain_deep_agents",
]);

const ModelConfigFields = z.strictObject({
  id: z.string().nullable().default(null),
  model_provider: z.string().nullable().default(null),
  model_name: z.string().nullable().default(null),
  temperature: z.number().default(0.1),
  max_tokens: z.int().default(16384),
  interface: z.string().default("langchain"),
  system_prompt: z.string().nullable().default(null),
  max_retries: z.int().default(2),
  mcp_urls_dict: nullableRecord(z.string()),
  mcp_tool_filter: z.array(z.string()).nullable().default(null),
  mcp_tool_description_overrides: nullableRecord(z.string()),
  mcp_http_timeout: z.number().nullable().default(null),
  mcp_sse_read_timeout: z.number().nullable().default(null),
  endpoint_base_url: z.string().nullable().default(null),
  endpoint_api_key: SecretSchema,
  anthropic_base_url: z.string().nullable().default(null),
  anthropic_api_key: SecretSchema,
  agent_runtime: AgentRuntimeConfigSchema.nullable().default(null),
  extra_kwargs: nullableRecord(z.unknown()),
  /**
   * Manual traces: a `ManualTraces` registry, or a plain `{md5(question text): trace}` record (read it with
   * `ManualTraces.from`). Never serialized.
   */
  manual_traces: z
    .union([z.instanceof(ManualTraces).meta({ type: "object" }), z.record(z.string(), z.string())])
    .nullable()
    .default(null),
  /**
   * Agent middleware settings (spec 04 §3): checked against `AgentMiddlewareConfigSchema`, kept as given (the
   * defaults are filled when the agent is built, so a saved config writes only what the user set).
   */
  agent_middleware: nullableRecord(z.unknown()).superRefine((value, ctx) => {
    if (value === null) return;
    const checked = AgentMiddlewareConfigSchema.safeParse(value);
    for (const issue of checked.error?.issues ?? []) {
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }
  }),
  max_context_tokens: z.int().nullable().default(null),
  agent_timeout: z.int().nullable().default(null),
  request_timeout: z.number().nullable().default(null),
  retry_policy: RetryPolicySchema.nullable().default(null),
});

/**
 * A model as the original's JSON writes it (spec 04 §3): strict, snake_case. Manual models get `id` and
 * `model_name` `"manual"`; every other model needs both. API keys are `Secret`s: they serialize as a mask.
 */
export const ModelConfigSchema = ModelConfigFields.transform((model) =>
  model.interface === "manual"
    ? { ...model, id: model.id ?? "manual", model_name: model.model_name ?? "manual" }
    : model,
).superRefine((model, ctx) => {
  const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (!isKnownInterface(model.interface)) {
    problem(
      "interface",
      `unknown interface ${JSON.stringify(model.interface)} (known: ${Object.keys(INTERFACES).join(", ")})`,
    );
  }
  if (model.interface === "manual") {
    if (model.manual_traces === null) problem("manual_traces", "is required for the manual interface");
    if (model.mcp_urls_dict !== null) problem("mcp_urls_dict", "is not allowed for the manual interface");
  } else {
    if (model.id === null) problem("id", "is required");
    if (model.model_name === null) problem("model_name", "is required");
  }
  for (const key of ["anthropic_base_url", "anthropic_api_key"] as const) {
    if (model[key] === null) continue;
    const langchainFamily = model.interface === "langchain" || model.interface === "langchain_deep_agents";
    if (
      !ANTHROPIC_SETTINGS_INTERFACES.has(model.interface) ||
      (langchainFamily && model.model_provider !== "anthropic")
    ) {
      problem(
        key,
        `is only allowed for claude_tool, claude_agent_sdk, or LangChain interfaces with provider anthropic`,
      );
    }
    const conflicting = key === "anthropic_base_url" ? "base_url" : "api_key";
    if (model.extra_kwargs !== null && conflicting in model.extra_kwargs) {
      problem(key, `conflicts with extra_kwargs.${conflicting}`);
    }
  }
});

/** Every key a model config accepts. */
export const MODEL_CONFIG_KEYS: readonly string[] = Object.keys(ModelConfigFields.shape);

export type ModelConfigInput = z.input<typeof ModelConfigSchema>;
export type ModelConfig = z.output<typeof ModelConfigSchema>;
