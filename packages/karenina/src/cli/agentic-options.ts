import { type Command, Option } from "commander";
import { McpSpecError, parseMcpSpec } from "../agentic/index.js";
import { CliUsageError } from "./cli-io.js";

/** The agentic options of `karenina verify` (and, those that shape the config, of `preset save`). */
export interface AgenticOptions {
  agenticParsing?: boolean;
  judgeContext?: "workspace_only" | "trace_and_workspace" | "trace_only";
  agentMaxTurns?: number;
  /** False with `--no-workspace-copy` (commander's default for a `--no-` option is true). */
  workspaceCopy?: boolean;
  keepWorkspaces?: boolean;
  mcp?: string[];
  workspaceRoot?: string;
  allowCommands?: boolean;
  captureWorkspaces?: "full" | "produced";
  captureDir?: string;
  captureExclude?: string[];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function turns(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliUsageError(`--agent-max-turns: expected an integer >= 1, found ${JSON.stringify(value)}`);
  return n;
}

/** The options that change a run's config: agentic parsing, its judge context, turn limit, workspaces, MCP. */
export function addAgenticConfigOptions(command: Command): Command {
  return command
    .option(
      "--agentic-parsing",
      "judge with an agent that investigates the workspace before extracting the template's answer (needs --workspace-root), e.g. --agentic-parsing --workspace-root ./workspaces",
    )
    .addOption(
      new Option(
        "--judge-context <mode>",
        "what the agentic judge sees besides the question (default workspace_only), e.g. --judge-context trace_and_workspace",
      ).choices(["workspace_only", "trace_and_workspace", "trace_only"]),
    )
    .option(
      "--agent-max-turns <n>",
      "turn limit of every agent: answering agents (reaching it fails the answer) and the agentic judge, e.g. --agent-max-turns 30",
      turns,
    )
    .option(
      "--no-workspace-copy",
      "let agents work in the question's own workspace directory, not a copy: its files may be changed for good, e.g. --workspace-root ./ws --no-workspace-copy",
    )
    .option(
      "--keep-workspaces",
      "keep the agents' working copies after the run (they are removed by default), e.g. --workspace-root ./ws --keep-workspaces",
    )
    .addOption(
      new Option(
        "--capture-workspaces <mode>",
        "after each task, copy its workspace to --capture-dir: all of it (full) or only the files it created or changed (produced), e.g. --capture-workspaces produced --capture-dir ./captures",
      ).choices(["full", "produced"]),
    )
    .option(
      "--capture-dir <dir>",
      "where workspaces are captured, one directory per result plus manifest.jsonl (manifest.json once the run completes), e.g. --capture-dir ./captures",
    )
    .option(
      "--capture-exclude <pattern>",
      "(repeatable) a glob left out of produced captures, besides .venv/, __pycache__/, *.pyc and the like, e.g. --capture-exclude '*.log' --capture-exclude 'tmp/'",
      collect,
    )
    .option(
      "--mcp <name=url_or_command>",
      "attach an MCP server to the answering model(s) (repeatable): an http(s) URL, or a command speaking MCP over stdio, e.g. --mcp kb=http://127.0.0.1:8931/mcp or --mcp files='npx -y @modelcontextprotocol/server-filesystem .'",
      collect,
    );
}

/** The options of `verify` alone: where workspaces live, and whether answering agents may run commands. */
export function addAgenticRunOptions(command: Command): Command {
  return command
    .option(
      "--workspace-root <dir>",
      "the benchmark's workspace root: question workspace_paths are relative to it, working copies are made in it, e.g. --workspace-root ./workspaces",
    )
    .option(
      "--allow-commands",
      "give answering tool-loop agents a run_command tool in their workspace (off by default; each command runs in a bubblewrap container unless the model names another backend: see docs/agentic.md), e.g. --workspace-root ./ws --allow-commands",
    );
}

function withMcp(model: unknown, servers: Record<string, string>): unknown {
  if (model === null || typeof model !== "object") return model;
  const entry = model as Record<string, unknown>;
  if (entry.interface === "manual")
    throw new CliUsageError("--mcp: the manual interface cannot use MCP servers");
  const current = (entry.mcp_urls_dict ?? {}) as Record<string, string>;
  return { ...entry, mcp_urls_dict: { ...current, ...servers } };
}

function withTurnLimit(model: unknown, maxTurns: number): unknown {
  if (model === null || typeof model !== "object") return model;
  const entry = model as Record<string, unknown>;
  const middleware = (entry.agent_middleware ?? {}) as Record<string, unknown>;
  const limits = (middleware.limits ?? {}) as Record<string, unknown>;
  return { ...entry, agent_middleware: { ...middleware, limits: { ...limits, model_call_limit: maxTurns } } };
}

/**
 * Writes the capture options into a config input: `workspace_output_mode`, `workspace_output_dir`,
 * `workspace_output_exclude_patterns`.
 * @throws {CliUsageError} for a capture mode without a capture dir, or patterns given for a full capture.
 */
function applyCaptureOptions(input: Record<string, unknown>, options: AgenticOptions): void {
  if (options.captureWorkspaces !== undefined) input.workspace_output_mode = options.captureWorkspaces;
  if (options.captureDir !== undefined) input.workspace_output_dir = options.captureDir;
  if (options.captureExclude !== undefined) input.workspace_output_exclude_patterns = options.captureExclude;
  const mode = input.workspace_output_mode ?? "none";
  const given = options.captureWorkspaces !== undefined || options.captureDir !== undefined;
  if (given && mode !== "none" && !input.workspace_output_dir)
    throw new CliUsageError(
      `--capture-workspaces ${String(mode)} needs --capture-dir DIR (where the captures go)`,
    );
  if (given && mode === "none")
    throw new CliUsageError("--capture-dir needs --capture-workspaces full|produced (what to capture)");
  if (options.captureExclude !== undefined && mode !== "produced")
    throw new CliUsageError(
      "--capture-exclude applies to produced captures only (a full capture copies everything): add --capture-workspaces produced",
    );
}

/**
 * Writes the agentic options into a config input (before it is validated): `agentic_parsing`,
 * `agentic_judge_context`, `workspace_copy`, `workspace_cleanup`, the judge's `agentic_parsing_max_turns` and the
 * answering models' turn limit, and the answering models' MCP servers.
 * @throws {CliUsageError} for an unreadable `--mcp` or MCP on a manual model.
 */
export function applyAgenticOptions(input: Record<string, unknown>, options: AgenticOptions): void {
  if (options.agenticParsing) input.agentic_parsing = true;
  if (options.judgeContext !== undefined) input.agentic_judge_context = options.judgeContext;
  if (options.workspaceCopy === false) input.workspace_copy = false;
  if (options.keepWorkspaces) input.workspace_cleanup = false;
  applyCaptureOptions(input, options);
  let answering = Array.isArray(input.answering_models) ? (input.answering_models as unknown[]) : [];
  if (options.agentMaxTurns !== undefined) {
    const maxTurns = options.agentMaxTurns;
    input.agentic_parsing_max_turns = maxTurns;
    answering = answering.map((model) => withTurnLimit(model, maxTurns));
  }
  if (options.mcp !== undefined) {
    const servers: Record<string, string> = {};
    for (const value of options.mcp) {
      try {
        const { name, target } = parseMcpSpec(value);
        servers[name] = target;
      } catch (error) {
        if (error instanceof McpSpecError) throw new CliUsageError(`--mcp: ${error.message}`);
        throw error;
      }
    }
    answering = answering.map((model) => withMcp(model, servers));
  }
  if (answering.length > 0) input.answering_models = answering;
}

/**
 * Refuses a run whose agentic settings cannot work: agentic parsing (from the flag or a preset) without a
 * workspace root, or `--allow-commands` without one (commands run only in workspaces).
 * @throws {CliUsageError}
 */
export function checkAgenticRun(config: { agentic_parsing: boolean }, options: AgenticOptions): void {
  if (options.workspaceRoot !== undefined) return;
  if (config.agentic_parsing)
    throw new CliUsageError(
      "agentic parsing needs --workspace-root DIR (where the agents' workspaces are made)",
    );
  if (options.allowCommands)
    throw new CliUsageError("--allow-commands needs --workspace-root DIR (commands run only in workspaces)");
}

/** The run options the agentic flags give `runVerification`. */
export function agenticRunOptions(options: AgenticOptions): {
  workspaceRoot?: string;
  agentCommands?: boolean;
} {
  return {
    ...(options.workspaceRoot === undefined ? {} : { workspaceRoot: options.workspaceRoot }),
    ...(options.allowCommands ? { agentCommands: true } : {}),
  };
}

/** The "Agentic evaluation" block of `verify --help`. */
export const AGENTIC_HELP = `
Agentic evaluation (docs/agentic.md):
  karenina verify bench.jsonld -a openai:gpt-4.1 -p openai:gpt-4.1-mini --workspace-root ./workspaces \\
      --agentic-parsing --judge-context trace_and_workspace     # agents fix files; an agent judge inspects them
  karenina verify bench.jsonld -a openai:gpt-4.1 -p openai:gpt-4.1-mini --mcp kb=http://127.0.0.1:8931/mcp
  karenina verify bench.jsonld -a claude_agent_sdk:claude-sonnet-4-5 -p anthropic:claude-haiku-4-5 \\
      --workspace-root ./workspaces --agentic-parsing --agent-max-turns 40 --keep-workspaces
Given a workspace root, a task that uses agentic parsing, agentic rubric traits, MCP or a deep agent runs its
answering model as an agent in a copy of its question's workspace: tool-loop models get list_files, read_file,
search_files and write_file there (run_command with --allow-commands); judges get the reading tools only.
Capture what the agents left (one directory per result, listed in manifest.json):
  karenina verify bench.jsonld -a openai:gpt-4.1 -p openai:gpt-4.1-mini --workspace-root ./workspaces \\
      --agentic-parsing --capture-workspaces produced --capture-dir ./captures --capture-exclude '*.log'
  karenina verify bench.jsonld -a openai:gpt-4.1 -p openai:gpt-4.1-mini --workspace-root ./workspaces \\
      --agentic-parsing --capture-workspaces full --capture-dir ./captures   # agents work in the captures`;
