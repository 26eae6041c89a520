import { readFile } from "node:fs/promises";
import { RegexEngineError, RegexTimeoutError, runRegexAsync } from "../../python-regex/index.js";
import { WorkspaceToolError } from "./errors.js";
import type { WorkspaceToolLimits } from "./limits.js";
import { existingStats, toolPath } from "./tool-paths.js";
import { displayPath, looksBinary, walk } from "./walk.js";

export interface SearchFilesInput {
  /** The text to find, or a JavaScript regular expression when `regex` is true. */
  pattern: string;
  /** A file or directory of the workspace to search; the whole workspace by default. */
  path?: string;
  regex?: boolean;
  /** True by default. */
  case_sensitive?: boolean;
}

export interface SearchMatch {
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface SearchFilesOutput {
  matches: SearchMatch[];
  /** True when `searchMaxMatches` stopped the search. */
  truncated: boolean;
  files_searched: number;
  /** Binary files and files over `searchMaxFileBytes`, not searched. */
  files_skipped: number;
}

/** How long a model's regular expression may run over one file before the search is refused. */
const FILE_DEADLINE_MS = 1000;

/** The 0-based numbers of a file's matching lines. */
type FileMatcher = (text: string, path: string) => Promise<number[]>;

function matcher(input: SearchFilesInput): FileMatcher {
  const flags = input.case_sensitive === false ? "i" : "";
  const source = input.regex ? input.pattern : input.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, flags);
  } catch (error) {
    throw new WorkspaceToolError(
      "search_files",
      `pattern ${JSON.stringify(input.pattern)}: expected a valid regular expression (${(error as Error).message})`,
    );
  }
  if (!input.regex) {
    return async (text) => linesOf(text).flatMap((line, index) => (compiled.test(line) ? [index] : []));
  }
  // A model's regex can backtrack for hours on a line the agent wrote itself: it runs off the event loop (the
  // asynchronous worker pool), under a deadline per file.
  return async (text, path) => {
    try {
      return await runRegexAsync("lines", { source, flags }, text, { timeoutMs: FILE_DEADLINE_MS });
    } catch (error) {
      if (!(error instanceof RegexTimeoutError || error instanceof RegexEngineError)) throw error;
      throw new WorkspaceToolError(
        "search_files",
        `pattern ${JSON.stringify(input.pattern)} was stopped on ${path}: ${error.message}`,
      );
    }
  };
}

/** As the regex worker's `lines` operation splits them. */
const linesOf = (text: string): string[] => text.split(/\r?\n/);

/** The lines of the workspace's text files that match a text or a regular expression, in path order. */
export async function searchFiles(
  workspace: string,
  input: SearchFilesInput,
  limits: Pick<WorkspaceToolLimits, "searchMaxMatches" | "searchMaxFileBytes" | "searchLineChars">,
): Promise<SearchFilesOutput> {
  const matches = matcher(input);
  const requested = input.path ?? ".";
  const start = await toolPath("search_files", workspace, requested);
  const stats = await existingStats("search_files", start, requested);
  if (!stats.isDirectory() && !stats.isFile()) {
    throw new WorkspaceToolError(
      "search_files",
      `${JSON.stringify(requested)}: expected a file or directory, found a special file`,
    );
  }
  const files = stats.isDirectory()
    ? walk(workspace, start, true)
    : [{ path: displayPath(workspace, start), type: "file" as const, size: stats.size, absolute: start }];
  const output: SearchFilesOutput = { matches: [], truncated: false, files_searched: 0, files_skipped: 0 };
  for await (const file of files) {
    if (file.type !== "file") continue;
    if ((file.size ?? 0) > limits.searchMaxFileBytes || (await looksBinary(file.absolute))) {
      output.files_skipped++;
      continue;
    }
    output.files_searched++;
    const text = await readFile(file.absolute, "utf8");
    const lines = linesOf(text);
    for (const index of await matches(text, file.path)) {
      if (output.matches.length === limits.searchMaxMatches) return { ...output, truncated: true };
      const line = lines[index] ?? "";
      output.matches.push({ path: file.path, line: index + 1, text: line.slice(0, limits.searchLineChars) });
    }
  }
  return output;
}
