export {
  type CallAdapter,
  callAdapterFor,
  embeddingPortFor,
  languageModelFor,
  llmPortFor,
  openAiEndpointOptions,
  type PortRoutingOptions,
  parserPortFor,
  requestKwargs,
} from "./adapter-routing.js";
export {
  type AgentMiddlewareConfig,
  AgentMiddlewareConfigSchema,
  DEFAULT_CONTEXT_TOKENS,
  summarizationTrigger,
} from "./agent-middleware.js";
export {
  type AgentRole,
  type AgentRoutingOptions,
  agentMiddlewareFor,
  agentPortFor,
  agentTierFor,
  mcpAttachmentFor,
  usesAgentPort,
} from "./agent-routing.js";
export { verificationConfigWarnings } from "./config-warnings.js";
export { ConfigError, PresetError, PresetNotFoundError } from "./errors.js";
export {
  type AdapterTarget,
  type AgentTier,
  adapterTarget,
  callAdapterTarget,
  INTERFACES,
  type InterfaceSpec,
  isKnownInterface,
  PROVIDERS,
} from "./interfaces.js";
export {
  AgentRuntimeConfigSchema,
  MODEL_CONFIG_KEYS,
  type ModelConfig,
  type ModelConfigInput,
  ModelConfigSchema,
} from "./model-config.js";
export {
  canonicalKey,
  displayString,
  type ModelIdentity,
  ModelIdentitySchema,
  modelIdentity,
} from "./model-identity.js";
export { type ModelSpec, ModelSpecError, parseModelSpec } from "./model-spec.js";
export {
  findPresetFile,
  listPresets,
  loadPreset,
  type Preset,
  type PresetFile,
  type PresetSummary,
  presetContent,
  presetFileName,
  resolvePresetsDir,
  savePreset,
} from "./presets.js";
export { SECRET_MASK, Secret, SecretSchema, withEndpointKey } from "./secret.js";
export {
  applyEnvDefaults,
  CONFIG_ENV_VARIABLES,
  DEFAULT_ANSWERING_SYSTEM_PROMPT,
  DEFAULT_PARSING_SYSTEM_PROMPT,
  dumpVerificationConfig,
  type Env,
  type FewShotConfig,
  FewShotConfigSchema,
  normalizeVerificationInput,
  type PromptConfig,
  PromptConfigSchema,
  parseVerificationConfig,
  QuestionFewShotConfigSchema,
  type SearchResult,
  type SearchResultItem,
  type SearchTool,
  type VerificationConfig,
  type VerificationConfigInput,
  VerificationConfigSchema,
} from "./verification-config.js";
