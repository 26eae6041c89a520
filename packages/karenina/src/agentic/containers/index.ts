export {
  type BubblewrapExtras,
  type BubblewrapOptions,
  bubblewrapArgs,
  bubblewrapRunner,
} from "./bubblewrap.js";
export {
  CLAUDE_CODE_HOME,
  CLAUDE_CODE_MIN_ADDRESS_SPACE,
  type ClaudeBubblewrapNetwork,
  type ClaudeCodeContainer,
  type ClaudeCodeContainerOptions,
  type ClaudeCodeSandbox,
  type ClaudeSpawnedProcess,
  type ClaudeSpawnRequest,
  claudeCodeContainer,
  claudeProgramMounts,
  MODEL_RELAY_PORT,
} from "./claude-code-container.js";
export {
  CLAUDE_CODE_CONTAINER_LABEL,
  type ClaudeCodeCreateSpec,
  type ClaudeCodeEngineContainer,
  type ClaudeCodeEngineOptions,
  type ClaudeCodeNetwork,
  claudeCodeCreateOptions,
  claudeCodeEngineContainer,
} from "./claude-code-engine.js";
export { malformedAddHosts } from "./docker-create-options.js";
export type { DockerRuntime } from "./docker-daemon.js";
export { CONTAINER_LABEL, type DockerOptions, dockerRunner } from "./docker-runner.js";
export { ContainerBackendUnavailableError } from "./errors.js";
export { type ContainerLimits, DEFAULT_CONTAINER_LIMITS, limitReached } from "./limits.js";
export { DEFAULT_MODEL_API, type ModelGate, ModelGateError, startModelGate } from "./model-gate.js";
