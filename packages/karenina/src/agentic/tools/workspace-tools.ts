import { resolve } from "node:path";
import { type Tool, tool } from "ai";
import { z } from "zod";
import { WorkspaceToolError } from "./errors.js";
import { DEFAULT_TOOL_LIMITS, type WorkspaceToolLimits } from "./limits.js";
import { type ListFilesOutput, listFiles } from "./list-files.js";
import { type ReadFileOutput, readFile } from "./read-file.js";
import { type CommandRunner, hostCommandRunner, type RunCommandOutput } from "./run-command.js";
import { type SearchFilesOutput, searchFiles } from "./search-files.js";
import { type WriteFileOutput, writeFile } from "./write-file.js";

/** A judge's workspace tools: look, never touch. No `write_file`, no `run_command`. */
export interface ReadOnlyToolsOptions {
  mode: "read_only";
  limits?: Partial<WorkspaceToolLimits>;
}

/** An answering agent's workspace tools: `write_file` too, and `run_command` when allowed. */
export interface ReadWriteToolsOptions {
  mode: "read_write";
  /** Adds `run_command`; off by default. It is not a security sandbox (see `docs/agentic.md`). */
  allowCommands?: boolean;
  /** `run_command`'s time limit; 60 s by default. */
  commandTimeoutMs?: number;
  /**
   * Where `run_command` runs programs: the host ({@link hostCommandRunner}, the default here) or a container
   * backend (`bubblewrapRunner`). The pipeline chooses it from the model's `agent_runtime`.
   */
  commandRunner?: CommandRunner;
  limits?: Partial<WorkspaceToolLimits>;
}

/** How an agent may use its workspace. */
export type WorkspaceToolsOptions = ReadOnlyToolsOptions | ReadWriteToolsOptions;

/**
 * The tools every agent gets: looking at the workspace, never changing it. (Object types rather than
 * interfaces, so that a toolset is assignable to the AI SDK's `ToolSet`.)
 */
export type ReadOnlyWorkspaceTools = {
  list_files: Tool<{ path?: string; recursive?: boolean }, ListFilesOutput>;
  read_file: Tool<{ path: string; start_line?: number; end_line?: number }, ReadFileOutput>;
  search_files: Tool<
    { pattern: string; path?: string; regex?: boolean; case_sensitive?: boolean },
    SearchFilesOutput
  >;
};

/** An answering agent's tools: the read-only ones and `write_file`. */
export type WritableWorkspaceTools = ReadOnlyWorkspaceTools & {
  write_file: Tool<{ path: string; content: string }, WriteFileOutput>;
};

/** An answering agent's tools with `run_command`. */
export type CommandWorkspaceTools = WritableWorkspaceTools & {
  run_command: Tool<{ command: string; args?: string[] }, RunCommandOutput>;
};

const pathField = (what: string) =>
  z
    .string()
    .describe(`${what}, relative to the workspace (an absolute path inside the workspace also works)`);
const lineNumber = z.int().min(1);

/**
 * The built-in tools of a tool-loop agent working in `directory`, as AI SDK tools: `list_files`, `read_file`,
 * `search_files`, plus `write_file` in `read_write` mode and `run_command` when `allowCommands` is set.
 * Every path argument must stay inside the directory, also once symbolic links are followed; a tool call
 * that breaks a rule fails with a message the model reads. `run_command` is not a security sandbox: see
 * `docs/agentic.md`.
 *
 * @example
 * Object.keys(workspaceTools("workspaces", { mode: "read_only" })); // ["list_files", "read_file", "search_files"]
 * Object.keys(workspaceTools("workspaces", { mode: "read_write", allowCommands: true })).length; // 5
 */
export function workspaceTools(directory: string, options: ReadOnlyToolsOptions): ReadOnlyWorkspaceTools;
export function workspaceTools(
  directory: string,
  options: ReadWriteToolsOptions & { allowCommands: true },
): CommandWorkspaceTools;
export function workspaceTools(directory: string, options: ReadWriteToolsOptions): WritableWorkspaceTools;
export function workspaceTools(directory: string, options: WorkspaceToolsOptions): ReadOnlyWorkspaceTools;
export function workspaceTools(
  directory: string,
  options: WorkspaceToolsOptions,
): ReadOnlyWorkspaceTools | WritableWorkspaceTools | CommandWorkspaceTools {
  if (options.mode === "read_only" && (options as { allowCommands?: unknown }).allowCommands === true) {
    throw new WorkspaceToolError(
      "run_command",
      "is not available in read_only mode (judges do not run commands)",
    );
  }
  const root = resolve(directory);
  const limits: WorkspaceToolLimits = {
    ...DEFAULT_TOOL_LIMITS,
    ...options.limits,
    ...(options.mode === "read_write" && options.commandTimeoutMs !== undefined
      ? { commandTimeoutMs: options.commandTimeoutMs }
      : {}),
  };
  const readOnly: ReadOnlyWorkspaceTools = {
    list_files: tool({
      description:
        "List the files and directories of the workspace (recursively by default), in name order, with file " +
        `sizes in bytes. At most ${limits.listMaxEntries} entries; narrow with path when truncated.`,
      inputSchema: z.object({
        path: pathField("The directory to list").optional(),
        recursive: z.boolean().optional().describe("Descend into subdirectories (default true)"),
      }),
      execute: (input) => listFiles(root, input, limits),
    }),
    read_file: tool({
      description:
        "Read a text file of the workspace, or a range of its lines (1-based, inclusive). At most " +
        `${limits.readMaxBytes} bytes per call: when truncated, read on from end_line + 1.`,
      inputSchema: z.object({
        path: pathField("The file to read"),
        start_line: lineNumber.optional(),
        end_line: lineNumber.optional(),
      }),
      execute: (input) => readFile(root, input, limits),
    }),
    search_files: tool({
      description:
        "Find the lines of the workspace's text files that contain a text (or match a JavaScript regular " +
        `expression when regex is true). At most ${limits.searchMaxMatches} matches.`,
      inputSchema: z.object({
        pattern: z.string().min(1),
        path: pathField("A file or directory to search (default: the whole workspace)").optional(),
        regex: z.boolean().optional(),
        case_sensitive: z.boolean().optional().describe("Default true"),
      }),
      execute: (input) => searchFiles(root, input, limits),
    }),
  };
  if (options.mode === "read_only") return readOnly;
  const writable: WritableWorkspaceTools = {
    ...readOnly,
    write_file: tool({
      description:
        "Write a text file in the workspace (replacing it if it exists), creating missing directories. " +
        `At most ${limits.writeMaxBytes} bytes.`,
      inputSchema: z.object({ path: pathField("The file to write"), content: z.string() }),
      execute: (input) => writeFile(root, input, limits),
    }),
  };
  if (options.allowCommands !== true) return writable;
  const runner = options.commandRunner ?? hostCommandRunner;
  return {
    ...writable,
    run_command: tool({
      description:
        "Run a program in the workspace directory: command is the program, args its arguments (no shell: " +
        `no pipes, globs or redirections unless you run a shell yourself). Killed after ${limits.commandTimeoutMs} ms; ` +
        `output cut at ${limits.commandOutputBytes} bytes per stream. ${runner.description}`,
      inputSchema: z.object({ command: z.string().min(1), args: z.array(z.string()).optional() }),
      execute: (input, { abortSignal }) => runner.run(root, input, limits, abortSignal),
    }),
  };
}
