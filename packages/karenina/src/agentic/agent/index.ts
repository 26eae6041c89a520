export { type AgentPrompt, type AgentStep, toAgentPrompt, traceFromSteps } from "./agent-messages.js";
export { agentResult, type RunOutcome } from "./agent-result.js";
export { AgentExecutionError } from "./errors.js";
export { type ToolLoopAgentOptions, toolLoopAgent } from "./tool-loop-agent.js";
