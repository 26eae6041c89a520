/**
 * Recording whole agent runs and replaying them offline (so agentic benchmarks run with no network and no
 * key): the recorded `AgentResult` holds every turn, tool call and tool result, its usage and how the run
 * ended. Replaying returns it without running the agent: tools are not run again, so what they did to the
 * workspace (files written) is not redone; what the pipeline reads from the run (the trace) is the same.
 */
import type { Message } from "../messages.js";
import type { AgentPort, AgentResult, AgentRunOptions } from "../ports.js";
import { BASE_CAPABILITIES } from "../ports.js";
import {
  inner,
  type RecordingOptions,
  readRecording,
  recordingKey,
  writeRecording,
} from "./recording-ports.js";

/**
 * What stands for the run's workspace directory in recordings: a run in a fresh working copy (another
 * directory each time) records and replays under the same key.
 */
export const WORKSPACE_PLACEHOLDER = "<workspace>";

/** Every string of a JSON-like value with `from` replaced by `to` (a copy; the value is left as it is). */
function replacedStrings<T>(value: T, from: string, to: string): T {
  if (typeof value === "string") return value.replaceAll(from, to) as T;
  if (Array.isArray(value)) return value.map((item) => replacedStrings(item, from, to)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, replacedStrings(item, from, to)]),
  ) as T;
}

/** The workspace directory written as {@link WORKSPACE_PLACEHOLDER} (nothing changes without one). */
function withPlaceholder<T>(value: T, workingDir: string | undefined): T {
  return workingDir === undefined || workingDir === ""
    ? value
    : replacedStrings(value, workingDir, WORKSPACE_PLACEHOLDER);
}

/** What of a run's options changes what the agent does: its tools (by name), MCP servers and turn limit. */
function runShape(options: AgentRunOptions): Record<string, unknown> {
  return {
    tools: Object.keys(options.tools ?? {}).sort(),
    mcp_servers: options.mcp === undefined ? null : Object.keys(options.mcp?.servers ?? {}).sort(),
    mcp_tool_filter: options.mcp?.toolFilter ?? null,
    max_turns: options.maxTurns ?? null,
  };
}

/**
 * An `AgentPort` that records the runs of `port` (mode `record`) or replays recorded runs (mode `replay`,
 * where `port` may be null: no agent runs, no tool is called, no MCP server is reached). The request key is
 * the model identity, the messages and parameters (see {@link recordingKey}) and the run's tool names, MCP
 * servers and turn limit, with the workspace directory written as {@link WORKSPACE_PLACEHOLDER}; a replayed
 * run gets the current workspace directory back in its place. The wall-clock limit is not part of the key.
 * Failed runs (errors, aborts) are not recorded; runs that hit a limit are, with their flags.
 * @throws {ReplayMissError} (from `run`, in replay mode) naming the model, the request and its key when the
 * run was never recorded.
 * @example
 * const offline = recordingAgentPort(null, { dir: "recordings", mode: "replay", modelIdentity: "openai_endpoint:qwen" });
 * typeof offline.run; // "function"
 */
export function recordingAgentPort(port: AgentPort | null, options: RecordingOptions): AgentPort {
  const real = inner(port, options);
  return {
    capabilities: real?.capabilities ?? BASE_CAPABILITIES,
    async run(messages: readonly Message[], runOptions: AgentRunOptions = {}): Promise<AgentResult> {
      const workingDir = runOptions.workingDir;
      const keyed = withPlaceholder(messages, workingDir);
      const request = {
        ...options,
        parameters: { ...(options.parameters ?? {}), ...runShape(runOptions) },
      };
      const key = recordingKey("agent", request, keyed);
      if (options.mode === "replay") {
        const file = await readRecording(options.dir, key, "agent", { ...options, messages });
        const recorded = file.response as unknown as AgentResult;
        return workingDir === undefined || workingDir === ""
          ? recorded
          : replacedStrings(recorded, WORKSPACE_PLACEHOLDER, workingDir);
      }
      const result = await (real as AgentPort).run(messages, runOptions);
      await writeRecording(
        options.dir,
        key,
        "agent",
        request,
        keyed,
        undefined,
        withPlaceholder(result, workingDir),
      );
      return result;
    },
    close: async () => {
      await real?.close();
    },
  };
}
